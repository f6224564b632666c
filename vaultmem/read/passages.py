"""Split a note body into passages, the unit that recall ranks and context packs.

- ``item``: a list item's own paragraphs, a task's checkbox as written (``[ ] call Ana``); a
  nested item is its own passage. A chat turn ``- [[Ana]]: hi ^t1`` is one item, id ``t1``.
- ``paragraph``: a paragraph outside lists, in quotes and callouts too. A callout's title
  (``> [!type]- Title``) is no text: it joins the heading path of what the callout holds (a
  callout of only a title line is a paragraph of that title).
- ``row``: one table body row as ``Header: cell; Header: cell``, empty cells left out; a table
  without body rows gives its header row.
- ``code``: a code block, verbatim, unless a plugin's query or drawing (``PLUGIN_FENCES``).
- ``math``: display math (``$$ ... $$``) as written; it continues the item it is in, or the
  paragraph or item it follows without a blank line, else it stands alone.
- ``section``: a heading's text (to the next heading) if it is 2+ paragraphs without block ids,
  at most ``SECTION_CHARS`` together: a few words alone give BM25 and an agent too little.
- Headings are no passages but the heading path of what follows (an empty one is ignored).
- A passage over ``MAX_CHARS`` is cut into near-equal parts at line ends, sentence ends, spaces,
  then anywhere; each part has its own line span, the ``^id`` block id goes to the last.
- Text is as written (wikilinks, tags, inline math) without the markup of lists, quotes,
  headings and tables, ``^id`` markers, comments (``%%``, also across blocks, and ``<!-- -->``)
  and empty lines; space runs become one. Embeds, Markdown links, Dataview fields and HTML read
  as a reader of the note sees them (:mod:`.shown`); a passage of nothing but embeds is none.
  ``offset`` turns body lines into 1-based file lines (frontmatter is no passage). Passages
  come in file order; no text is in two passages.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .fences import split
from .passage_text import (
    Draft,
    Line,
    Visible,
    merge_sections,
    numbered,
    one_line,
    table_rows,
    text_chunks,
    unquoted,
    visible_lines,
    without_callout_title,
)
from .plain_blocks import PARSER, body_tokens
from .shown import only_embeds

PLUGIN_FENCES = frozenset({"dataview", "dataviewjs", "tasks", "query", "base", "bases", "tikz",
                           "button"})


class Passage(NamedTuple):
    """One retrieval unit of a note (see the module docstring for the kinds)."""

    text: str  # as written, markup, comments and the ^id marker removed, spaces tidied
    kind: str  # item | paragraph | row | code | math | section
    headings: tuple[str, ...]  # heading path, outermost first
    start: int  # 1-based first file line
    end: int  # 1-based last file line
    block_id: str | None  # the ^id that ends it, without the ^


class _Walk:
    """What is open while one body's tokens are read in order."""

    def __init__(self, body: str, offset: int) -> None:
        self.body = body
        self.offset = offset
        self.headings: list[tuple[int, str]] = []
        self.section = 0
        self.hidden = False  # inside a %% comment opened in an earlier block
        self.quotes: list[str] = []  # the title of each open quote ("" unless a titled callout)
        self.items: list[Draft] = []
        self.table: list[tuple[int, list[str]]] = []  # (file line, cells) of each row so far
        self.done: list[Draft] = []

    @functools.cached_property
    def body_lines(self) -> list[str]:
        """The body's lines, split when display math first needs them."""
        return self.body.split("\n")

    def draft(self, kind: str) -> Draft:
        """A new draft at the current heading path and nesting."""
        path = tuple(text for _, text in self.headings) + tuple(filter(None, self.quotes))
        return Draft(kind, path, self.section, (len(self.quotes), len(self.items)))

    def add(self, kind: str, lines: list[Line], block_id: str | None = None) -> None:
        """Add a draft of ``lines`` at the current heading path and nesting to those done."""
        draft = self.draft(kind)
        draft.lines, draft.block_id = lines, block_id
        self.done.append(draft)

    def visible(self, token: Token) -> Visible:
        """An inline token's lines as shown (see :func:`.passage_text.visible_lines`)."""
        shown = visible_lines(token, self.hidden)
        self.hidden = shown.hidden
        return shown

    def file_line(self, body_line: int) -> int:
        """The 1-based file line of a 0-based body line."""
        return body_line + self.offset + 1

    def paragraph_above(self, line: int) -> Draft | None:
        """The paragraph or item ending on the line before ``line`` in the same quote, if any."""
        last = self.done[-1] if self.done else None
        if last is None or last.kind not in ("paragraph", "item"):
            return None
        same_quote = last.place[0] == len(self.quotes)
        return last if same_quote and last.lines and last.lines[-1][0] == line - 1 else None

    def give_id(self, ident: str) -> None:
        """A block id alone on its line names the block just before it."""
        if self.done and self.done[-1].block_id is None:
            self.done[-1].block_id = ident


def split_passages(tokens: list[Token], body: str, offset: int) -> list[Passage]:
    """The passages of ``body`` from its tokens (``offset``: the 0-based file line it starts on)."""
    walk = _Walk(body, offset)
    for index, token in enumerate(tokens):
        handler = HANDLERS.get(token.type)
        if handler is not None:
            handler(walk, tokens, index)
    drafts = sorted((d for d in walk.done if any(text.strip() for _, text in d.lines)),
                    key=lambda draft: draft.lines[0][0])
    passages = [passage for draft in merge_sections(drafts) for passage in _finish(draft)]
    return sorted(passages, key=lambda passage: passage.start)


