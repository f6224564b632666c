"""Where lines, ``[[`` and ``]]`` are in an inline block, found once per block."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left

from markdown_it.rules_inline import StateInline

OPENER = {"]": "[", ")": "("}


class Marks:
    """Where lines, ``[[`` and ``]]`` are in one inline block, found once and bisected after."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.newlines = [m.start() for m in re.finditer("\n", src)]
        self.opens = [m.start() for m in re.finditer(r"(?=\[\[)", src)]
        self.closes = [m.start() for m in re.finditer(r"(?=\]\])", src)]
        self.links_only: tuple[int, int] = (-1, -1)  # (line start, end of a links-only prefix)

    def line_of(self, pos: int) -> int:
        """How many newlines come before ``pos``."""
        return bisect_left(self.newlines, pos)

    def line_start(self, pos: int) -> int:
        """Where the line holding ``pos`` starts."""
        index = self.line_of(pos)
        return self.newlines[index - 1] + 1 if index else 0

    def line_end(self, pos: int) -> int:
        """Where the line holding ``pos`` ends (its newline, or the end)."""
        index = self.line_of(pos)
        return self.newlines[index] if index < len(self.newlines) else len(self.src)

    def next_close(self, pos: int) -> int:
        """The first ``]]`` at or after ``pos``, or -1."""
        index = bisect_left(self.closes, pos)
        return self.closes[index] if index < len(self.closes) else -1

    def opens_between(self, start: int, end: int) -> bool:
        """True when a ``[[`` starts in [start, end)."""
        index = bisect_left(self.opens, start)
        return index < len(self.opens) and self.opens[index] < end

    @functools.cached_property
    def partners(self) -> dict[int, int]:
        """Each ``[`` and ``(`` mapped to the bracket of its kind that closes it."""
        found: dict[int, int] = {}
        stacks: dict[str, list[int]] = {"[": [], "(": []}
        for match in re.finditer(r"[\[\]()]", self.src):
            char, at = match.group(), match.start()
            if char in stacks:
                stacks[char].append(at)
            elif stacks[OPENER[char]]:
                found[stacks[OPENER[char]].pop()] = at
        return found

    @functools.cached_property
    def dollars(self) -> list[int]:
        """Where a ``$`` can close inline math: after a non-space, not before a digit."""
        return [m.start() for m in re.finditer(r"(?<=\S)\$", self.src)
                if not self.src[m.end() : m.end() + 1].isdigit()]

    def next_dollar(self, pos: int) -> int:
        """The first ``$`` at or after ``pos`` that can close inline math, or -1."""
        index = bisect_left(self.dollars, pos)
        return self.dollars[index] if index < len(self.dollars) else -1


def marks(state: StateInline) -> Marks:
    """The marks of the block being parsed (made on first use)."""
    found = state.env.get("marks")
    if not isinstance(found, Marks) or found.src is not state.src:
        found = Marks(state.src)
        state.env["marks"] = found
    return found


def push(state: StateInline, kind: str, start: int, **meta: object) -> None:
    """Emit a token of ``kind`` for the source from ``start`` to the current position."""
    token = state.push(kind, "", 0)
    token.content = state.src[start : state.pos]
    token.meta = {"offset": marks(state).line_of(start), "pos": start, **meta}
