"""Lists of one-line items, nested by spaces or by tabs, read as markdown-it reads them (see
:mod:`.plain_blocks`); an item holding anything else (a second paragraph, a lazy line, a block
after a blank line) gives up, and markdown-it reads the note."""

from __future__ import annotations

from typing import NamedTuple

from markdown_it.common.utils import mdTrim
from markdown_it.token import Token

from .plain_lines import HEADING, Item, breaks_item, item_of, paragraph_tokens, plain

TAB = 4  # markdown-it's tab stop
MAX_LEVEL = 40  # deeper lists (20 levels) go to markdown-it, whose depth rules then apply


class _Marked(NamedTuple):
    """An item line: the column its marker is at, the item, where its text starts (column)."""

    column: int
    item: Item
    text_column: int


class _Read(NamedTuple):
    """An item read: its lines, what it is, the tokens of the list nested in it."""

    start: int
    end: int
    item: Item
    nested: list[Token]


def read_list(lines: list[str], at: int, tokens: list[Token], base: int = 0,
              level: int = 0) -> int:
    """The list whose first item is line ``at``, in a container whose text starts at column
    ``base``, its tokens at ``level``; where it ends, -1 to give up."""
    first = _marked(lines[at])
    if first is None or first.column - base >= TAB or level > MAX_LEVEL:
        return -1
    items: list[_Read] = []
    loose, line = False, at
    while True:
        read = _item(lines, line, level)
        if read is None:
            return -1
        items.append(read)
        following = _marked(lines[read.end]) if read.end < len(lines) else None
        if following is None or following.column != first.column or \
                following.item[:2] != first.item[:2]:
            break
        loose, line = loose or not lines[read.end - 1].strip(" \t"), read.end
    tokens += _list_tokens(lines, items, first, level, loose)
    return items[-1].end


def _item(lines: list[str], at: int, level: int) -> _Read | None:
    """The item on line ``at`` with the list nested under it, if any; None to give up."""
    marked = _marked(lines[at])
    assert marked is not None
    text = lines[at][len(lines[at]) - len(lines[at].lstrip(" \t")) + marked.item.text_at:]
    if not plain(text) or HEADING.match(text):
        return None
    nested: list[Token] = []
    end = at + 1
    under = _marked(lines[end]) if end < len(lines) and lines[end].strip(" \t") else None
    if under is not None and under.column >= marked.text_column:
        if under.column - marked.text_column >= TAB or \
                (under.item.kind == "ordered" and int(under.item.number) != 1):
            return None  # code, or a line of the paragraph
        end = read_list(lines, end, nested, marked.text_column, level + 2)
        if end < 0 or (end < len(lines) and _column(lines[end]) >= marked.text_column):
            return None
    elif end < len(lines) and lines[end].strip(" \t") and under is None and \
            not breaks_item(lines[end]):
        return None  # a lazy continuation line, or a block inside the item
    while end < len(lines) and not lines[end].strip(" \t"):
        end += 1
    if end < len(lines) and end > at + 1 and _column(lines[end]) >= marked.text_column:
        return None  # more of the item after a blank line
    return _Read(at, end, marked.item, nested)


def _list_tokens(lines: list[str], items: list[_Read], first: _Marked, level: int,
                 loose: bool) -> list[Token]:
    """The tokens of a list, its items (one paragraph each, hidden when the list is tight)
    and the lists nested in them."""
    tag, kind = ("ul", "bullet_list") if first.item.kind == "bullet" else ("ol", "ordered_list")
    attrs: dict[str, str | int | float] = {}
    if first.item.number and int(first.item.number) != 1:
        attrs["start"] = int(first.item.number)
    found = [Token(f"{kind}_open", tag, 1, attrs=attrs, map=[items[0].start, items[-1].end],
                   level=level, markup=first.item.markup, block=True)]
    for read in items:
        found.append(Token("list_item_open", "li", 1, map=[read.start, read.end],
                           level=level + 1, markup=read.item.markup, info=read.item.number,
                           block=True))
        line = lines[read.start].lstrip(" \t")
        found += paragraph_tokens(mdTrim(line[read.item.text_at:]), read.start,
                                  read.start + 1, level + 2, not loose)
        found += read.nested
        found.append(Token("list_item_close", "li", -1, level=level + 1,
                           markup=read.item.markup, block=True))
    found.append(Token(f"{kind}_close", tag, -1, level=level, markup=first.item.markup,
                       block=True))
    return found


def _column(line: str) -> int:
    """The column ``line``'s text starts at, its indent all spaces or all tabs; -1 for a mix
    (never read here)."""
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    if "\t" not in indent:
        return len(indent)
    return TAB * len(indent) if indent.strip("\t") == "" else -1


def _marked(line: str) -> _Marked | None:
    """The item ``line`` opens, at the column of its marker, if any."""
    column = _column(line)
    if column < 0:
        return None
    indent = len(line) - len(line.lstrip(" \t"))
    item = item_of(line[indent:])
    if item is None:
        return None
    return _Marked(column, item, column + item.text_at)
