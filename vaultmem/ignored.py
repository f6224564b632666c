"""What a vault's owner asked vaultmem to leave out of its findings: ``.vaultmem/ignored.txt``.

One entry a line, ``finding ID``, ``kind KIND`` or ``folder FOLDER``, each optionally followed by
``# why``; blank lines and lines starting with ``#`` are comments. ``vaultmem ignore`` adds
lines; people may edit the file by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .errors import ConfigError
from .regular_files import read_regular

PATH = ".vaultmem/ignored.txt"
WHAT = ("finding", "kind", "folder")


class Ignored(NamedTuple):
    """Finding ids, whole kinds and folders whose findings stay quiet."""

    findings: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    folders: tuple[str, ...] = ()

    def quiets(self, finding_id: str, kind: str, notes: list[str]) -> bool:
        """True when a finding of ``kind`` about ``notes`` is one the owner ignores (by its id,
        its kind, or a folder holding any of its notes)."""
        return (finding_id in self.findings or kind in self.kinds
                or any(note == f or note.startswith(f"{f}/") for f in self.folders
                       for note in notes))


def load_ignored(root: Path) -> Ignored:
    """The vault's ignore list (empty when it has none); ConfigError names a bad line."""
    try:
        text = read_regular(root / PATH).decode("utf-8", "replace")
    except FileNotFoundError:
        return Ignored()
    except OSError as exc:
        raise ConfigError(f"{PATH}: cannot read it ({exc}); fix or delete the file") from exc
    return parse_ignored(text)


def parse_ignored(text: str) -> Ignored:
    """The ignore list in ``text``; ConfigError names a bad line."""
    found: dict[str, set[str]] = {what: set() for what in WHAT}
    for number, line in enumerate(text.splitlines(), 1):
        try:
            entry = parse_line(line)
        except ValueError as exc:
            raise ConfigError(f"{PATH}:{number}: {exc}") from None
        if entry is not None:
            found[entry[0]].add(entry[1])
    return Ignored(frozenset(found["finding"]), frozenset(found["kind"]),
                   tuple(sorted(found["folder"])))


def parse_line(line: str) -> tuple[str, str] | None:
    """(what, value) of one line; None for a blank line or a comment; ValueError when it is
    neither."""
    entry = line.split(" #", 1)[0].strip()
    if not entry or entry.startswith("#"):
        return None
    what, _, value = entry.partition(" ")
    value = value.strip().strip("/")
    if what not in WHAT or not value:
        raise ValueError(f"expected 'finding ID', 'kind KIND' or 'folder FOLDER', found "
                         f"{entry!r}")
    return what, value


def ignore_line(what: str, value: str, why: str = "") -> str:
    """The line that ignores ``value`` (a finding id, kind or folder), with its reason.

    >>> ignore_line("finding", "orphan:1a2b3c4d", "kept on purpose")
    'finding orphan:1a2b3c4d  # kept on purpose'
    """
    return f"{what} {value}" + (f"  # {' '.join(why.split())}" if why.strip() else "")
