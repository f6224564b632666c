"""The learnings files' format: ``## [ID] title`` entries with ``**Field**: value`` lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..read.parse import parse_note
from ..write.props import newline_of
from ..write.sections import NO_CONFIG

ENTRY = re.compile(r"##\s+\[([A-Z]+)-(\d{8})-(\d+)\]")
FIELD = re.compile(r"\*\*([\w-]+)\*\*:\s*(.*)")


@dataclass
class Entry:
    """One raw entry of a learnings file: its id, heading line and ``**Field**: value`` lines."""

    id: str
    start: int
    fields: dict[str, tuple[int, str]] = field(default_factory=dict)  # name: (line, value)

    def value(self, name: str) -> str:
        """A field's value, or ``""``."""
        return self.fields.get(name, (0, ""))[1].strip()


def entries_of(text: str) -> list[Entry]:
    """The ``## [ID] title`` entries of a learnings file (headings in code blocks are not)."""
    lines = text.splitlines()
    heads = [h.line - 1 for h in parse_note("x.md", text.encode("utf-8"), NO_CONFIG).headings
             if h.level <= 2]
    found = []
    for start, end in zip(heads, [*heads[1:], len(lines)], strict=False):
        match = ENTRY.match(lines[start].strip())
        if match is None:
            continue
        found.append(Entry("-".join(match.groups()), start))
        for line in range(start + 1, end):
            got = FIELD.fullmatch(lines[line].strip())
            if got is None:
                break
            found[-1].fields[got.group(1)] = (line, got.group(2))
    return found


def of_key(entries: list[Entry], key: str) -> list[Entry]:
    """The entries of one pattern key (case does not matter)."""
    return [e for e in entries if e.value("Pattern-Key").casefold() == key.casefold()]


def seen(entries: list[Entry]) -> int:
    """How often a key was seen: its entries, or the highest Count one of them states."""
    return max([len(entries), *(int(c) for c in (e.value("Count") for e in entries)
                                if c.isdigit())])


def first_logged(entries: list[Entry], *more: str) -> str:
    """The earliest Logged date of the entries (and ``more``), or ``""``."""
    return min([*more, *(e.value("Logged") for e in entries if e.value("Logged"))] or [""])


def set_fields(text: str, entries: list[Entry], values: dict[str, str]) -> str:
    """These field values in each entry (missing ones added; a ``Promoted-To`` is kept)."""
    lines, nl = text.splitlines(keepends=True), newline_of(text)
    for entry in reversed(entries):
        for name, value in values.items():
            if name in entry.fields and name != "Promoted-To":
                line = entry.fields[name][0]
                lines[line] = f"**{name}**: {value}" + lines[line][len(lines[line].rstrip()):]
        added = [f"**{k}**: {v}{nl}" for k, v in values.items() if k not in entry.fields]
        at = max([entry.start, *(line for line, _ in entry.fields.values())]) + 1
        if added and not lines[at - 1].endswith(("\n", "\r")):
            lines[at - 1] += nl
        lines[at:at] = added
    return "".join(lines)
