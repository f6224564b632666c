"""What a line of a plain body can be (:mod:`.plain_blocks`), and the tokens of a paragraph."""

from __future__ import annotations

import re
from typing import NamedTuple

from markdown_it.token import Token

HEADING = re.compile(r"#{1,6}(?:[ \t]|\Z)")
FENCE = re.compile(r"```|~~~")
SETEXT = re.compile(r"(=+|-+)[ \t]*\Z")
RULE = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*\Z")
ITEM = re.compile(r"(?:([-*+])|(\d{1,9})([.)]))( {1,4})(?=[^ \t])")
NOT_PLAIN = frozenset(" \t>|")
# Lines that may open a block (fence, comment, math, rule, setext underline, table delimiter).
MAY_OPEN = re.compile(r"```|~~~|%%|\$\$|<!--|[-*+](?:[ \t]|\Z)|\d{1,9}[.)](?:[ \t]|\Z)"
                      r"|[-*_=+][-*_=+ \t]*\Z|[-:][-:| \t]*\Z")
MAY_OPEN_FIRST = frozenset("`~%$<0123456789-*+_=:")


class Item(NamedTuple):
    """A list item line: its list's kind, marker and number, and where its text starts."""

    kind: str  # "bullet" or "ordered"
    markup: str  # "-", "*", "+", "." or ")"
    number: str  # the digits as written, "" for a bullet
    text_at: int



def item_of(line: str) -> Item | None:
    """The list item ``line`` opens, if any."""
    match = ITEM.match(line)
    if match is None:
        return None
    bullet, number, delimiter, _ = match.groups()
    if bullet:
        return Item("bullet", bullet, "", match.end())
    return Item("ordered", delimiter, number, match.end())


def plain(line: str) -> bool:
    """True when ``line`` can only be paragraph text (no block starts with it)."""
    first = line[:1]
    if not first or first in NOT_PLAIN or (first in MAY_OPEN_FIRST and MAY_OPEN.match(line)):
        return False
    return first != "[" or "]:" not in line
def breaks_item(line: str) -> bool:
    """True when ``line``, right under an item or a quote, ends it: a heading, a quote, a fence,
    a rule, a comment or math block, or an item."""
    return bool(HEADING.match(line) or line[0] == ">" or FENCE.match(line) or RULE.match(line)
                or hidden_opener(line) or item_of(line))


def hidden_opener(line: str) -> bool:
    """True when ``line`` opens a ``%%`` comment, ``$$`` math or ``<!--`` comment block (not
    ``%% a %% text``, a comment inside a paragraph)."""
    if not line.startswith(("%%", "$$", "<!--")):
        return False
    rest = line[2:]
    return not line.startswith("%%") or "%%" not in rest or rest.rstrip().endswith("%%")


def paragraph_tokens(content: str, start: int, end: int, level: int,
                      hidden: bool) -> list[Token]:
    """A paragraph's open, inline and close tokens at ``level``."""
    return [Token("paragraph_open", "p", 1, map=[start, end], level=level, block=True,
                  hidden=hidden),
            inline_token(content, start, end, level + 1),
            Token("paragraph_close", "p", -1, level=level, block=True, hidden=hidden)]


def inline_token(content: str, start: int, end: int, level: int) -> Token:
    """An inline token of ``content`` for lines ``start`` to ``end``; children come later."""
    return Token("inline", "", 0, map=[start, end], level=level, content=content, children=[],
                 block=True)
