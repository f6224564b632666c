"""A note body's tokens, made without markdown-it when the body is only paragraphs, headings,
quotes and callouts, fences, rules and lists of one-line items, and equal to those markdown-it
makes (``tests/test_plain_parse.py`` compares them on every note of the shared vaults, of a
generated vault and of random documents).

Comment and display math blocks (``%%``, ``$$``, ``<!--``) are read as :mod:`.syntax` reads
them. Any line that could be something else (indented text, a table, a lazy continuation, a
tab after a quote's ``>``, a link reference) hands the whole body to markdown-it with this
package's rules, the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from markdown_it.common.utils import mdTrim
from markdown_it.rules_core.normalize import NEWLINES_RE, NULL_RE
from markdown_it.token import Token

from .plain_lines import (
    FENCE,
    HEADING,
    RULE,
    SETEXT,
    breaks_item,
    hidden_opener,
    inline_token,
    item_of,
    paragraph_tokens,
    plain,
)
from .plain_lists import read_list
from .syntax import HIDDEN, closing_block_id, fill_inline, make_parser

PARSER = make_parser()
MAX_QUOTES = 20  # quotes in quotes: deeper ones go to markdown-it


def body_tokens(body: str) -> list[Token]:
    """The tokens vaultmem's markdown-it parser gives ``body``: made here for a plain body."""
    tokens = plain_tokens(body)
    return PARSER.parse(body) if tokens is None else tokens


def plain_tokens(body: str) -> list[Token] | None:
    """markdown-it's tokens of ``body`` with vaultmem's rules, or ``None`` when the body holds
    any block but paragraphs, headings, quotes and callouts of these, closed fences, comment and
    math blocks, rules and lists of one-line items (nested or not).

    >>> [t.type for t in plain_tokens("# A\\n\\nSee [[B]].")]
    ['heading_open', 'inline', 'heading_close', 'paragraph_open', 'inline', 'paragraph_close']
    >>> plain_tokens("- a\\n  more of a") is None
    True
    """
    if "\r" in body or "\0" in body:
        body = NULL_RE.sub("\ufffd", NEWLINES_RE.sub("\n", body))
    lines = body.split("\n")
    if not lines[-1].strip(" \t"):
        lines.pop()  # markdown-it has no last line of only spaces without a newline
    tokens = _blocks(lines)
    return None if tokens is None else fill_inline(tokens, PARSER, {})


def _blocks(lines: list[str]) -> list[Token] | None:
    """The block tokens of ``lines`` (their inline tokens without children), None to give up."""
    tokens: list[Token] = []
    at = 0
    while at < len(lines):
        if not lines[at].strip(" \t"):
            at += 1
            continue
        at = _reader(lines[at])(lines, at, tokens)
        if at < 0:
            return None
    return tokens


def _reader(line: str) -> Callable[[list[str], int, list[Token]], int]:
    """The function reading the block that starts with ``line``."""
    if line[0] in "%$<" and hidden_opener(line):
        return _hidden
    if line[0] == "#" and HEADING.match(line):
        return _heading
    if line[0] == ">":
        return _quote
    if line[0] in "`~" and FENCE.match(line):
        return _fence
    if line[0] in "-*_" and RULE.match(line):
        return _rule
    return read_list if item_of(line) else _paragraph


def _fence(lines: list[str], at: int, tokens: list[Token]) -> int:
    """A fenced code block closed by a line of at least as many of its marks (indented less
    than a tab stop); -1 when it is left open."""
    line = lines[at]
    marks = line[: len(line) - len(line.lstrip(line[0]))]
    if marks[0] == "`" and "`" in line[len(marks):]:
        return -1
    for end in range(at + 1, len(lines)):
        text = lines[end].lstrip(" \t")
        indent = lines[end][: len(lines[end]) - len(text)]
        if "\t" in indent:
            continue  # at column 4 or more: code, never the closing line
        if len(indent) < 4 and text.startswith(marks) and not text.lstrip(marks[0]).strip(" \t"):
            content = "".join(f"{body}\n" for body in lines[at + 1 : end])
            tokens.append(Token("fence", "code", 0, map=[at, end + 1], content=content,
                                markup=marks, info=line[len(marks):], block=True))
            return end + 1
    return -1


