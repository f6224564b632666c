"""Inline rules ``(state, silent) -> bool`` for wikilinks, embeds, tags, fields, block ids.

Each rule looks only within the current line through :class:`Marks` (positions found once per
block), so a block with thousands of links or dollar signs stays linear.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable

from markdown_it.rules_inline import StateInline

FIELD_LINE = re.compile(r"[ \t]*(\*\*|__|\*|_)?([^\s:*_\[\]()`#>][^:\n\[\]()`]*?)\1?::(?=\s|$)")
FIELD_BRACKET = re.compile(r"[\[(]([^\s:*_\[\]()`][^:\n\[\]()`]*?)::")
BLOCK_ID = re.compile(r"\^([A-Za-z0-9-]+)[ \t]*(?=\n|\Z)")
# Only the characters a rule in use can start at (emphasis, entities and autolinks are off),
# plus "(" when a block has "::", so that "(key:: value)" fields are seen.
TERMINATORS = re.compile(r"[\n!#$%<\[\\\]^`]")
FIELD_TERMINATORS = re.compile(r"[\n!#$%<\[\\\]^`(]")
SIZE = re.compile(r"\d+(x\d+)?")
LINKS_ONLY = re.compile(r"(?:[ \t]*!?\[\[[^\]\n]+\]\])+")
INDENT = re.compile(r"[ \t]*")
CLOSERS = {"[": "]", "(": ")"}
FIELD_WINDOW = 2000
InlineRule = Callable[[StateInline, bool], bool]


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


def with_offset(rule: InlineRule) -> InlineRule:
    """Wrap markdown-it's link/image rule so its tokens know their line and source text."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            for token in state.tokens[count:]:
                if token.type in ("link_open", "image"):
                    token.meta = {"offset": marks(state).line_of(start),
                                  "raw": state.src[start : state.pos]}
        return True

    return wrapped


def obsidian_inline(state: StateInline, silent: bool) -> bool:
    """Run the Obsidian rule that can start at the current character, if any.

    One dispatching rule instead of eight keeps markdown-it's per-character loop short.
    """
    pos, src = state.pos, state.src
    if _line_may_start(src, pos) and inline_field(state, silent):
        return True
    rules = DISPATCH.get(src[pos])
    return rules is not None and any(rule(state, silent) for rule in rules)


def _line_may_start(src: str, pos: int) -> bool:
    """Cheap test: at a line start, after indentation, or right after a ``]``."""
    if pos == 0 or src[pos - 1] in "\n]":
        return True
    back = pos - 1
    while back >= 0 and src[back] in " \t":
        back -= 1
    return back < pos - 1 and (back < 0 or src[back] == "\n")


def text(state: StateInline, silent: bool) -> bool:
    """Plain text up to the next character some rule may start at."""
    stops = FIELD_TERMINATORS if state.env.get("fields") else TERMINATORS
    match = stops.search(state.src, state.pos, state.posMax)
    end = match.start() if match else state.posMax
    if end == state.pos:
        return False
    if not silent:
        state.pending += state.src[state.pos : end]
    state.pos = end
    return True


def wikilink(state: StateInline, silent: bool) -> bool:
    """``[[target#subpath|alias]]`` and ``![[embed|size]]``, within one line."""
    pos, src = state.pos, state.src
    embed = src.startswith("![[", pos)
    if not embed and not src.startswith("[[", pos):
        return False
    begin = pos + (3 if embed else 2)
    found = marks(state)
    end = found.next_close(begin)
    if end <= begin or end > found.line_end(begin) or found.opens_between(begin, end):
        return False
    state.pos = end + 2
    if not silent:
        push(state, "wikilink", pos, embed=embed, inner=src[begin:end])
    return True


def split_wikilink(inner: str, embed: bool) -> tuple[str, str, str | None, str | None]:
    """Split the inside of a wikilink into (target, subpath, alias, size).

    >>> split_wikilink("People/Bob#Role|Robert", False)
    ('People/Bob', '#Role', 'Robert', None)
    >>> split_wikilink("Diagram.png|300", True)
    ('Diagram.png', '', None, '300')
    """
    target, bar, alias = inner.replace("\\|", "|").partition("|")
    path, hash_, subpath = target.partition("#")
    size = None
    if bar and embed and SIZE.fullmatch(alias.strip()):
        size, alias = alias.strip(), ""
    return path.strip(), (hash_ + subpath).strip(), (alias if bar and alias else None), size


