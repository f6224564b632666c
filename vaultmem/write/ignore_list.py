"""Adding to the owner's ignore list (``.vaultmem/ignored.txt``), one line a finding, kind or
folder to leave out of vaultmem's findings."""

from __future__ import annotations

from ..errors import UsageError
from ..ignored import PATH, WHAT, ignore_line, load_ignored
from ..vault import Vault
from .apply import WriteResult, apply

HEADER = ("# Findings vaultmem leaves out: 'finding ID', 'kind KIND' or 'folder FOLDER', one a "
          "line, '# why' after it.\n# vaultmem ignore adds lines here; edit them freely.\n")


def add_ignored(vault: Vault, what: str, value: str, *, why: str = "",
                dry_run: bool = False) -> WriteResult:
    """Ignore a finding id, a whole kind or a folder from now on (nothing if it already is)."""
    if what not in WHAT or not value.strip() or "\n" in value or " #" in value:
        raise UsageError(f"cannot ignore {what} {value!r}: give a finding id, a kind or a "
                         "folder, on one line")
    line = ignore_line(what, value.strip().strip("/"), why)

    def change(old: str | None) -> str | None:
        known = load_ignored(vault.root)
        held = {"finding": known.findings, "kind": known.kinds, "folder": set(known.folders)}
        if value.strip().strip("/") in held[what]:
            return None
        text = old if old is not None else HEADER
        return text + ("" if text.endswith("\n") else "\n") + line + "\n"

    return apply(vault, PATH, change, action="updated", dry_run=dry_run)
