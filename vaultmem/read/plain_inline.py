"""The inline tokens of a block holding only text, wikilinks, embeds, tags, block ids, fields,
code spans, escapes and brackets that link nothing, made without markdown-it's rule loop and
equal to those it makes (``tests/test_plain_parse.py``).

:func:`plain_children` gives ``None`` for a block that needs more (a Markdown link, math, a
comment): markdown-it parses that one, with this package's rules.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from .fields import FIELD_BRACKET, FIELD_LINE, LINKS_ONLY, sanitize_key
from .inline import BLOCK_ID, TEMPLATE_MARKS, tag_char, tag_name
from .marks import Marks

# What only the full inline parse reads right: math, comments.
NEEDS_PARSER = ("$", "%%", "<!--")
SPECIAL = re.compile(r"!?\[|[\n#^`\\]")
SPECIAL_IN_FIELDS = re.compile(r"!?\[|[\n#^`\\(]")
# What a backslash makes plain text of (any other character keeps the backslash).
ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def plain_children(content: str, links_defined: bool = False) -> list[Token] | None:
    """markdown-it's inline tokens of ``content`` (with vaultmem's rules), or ``None`` when
    the block holds syntax only the full parse reads (``links_defined``: the note defines
    link references, so any ``[`` may be a link).

    >>> [t.type for t in plain_children("See [[Ana]] #team")]
    ['text', 'wikilink', 'text', 'tag']
    >>> plain_children("a [link](b.md)") is None
    True
    """
    if any(mark in content for mark in NEEDS_PARSER):
        return None
    walk = _Walk(content, links_defined)
    special = SPECIAL_IN_FIELDS if walk.fields else SPECIAL
    pos = walk.line_field(0)
    while (found := special.search(content, pos)) is not None:
        walk.pending.append(content[pos : found.start()])
        pos = walk.step(found.start(), found.group())
        if pos < 0:
            return None
    walk.pending.append(content[pos:])
    walk.flush()
    return walk.tokens


class _Walk:
    """Tokens made so far, the text not yet in one, and the line reached."""

    def __init__(self, src: str, links_defined: bool) -> None:
        self.src = src
        self.links_defined = links_defined
        self.fields = "::" in src
        self.tokens: list[Token] = []
        self.pending: list[str] = []  # text since the last token, joined when one is made
        self.line = 0
        self.line_start = 0
        self._marks: Marks | None = None
        self._last_runs: dict[int, int] | None = None

    def flush(self) -> None:
        """Text gathered since the last token becomes a text token."""
        text = "".join(self.pending)
        if text:
            self.tokens.append(Token("text", "", 0, content=text))
        self.pending = []

    def push(self, kind: str, start: int, stop: int, **meta: object) -> int:
        """A token of ``kind`` for ``src[start:stop]``; returns ``stop``."""
        self.flush()
        self.tokens.append(Token(kind, "", 0, content=self.src[start:stop],
                                 meta={"offset": self.line, "pos": start, **meta}))
        return stop

    def step(self, pos: int, mark: str) -> int:
        """Read what starts at ``pos`` (``mark`` found there); where to go on, -1 to give up."""
        if mark == "\n":
            return self.newline(pos)
        if mark == "#":
            return self.tag(pos)
        if mark == "^":
            return self.block_id(pos)
        if mark == "`":
            return self.code(pos)
        if mark == "\\":
            return self.escape(pos)
        if mark == "![":
            return self.wikilink(pos, True) if self.src.startswith("![[", pos) else \
                self.bracket(pos + 1, pos)
        field = self.bracket_field(pos) if self.fields else None
        if field is not None:
            return field
        if mark == "(":
            return self.text(pos)
        return self.wikilink(pos, False) if self.src.startswith("[[", pos) else \
            self.bracket(pos, pos)

    def newline(self, pos: int) -> int:
        """A soft break, or a hard one after two spaces; the next line's indent is skipped."""
        pending = "".join(self.pending)
        kind = "softbreak"
        if pending.endswith("  "):
            kept = len(pending) - 1
            while kept >= 1 and pending[kept - 1] == " ":
                kept -= 1
            pending, kind = pending[:kept], "hardbreak"
        elif pending.endswith(" "):
            pending = pending[:-1]
        self.pending = [pending]
        self.flush()
        self.tokens.append(Token(kind, "br", 0))
        self.line += 1
        self.line_start = pos = pos + 1
        while pos < len(self.src) and self.src[pos] in " \t":
            pos += 1
        return self.line_field(pos)

    def tag(self, pos: int) -> int:
        """``#tag`` after whitespace or at the start, else the ``#`` is text."""
        src = self.src
        if pos > 0 and not src[pos - 1].isspace():
            return self.text(pos)
        end = pos + 1
        while end < len(src) and tag_char(src[end]):
            end += 1
        name = src[pos + 1 : end]
        if not tag_name(name):
            return self.text(pos)
        return self.push("tag", pos, end, name=name)

    def block_id(self, pos: int) -> int:
        """``^id`` ending a line after whitespace, else the ``^`` is text."""
        if pos > 0 and not self.src[pos - 1].isspace():
            return self.text(pos)
        match = BLOCK_ID.match(self.src, pos)
        return self.push("block_id", pos, match.end(), id=match.group(1)) if match else \
            self.text(pos)

    def text(self, pos: int) -> int:
        """The character at ``pos`` is plain text."""
        self.pending.append(self.src[pos])
        return pos + 1

    def line_field(self, pos: int) -> int:
        """A ``key:: value`` field starting at ``pos`` (a line's start, or after its links)."""
        match = FIELD_LINE.match(self.src, pos) if self.fields else None
        if match is None:
            return pos
        end = self.src.find("\n", match.end())
        end = len(self.src) if end < 0 else end
        raw_key = match.group(2).strip()
        return self.push("field", pos, match.end(), key=sanitize_key(raw_key), raw_key=raw_key,
                         value=self.src[match.end() : end].strip(), end=end)

    def bracket_field(self, pos: int) -> int | None:
        """``[key:: value]`` or ``(key:: value)`` at ``pos``, else None."""
        src = self.src
        match = FIELD_BRACKET.match(src, pos)
        if match is None:
            return None
        if self._marks is None:
            self._marks = Marks(src)
        line_end = src.find("\n", pos)
        close = self._marks.partners.get(pos, -1)
        limit = min(len(src) if line_end < 0 else line_end, pos + 2000)
        if not 0 <= close < limit or (src[pos] == "[" and src.startswith("(", close + 1)):
            return None
        raw_key = match.group(1).strip()
        return self.push("field", pos, match.end(), key=sanitize_key(raw_key), raw_key=raw_key,
                         value=src[match.end() : close].strip(), end=close)

    def bracket(self, at: int, pos: int) -> int:
        """A ``[`` (at ``at``; ``pos`` is where a ``![`` starts) that links nothing is text;
        one that may open a Markdown link gives up."""
        src = self.src
        close = src.find("]", at + 1)
        inside = src[at + 1 : close]
        if self.links_defined or (close >= 0 and (src.startswith("(", close + 1) or
                                                  any(c in inside for c in "[`\\"))):
            return -1
        return self.text(pos)

    def escape(self, pos: int) -> int:
        """A backslash: a hard break before a line end, else the next character as written."""
        src = self.src
        if pos + 1 >= len(src):
            return self.text(pos)
        if src[pos + 1] == "\n":
            self.flush()
            self.tokens.append(Token("hardbreak", "br", 0))
            self.line += 1
            self.line_start = pos = pos + 2
            while pos < len(src) and src[pos] in " \t":
                pos += 1
            return self.line_field(pos)
        char = src[pos + 1]
        self.flush()
        self.tokens.append(Token("text_special", "", 0, content=char if char in ESCAPABLE else
                                 src[pos : pos + 2], markup=src[pos : pos + 2], info="escape"))
        return pos + 2

    def code(self, pos: int) -> int:
        """A code span, or its opening backticks as text when no run as long closes it."""
        src = self.src
        end = pos
        while end < len(src) and src[end] == "`":
            end += 1
        marker = src[pos:end]
        if self._last_runs is None:
            self._last_runs = _last_runs(src)
        close = end if self._last_runs.get(len(marker), -1) >= end else len(src)
        while (close := src.find("`", close)) >= 0:
            close_end = close
            while close_end < len(src) and src[close_end] == "`":
                close_end += 1
            if close_end - close == len(marker):
                text = src[end:close].replace("\n", " ")
                if text.startswith(" ") and text.endswith(" ") and text.strip(" "):
                    text = text[1:-1]
                self.flush()
                self.tokens.append(Token("code_inline", "code", 0, content=text, markup=marker))
                self.line += src.count("\n", end, close)  # a code span may run over lines
                self.line_start = max(self.line_start, src.rfind("\n", end, close) + 1)
                return close_end
            close = close_end
        self.pending.append(marker)
        return end

    def wikilink(self, pos: int, embed: bool) -> int:
        """``[[...]]`` or ``![[...]]`` within its line; anything else at a ``[`` gives up."""
        src = self.src
        begin = pos + (3 if embed else 2)
        if not src.startswith("[", begin - 1) or not src.startswith("[", begin - 2):
            return -1
        end = src.find("]]", begin)
        line_end = src.find("\n", begin)
        if end <= begin or (0 <= line_end < end) or src.find("[[", begin, end) >= 0:
            return -1
        inner = src[begin:end]
        if any(mark in inner for mark in TEMPLATE_MARKS):
            return -1
        end = self.push("wikilink", pos, end + 2, embed=embed, inner=inner)
        if self.fields and LINKS_ONLY.fullmatch(src, self.line_start, end):
            return self.line_field(end)
        return end


def _last_runs(src: str) -> dict[int, int]:
    """Where the last run of backticks of each length starts: an opener with none of its
    length after it is text at once (a block of unmatched runs stays linear)."""
    found: dict[int, int] = {}
    for run in re.finditer("`+", src):
        found[len(run.group())] = run.start()
    return found