def _tag_char(ch: str) -> bool:
    """Letters, digits, ``_-/`` and non-punctuation Unicode may appear in a tag."""
    if ch.isalnum() or ch in "_-/":
        return True
    return ord(ch) > 127 and unicodedata.category(ch)[0] not in "PZC"


def obsidian_tag(state: StateInline, silent: bool) -> bool:
    """``#tag`` and ``#nested/tag`` after whitespace or at the start; not ``#1984``."""
    pos, src = state.pos, state.src
    if src[pos] != "#" or (pos > 0 and not src[pos - 1].isspace()):
        return False
    end = pos + 1
    while end < state.posMax and _tag_char(src[end]):
        end += 1
    name = src[pos + 1 : end]
    if not name or name.replace("/", "").isdigit() or all(c in "/-_" for c in name):
        return False
    state.pos = end
    if not silent:
        push(state, "tag", pos, name=name)
    return True


def block_id(state: StateInline, silent: bool) -> bool:
    """``^block-id`` at the end of a line (of a block), after whitespace or alone."""
    pos, src = state.pos, state.src
    if src[pos] != "^" or (pos > 0 and not src[pos - 1].isspace()):
        return False
    match = BLOCK_ID.match(src, pos)
    if not match:
        return False
    state.pos = match.end()
    if not silent:
        push(state, "block_id", pos, id=match.group(1))
    return True


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


def _closing(src: str, start: int, stop: int) -> int:
    """Index of the bracket closing ``src[start]`` before ``stop``, or -1."""
    opener = src[start]
    depth, closer = 0, CLOSERS[opener]
    for index in range(start, min(stop, start + FIELD_WINDOW)):
        char = src[index]
        depth += (char == opener) - (char == closer)
        if depth == 0:
            return index
    return -1


def bracket_field(state: StateInline, silent: bool) -> bool:
    """A Dataview field inside a sentence: ``[key:: value]`` or ``(key:: value)``."""
    pos, src = state.pos, state.src
    if src[pos] not in CLOSERS or src.startswith("[[", pos):
        return False
    match = FIELD_BRACKET.match(src, pos)
    close = _closing(src, pos, marks(state).line_end(pos)) if match else -1
    if not match or close < 0:
        return False
    state.pos = match.end()  # the value is parsed on, so links in it are found
    if not silent:
        raw_key = match.group(1).strip()
        value = src[match.end() : close].strip()
        push(state, "field", pos, key=sanitize_key(raw_key), raw_key=raw_key, value=value,
             end=close)
    return True


def _skip_to(state: StateInline, opener: str, closer: str) -> bool:
    """Consume ``opener ... closer`` (or to the end when unclosed) as hidden text."""
    src, start = state.src, state.pos
    if not src.startswith(opener, start):
        return False
    close = src.find(closer, start + len(opener))
    state.pos = len(src) if close < 0 else close + len(closer)
    return True


def percent_comment(state: StateInline, silent: bool) -> bool:
    """Obsidian comments ``%%hidden%%``; an unclosed one hides the rest of the block."""
    return _skip_to(state, "%%", "%%")


def html_comment(state: StateInline, silent: bool) -> bool:
    """HTML comments ``<!-- hidden -->`` inside a paragraph."""
    return _skip_to(state, "<!--", "-->")


def math_inline(state: StateInline, silent: bool) -> bool:
    """``$inline math$`` and ``$$display math$$`` within one line (Pandoc's rules)."""
    pos, src = state.pos, state.src
    line_end = marks(state).line_end(pos)
    if src.startswith("$$", pos):
        close = src.find("$$", pos + 2, line_end)
        if close < 0:
            return False
        state.pos = close + 2
        return True
    if src[pos] != "$" or pos + 1 >= line_end or src[pos + 1].isspace():
        return False
    close = pos + 1
    while (close := src.find("$", close + 1, line_end)) >= 0:
        if not src[close - 1].isspace() and not src[close + 1 : close + 2].isdigit():
            state.pos = close + 1
            return True
    return False


DISPATCH: dict[str, tuple[InlineRule, ...]] = {
    "[": (bracket_field, wikilink), "!": (wikilink,), "(": (bracket_field,),
    "#": (obsidian_tag,), "^": (block_id,), "%": (percent_comment,), "$": (math_inline,),
    "<": (html_comment,),
}