def passages_of(text: str) -> list[Passage]:
    """The passages of a whole note's text (frontmatter skipped, line numbers of the file)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    body_line = split(text)[1]
    body = text.split("\n", body_line)[-1] if body_line else text
    return split_passages(body_tokens(body), body, body_line)


def parser() -> MarkdownIt:
    """vaultmem's parser (markdown-it with this package's rules), made once."""
    return PARSER


def _inline(walk: _Walk, tokens: list[Token], index: int) -> None:
    """Send an inline token to the handler of the block that holds it."""
    opener = tokens[index - 1].type
    if opener == "heading_open":
        _heading(walk, tokens, index)
    elif opener == "paragraph_open":
        _paragraph(walk, tokens, index)
    elif opener in ("th_open", "td_open"):
        walk.table[-1][1].append(one_line(walk.visible(tokens[index]).lines))


def _heading(walk: _Walk, tokens: list[Token], index: int) -> None:
    """A heading replaces those of its level and deeper in the heading path."""
    text = one_line(walk.visible(tokens[index]).lines)
    if not text:
        return
    level = int(tokens[index - 1].tag[1:])
    while walk.headings and walk.headings[-1][0] >= level:
        walk.headings.pop()
    walk.headings.append((level, text))
    walk.section += 1


def _paragraph(walk: _Walk, tokens: list[Token], index: int) -> None:
    """A paragraph joins the list item it is in, or is a passage of its own."""
    token = tokens[index]
    shown = walk.visible(token)
    ident = shown.block_id
    lines = numbered(walk.file_line(token.map[0] if token.map else 0), shown.lines)
    if tokens[index - 2].type == "blockquote_open":
        alone = tokens[index + 2].type == "blockquote_close"
        lines, walk.quotes[-1] = without_callout_title(lines, alone)
    if walk.items:
        walk.items[-1].lines += lines
        walk.items[-1].block_id = ident or walk.items[-1].block_id
        walk.items[-1].embeds += shown.embeds
    elif any(text.strip() for _, text in lines):
        walk.add("paragraph", lines, ident)
        walk.done[-1].embeds = shown.embeds
    elif ident:
        walk.give_id(ident)


def _item(walk: _Walk, tokens: list[Token], index: int) -> None:
    """A list item opens to collect its own paragraphs, or closes complete."""
    if tokens[index].nesting > 0:
        walk.items.append(walk.draft("item"))
    else:
        walk.done.append(walk.items.pop())


def _quote(walk: _Walk, tokens: list[Token], index: int) -> None:
    """One quote (or callout) level deeper, or one out."""
    if tokens[index].nesting > 0:
        walk.quotes.append("")
    else:
        walk.quotes.pop()


def _row_open(walk: _Walk, tokens: list[Token], index: int) -> None:
    """A table row starts collecting its cells; its file line is kept with them."""
    start = tokens[index].map or [0]
    walk.table.append((walk.file_line(start[0]), []))


def _table_close(walk: _Walk, tokens: list[Token], index: int) -> None:
    """A table's rows are passages, naming each cell by its column's header."""
    for row in table_rows(walk.table):
        walk.add("row", [row])
    walk.table = []


def _code(walk: _Walk, tokens: list[Token], index: int) -> None:
    """A code block is a passage unless it is a plugin's query or drawing."""
    token = tokens[index]
    language = (token.info.split() or [""])[0].lower()
    if walk.hidden or language in PLUGIN_FENCES or token.map is None:
        return
    first = walk.file_line(token.map[0] + (token.type == "fence"))
    walk.add("code", numbered(first, token.content.split("\n")))


def _math(walk: _Walk, tokens: list[Token], index: int) -> None:
    """Display math continues its item or the paragraph right above it, else stands alone."""
    start, end = tokens[index].map or (0, 0)
    if walk.hidden or end <= start:
        return
    lines = [(walk.file_line(number), unquoted(walk.body_lines[number], len(walk.quotes)))
             for number in range(start, min(end, len(walk.body_lines)))]
    draft = walk.items[-1] if walk.items else walk.paragraph_above(lines[0][0])
    if draft is None:
        walk.add("math", lines)
    else:
        draft.lines += lines


Handler = Callable[[_Walk, list[Token], int], None]
HANDLERS: dict[str, Handler] = {
    "inline": _inline, "list_item_open": _item, "list_item_close": _item, "tr_open": _row_open,
    "blockquote_open": _quote, "blockquote_close": _quote, "table_close": _table_close,
    "fence": _code, "code_block": _code, "math_block": _math,
}


def _finish(draft: Draft) -> list[Passage]:
    """The draft's passages: its tidied text, in chunks when too long (a chunk of nothing but
    embeds is none)."""
    chunks = text_chunks(draft.lines, draft.kind == "code")
    return [Passage(chunk.text, draft.kind, draft.headings, chunk.start, chunk.end,
                    draft.block_id if number == len(chunks) - 1 else None)
            for number, chunk in enumerate(chunks) if not only_embeds(chunk.text, draft.embeds)]
