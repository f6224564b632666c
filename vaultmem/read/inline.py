"""Inline rules ``(state, silent) -> bool`` for wikilinks, embeds, tags, fields, block ids.

Each rule looks only within the current line through :class:`Marks` (positions found once per
block), so a block with thousands of links or dollar signs stays linear.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from markdown_it.rules_inline import StateInline

from .fields import bracket_field, inline_field
from .marks import marks, push

BLOCK_ID = re.compile(r"\^([A-Za-z0-9-]+)[ \t]*(?=\n|\Z)")
# Only the characters a rule in use can start at (emphasis, entities and autolinks are off),
# plus "(" when a block has "::", so that "(key:: value)" fields are seen.
TERMINATORS = re.compile(r"[\n!#$%<\[\\\]^`]")
FIELD_TERMINATORS = re.compile(r"[\n!#$%<\[\\\]^`(]")
SIZE = re.compile(r"\d+(x\d+)?")
LABEL_DEPTH = 10
InlineRule = Callable[[StateInline, bool], bool]
TEMPLATE_MARKS = ("<%", "{{")  # Templater code and template variables


def with_offset(rule: InlineRule) -> InlineRule:
    """Wrap markdown-it's link/image rule so its tokens know their line and source text.

    A link label nested over ``LABEL_DEPTH`` deep is cut off as markdown-it does past its
    ``maxNesting``: every unclosed ``[`` costs a scan that deep, so 200 would make a line of
    ``[`` take minutes.
    """

    def wrapped(state: StateInline, silent: bool) -> bool:
        if silent and state.level > LABEL_DEPTH and state.src.startswith(("[", "!["), state.pos):
            state.pos = state.posMax
            return True
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
    if any(mark in src[begin:end] for mark in TEMPLATE_MARKS):
        return False  # ``[[<% tp.date.now() %>]]``: a template's code, a link only once filled
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


def tag_char(ch: str) -> bool:
    """Letters, digits, ``_-/`` and non-punctuation Unicode may appear in a tag."""
    if ch.isalnum() or ch in "_-/":
        return True
    return ord(ch) > 127 and unicodedata.category(ch)[0] not in "PZC"


def tag_name(name: str) -> bool:
    """True when the characters after a ``#`` make a tag: not none, not only digits (``#1984``)
    and not only ``/-_``."""
    return bool(name) and not name.replace("/", "").isdigit() and \
        not all(c in "/-_" for c in name)


def obsidian_tag(state: StateInline, silent: bool) -> bool:
    """``#tag`` and ``#nested/tag`` after whitespace or at the start; not ``#1984``."""
    pos, src = state.pos, state.src
    if src[pos] != "#" or (pos > 0 and not src[pos - 1].isspace()):
        return False
    end = pos + 1
    while end < state.posMax and tag_char(src[end]):
        end += 1
    name = src[pos + 1 : end]
    if not tag_name(name):
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
    close = marks(state).next_dollar(pos + 2)  # precomputed: a line of prices stays linear
    if close < 0 or close >= line_end:
        return False
    state.pos = close + 1
    return True


DISPATCH: dict[str, tuple[InlineRule, ...]] = {
    "[": (bracket_field, wikilink), "!": (wikilink,), "(": (bracket_field,),
    "#": (obsidian_tag,), "^": (block_id,), "%": (percent_comment,), "$": (math_inline,),
    "<": (html_comment,),
}
