"""Adding to the owner's ignore list (``.vaultmem/ignored.txt``), one line a finding, kind or
folder to leave out of vaultmem's findings."""

from __future__ import annotations

from ..caller import LOCAL, Caller
from ..errors import UsageError
from ..ignored import PATH, ignore_line, parse_ignored, parse_line
from ..vault import Vault
from .apply import WriteResult, apply

HEADER = ("# Findings vaultmem leaves out: 'finding ID', 'kind KIND' or 'folder FOLDER', one a "
          "line, '# why' after it.\n# vaultmem ignore adds lines here; edit them freely.\n")


def add_ignored(vault: Vault, what: str, value: str, *, why: str = "",
                dry_run: bool = False, caller: Caller = LOCAL) -> WriteResult:
    """Ignore a finding id, a whole kind or a folder from now on (nothing if it already is)."""
    line = ignore_line(what, value.strip().strip("/"), why)
    if "\n" in line or _parsed(line) != (what, value.strip().strip("/")):
        raise UsageError(f"cannot ignore {what} {value!r}: give a finding id, a kind or a "
                         "folder, on one line, not starting with #")

    def change(old: str | None) -> str | None:
        known = parse_ignored(old or "")
        held = {"finding": known.findings, "kind": known.kinds, "folder": set(known.folders)}
        if value.strip().strip("/") in held[what]:
            return None
        text = old if old is not None else HEADER
        return text + ("" if text.endswith("\n") else "\n") + line + "\n"

    return apply(vault, PATH, change, action="updated", dry_run=dry_run, caller=caller)


def _parsed(line: str) -> tuple[str, str] | None:
    """What the ignore list will read ``line`` as (None: nothing it can read)."""
    try:
        return parse_line(line)
    except ValueError:
        return None