def _hidden(lines: list[str], at: int, tokens: list[Token]) -> int:
    """A comment or display math block, to the line holding its closer (or the end)."""
    opener, closer, kind = HIDDEN[lines[at][0]]
    last = at
    if closer not in lines[at][len(opener):]:
        last += 1
        while last < len(lines) and closer not in lines[last]:
            last += 1
    end = min(last + 1, len(lines))
    meta = closing_block_id(lines[last].lstrip(" \t"), closer, last - at) \
        if kind == "math_block" and last < len(lines) else {}
    tokens.append(Token(kind, "", 0, map=[at, end], meta=meta, block=True))
    return end


def _rule(lines: list[str], at: int, tokens: list[Token]) -> int:
    """A thematic break (markdown-it's markup holds one mark more than the line)."""
    line = lines[at]
    tokens.append(Token("hr", "hr", 0, map=[at, at + 1], markup=line[0] * (line.count(line[0]) + 1),
                        block=True))
    return at + 1


def _heading(lines: list[str], at: int, tokens: list[Token]) -> int:
    """An ATX heading on line ``at``; -1 when it may end in closing ``#`` marks."""
    line = lines[at]
    if line.rstrip(" \t").endswith("#"):
        return -1
    marks = line[: len(line) - len(line.lstrip("#"))]
    tag = f"h{len(marks)}"
    tokens += [Token("heading_open", tag, 1, map=[at, at + 1], markup=marks, block=True),
               inline_token(mdTrim(line[len(marks):]), at, at + 1, 1),
               Token("heading_close", tag, -1, markup=marks, block=True)]
    return at + 1


def _paragraph(lines: list[str], at: int, tokens: list[Token]) -> int:
    """A paragraph from line ``at`` to a blank line, a heading or a list that may break in."""
    if not plain(lines[at]):
        return -1
    end = at + 1
    while end < len(lines) and lines[end].strip(" \t"):
        line = lines[end]
        if line[0] in "=-" and SETEXT.match(line):
            return _setext(lines, at, end, tokens)
        item = item_of(line)
        if item and item.kind == "ordered" and int(item.number) != 1:
            return -1  # not a list: the paragraph goes on
        if breaks_item(line):
            break
        if not plain(line):
            return -1
        end += 1
    content = mdTrim("\n".join(lines[at:end]))
    tokens += paragraph_tokens(content, at, end, 0, False)
    return end


def _setext(lines: list[str], at: int, end: int, tokens: list[Token]) -> int:
    """A heading of lines ``at`` to ``end`` underlined by ``===`` (h1) or ``---`` (h2)."""
    marker = lines[end][0]
    tag = "h1" if marker == "=" else "h2"
    tokens += [Token("heading_open", tag, 1, map=[at, end + 1], markup=marker, block=True),
               inline_token(mdTrim("\n".join(lines[at:end])), at, end, 1),
               Token("heading_close", tag, -1, markup=marker, block=True)]
    return end + 1


def _quote(lines: list[str], at: int, tokens: list[Token]) -> int:
    """A quote (or callout) of ``>`` lines, what follows each ``>`` read as the blocks of a
    note of its own (quotes in it too)."""
    end = at
    while end < len(lines) and lines[end].startswith(">"):
        end += 1
    if end < len(lines) and lines[end].strip(" \t") and not breaks_item(lines[end]):
        return -1  # a lazy continuation line
    if any(line[: len(line) - len(line.lstrip("> "))].count(">") > MAX_QUOTES
           for line in lines[at:end]):
        return -1
    inner = [line[2:] if line.startswith("> ") else line[1:] for line in lines[at:end]]
    if any("\t" in line[: len(line) - len(line.lstrip(" \t"))] for line in inner):
        return -1  # a tab after ">" reaches a tab stop counted from the line's start
    found = _blocks(inner)
    if found is None or any(a.type == "blockquote_open" and b.type == "blockquote_close"
                            for a, b in pairwise(found)):
        return -1  # an empty quote inside a quote: markdown-it's line count runs past this one
    for token in found:  # read as a note of its own: one level deeper, lines from ``at``
        token.level += 1
        token.map = token.map and [token.map[0] + at, token.map[1] + at]
    while not found and end < len(lines) and not lines[end].strip(" \t"):
        end += 1  # markdown-it's empty quote runs on over the blank lines after it
    tokens += [Token("blockquote_open", "blockquote", 1, map=[at, end], markup=">", block=True),
               *found, Token("blockquote_close", "blockquote", -1, markup=">", block=True)]
    return end
