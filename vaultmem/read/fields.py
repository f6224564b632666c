"""Dataview inline fields: ``key:: value`` lines and ``[key:: value]`` / ``(key:: value)``."""

from __future__ import annotations

import re

from markdown_it.rules_inline import StateInline

from .marks import Marks, marks, push

FIELD_LINE = re.compile(r"[ \t]*(\*\*|__|\*|_)?([^\s:*_\[\]()`#>][^:\n\[\]()`]*?)\1?::(?=\s|$)")
FIELD_BRACKET = re.compile(r"[\[(]([^\s:*_\[\]()`][^:\n\[\]()`]*?)::")
LINKS_ONLY = re.compile(r"(?:[ \t]*!?\[\[[^\]\n]+\]\])+")
INDENT = re.compile(r"[ \t]*")
CLOSERS = {"[": "]", "(": ")"}
FIELD_WINDOW = 2000


def sanitize_key(raw: str) -> str:
    """Dataview's canonical field key: lower-case, formatting removed, spaces to ``-``.

    >>> sanitize_key("Due Date")
    'due-date'
    """
    kept = "".join(c for c in raw.strip().lower() if c.isalnum() or c in " -_")
    return re.sub(r"\s+", "-", kept.strip())


def _field_may_start(state: StateInline, found: Marks, pos: int) -> bool:
    """A line-filling field starts a line (after indentation) or follows only wikilinks."""
    line_start = found.line_start(pos)
    src = state.src
    if pos == line_start or INDENT.match(src, line_start).end() == pos:  # type: ignore[union-attr]
        return True
    if src[pos - 1] != "]":
        return False
    start, upto = found.links_only
    if start == line_start:  # extend the links-only prefix seen so far on this line
        ok = upto >= 0 and bool(LINKS_ONLY.fullmatch(src, upto, pos))
    else:
        ok = bool(LINKS_ONLY.fullmatch(src, line_start, pos))
    found.links_only = (line_start, pos if ok else -1)
    return ok


def inline_field(state: StateInline, silent: bool) -> bool:
    """A field filling the rest of its line: ``key:: value``, or ``[[Entity]] key:: value``."""
    pos, src = state.pos, state.src
    found = marks(state)
    if not _field_may_start(state, found, pos):
        return False
    match = FIELD_LINE.match(src, pos)
    if not match:
        return False
    state.pos = match.end()
    if not silent:
        line_end = found.line_end(match.end())
        raw_key = match.group(2).strip()
        push(state, "field", pos, key=sanitize_key(raw_key), raw_key=raw_key,
             value=src[match.end() : line_end].strip(), end=line_end)
    return True


def _closing(found: Marks, start: int, stop: int) -> int:
    """Index of the bracket closing ``src[start]`` before ``stop``, or -1."""
    close = found.partners.get(start, -1)
    return close if close < min(stop, start + FIELD_WINDOW) else -1


def bracket_field(state: StateInline, silent: bool) -> bool:
    """A Dataview field inside a sentence: ``[key:: value]`` or ``(key:: value)``."""
    pos, src = state.pos, state.src
    if src[pos] not in CLOSERS or src.startswith("[[", pos):
        return False
    match = FIELD_BRACKET.match(src, pos)
    found = marks(state)
    close = _closing(found, pos, found.line_end(pos)) if match else -1
    if not match or close < 0 or (src[pos] == "[" and src.startswith("(", close + 1)):
        return False  # ``[Code::Stats](https://...)`` is a Markdown link's text, not a field
    state.pos = match.end()  # the value is parsed on, so links in it are found
    if not silent:
        raw_key = match.group(1).strip()
        value = src[match.end() : close].strip()
        push(state, "field", pos, key=sanitize_key(raw_key), raw_key=raw_key, value=value,
             end=close)
    return True
