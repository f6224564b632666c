"""Passage text: comments hidden, rows and short sections joined, text tidied and chunked."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from markdown_it.token import Token

from .code_spans import code_span_end
from .html import Edit
from .shown import edited, shown_syntax

MAX_CHARS = 1200
SECTION_CHARS = 300
MARKER = re.compile(r"`+|%%|<!--")
CALLOUT = re.compile(r"\s*\[![^\]\n]*\][+-]?")
# a sentence ends at ``.!?`` and the spaces after them, or at full-width ones (no space needed)
SENTENCE = re.compile(".*?(?:[.!?]+\\s+|[\u3002\uff01\uff1f]+\\s*|$)")
WORD = re.compile(r"\S+\s*")

Line = tuple[int, str]  # (1-based file line, visible text on it)
Span = tuple[int, int]  # (start, end) offsets of characters to hide, end excluded


@dataclass
class Draft:
    """A passage being collected: its lines with their file line numbers."""

    kind: str
    headings: tuple[str, ...]
    section: int
    place: tuple[int, int]  # (quote depth, list item depth) it is written at
    lines: list[Line] = field(default_factory=list)
    block_id: str | None = None
    embeds: list[str] = field(default_factory=list)  # what its embeds read as


class Chunk(NamedTuple):
    """One part of a passage's text with the file lines it spans."""

    text: str  # tidied: see ``text_chunks``
    start: int  # 1-based first file line
    end: int  # 1-based last file line


class Visible(NamedTuple):
    """An inline token's text as shown, line by line (see :mod:`.shown`)."""

    lines: list[str]
    block_id: str | None  # its last ``^id``
    hidden: bool  # a ``%%`` comment stays open at its end
    embeds: list[str]  # what each of its embeds reads as


def visible_lines(token: Token, hidden: bool) -> Visible:
    """An inline token's lines as shown: comments and ids left out, links, embeds, fields and
    HTML as a reader sees them."""
    spans, hidden = hidden_spans(token.content, hidden)
    ident = None
    for child in token.children or []:
        if child.type == "block_id":
            start = child.meta["pos"]
            spans.append((start, start + len(child.content)))
            ident = child.meta["id"]
    shown = shown_syntax(token)
    edits = [Edit(start, end, "") for start, end in spans]
    edits += [edit for edit in shown.edits
              if not any(start < edit.end and edit.start < end for start, end in spans)]
    return Visible(edited(token.content, edits).split("\n"), ident, hidden, shown.embeds)


def hidden_spans(content: str, hidden: bool) -> tuple[list[Span], bool]:
    """Comment spans of a block outside code spans, and if a ``%%`` is open at its end."""
    spans: list[Span] = []
    pos = 0
    if hidden:
        pos, hidden = _comment_end(content, 0, "%%")
        spans.append((0, pos))
    while not hidden and (found := _comment_start(content, pos)):
        end, hidden = _comment_end(content, found.end(), "%%" if found.group() == "%%" else "-->")
        spans.append((found.start(), end))
        pos = end
    return spans, hidden


def _comment_start(content: str, pos: int) -> re.Match[str] | None:
    """The next ``%%`` or ``<!--`` from ``pos`` on that is not inside a code span."""
    while (found := MARKER.search(content, pos)) and found.group().startswith("`"):
        pos = code_span_end(content, found.end(), len(found.group()))
    return found


def _comment_end(content: str, start: int, closer: str) -> tuple[int, bool]:
    """Just after the next ``closer`` (or the end), and whether a ``%%`` comment stays open."""
    at = content.find(closer, start)
    return (len(content), closer == "%%") if at < 0 else (at + len(closer), False)


def one_line(lines: list[str]) -> str:
    """``lines`` joined by spaces, with runs of spaces made one and none at the ends."""
    return " ".join(" ".join(lines).split())


def numbered(first: int, lines: list[str]) -> list[Line]:
    """``lines`` with their file line numbers, the first on file line ``first``."""
    return [(first + number, text) for number, text in enumerate(lines)]


def without_callout_title(lines: list[Line], alone: bool) -> tuple[list[Line], str]:
    """Lines without a callout's ``[!type]`` mark, and its title line taken out unless ``alone``."""
    callout = CALLOUT.match(lines[0][1])
    if callout is None:
        return lines, ""
    lines[0] = (lines[0][0], lines[0][1][callout.end() :])
    if len(lines) > 1 or not alone:
        return lines, one_line([lines.pop(0)[1]])
    return lines, ""


def unquoted(line: str, depth: int) -> str:
    """``line`` without its indentation and ``depth`` quote markers."""
    line = line.lstrip()
    for _ in range(depth):
        line = line.removeprefix(">").lstrip()
    return line


def table_rows(rows: list[tuple[int, list[str]]]) -> list[Line]:
    """A table's body rows as texts (empty ones left out), or its header row if it has no other."""
    if len(rows) == 1:
        line, header = rows[0]
        texts = [(line, "; ".join(name for name in header if name))]
    else:
        texts = [(line, _row_text(rows[0][1], cells)) for line, cells in rows[1:]]
    return [(line, text) for line, text in texts if text]


def _row_text(header: list[str], cells: list[str]) -> str:
    """A table row as ``Header: cell; ...``, empty cells left out, a cell of no header alone."""
    pairs = itertools.zip_longest(header, cells, fillvalue="")
    return "; ".join(f"{name}: {cell}" if name else cell for name, cell in pairs if cell)


def merge_sections(drafts: list[Draft]) -> list[Draft]:
    """Drafts with each short section of only paragraphs made one ``section`` draft."""
    merged: list[Draft] = []
    for _, group in itertools.groupby(drafts, key=lambda draft: draft.section):
        members = list(group)
        if _short_section(members):
            section = members[0]
            merged.append(Draft("section", section.headings, section.section, section.place,
                                [line for member in members for line in member.lines],
                                embeds=[embed for member in members for embed in member.embeds]))
        else:
            merged += members
    return merged


def _short_section(members: list[Draft]) -> bool:
    """Two or more paragraphs at one heading path, without block ids, short enough together."""
    size = sum(len(_tidy(text, False)) for member in members for _, text in member.lines)
    return (len(members) > 1 and size <= SECTION_CHARS
            and all(m.kind == "paragraph" and m.block_id is None
                    and m.headings == members[0].headings for m in members))


def text_chunks(lines: list[Line], code: bool) -> list[Chunk]:
    """A draft's lines tidied, in chunks of at most ``MAX_CHARS`` with the lines each spans."""
    tidied = _tidied(lines, code)
    parts = _parts(tidied, code) if tidied else []
    return [Chunk(_part_text(part, code), part[0][0], part[-1][0]) for part in parts]


def _tidied(lines: list[Line], code: bool) -> list[Line]:
    """Tidied lines: prose without its empty lines, code without blank lines at its ends."""
    tidy = [(number, _tidy(text, code)) for number, text in lines]
    if not code:
        return [line for line in tidy if line[1]]
    filled = [index for index, (_, text) in enumerate(tidy) if text]
    return tidy[filled[0] : filled[-1] + 1] if filled else []


def _tidy(text: str, code: bool) -> str:
    """A line without trailing spaces; prose also without leading spaces and space runs."""
    return text.rstrip() if code else " ".join(text.split())


def _parts(lines: list[Line], code: bool) -> list[list[Line]]:
    """The lines in parts of at most ``MAX_CHARS``: whole lines, or sentences of them."""
    total = sum(len(text) + 1 for _, text in lines) - 1
    if total <= MAX_CHARS:
        return [lines]
    units = [(number, piece) for number, text in lines for piece in _pieces(text, code)]
    parts = _pack(units, total / -(-total // MAX_CHARS))
    return [_trim(part) for part in parts if any(text.strip() for _, text in part)]


def _pack(units: list[Line], target: float) -> list[list[Line]]:
    """Units in order, in parts closed on reaching ``target`` or before passing ``MAX_CHARS``."""
    parts: list[list[Line]] = [[]]
    size = 0
    for unit in units:
        if parts[-1] and size + len(unit[1]) > MAX_CHARS:
            parts.append([])
            size = 0
        parts[-1].append(unit)
        size += len(unit[1]) + 1
        if size >= target:
            parts.append([])
            size = 0
    return parts


def _trim(part: list[Line]) -> list[Line]:
    """A part without blank units at its ends, so its span starts and ends on text."""
    kept = list(itertools.dropwhile(lambda unit: not unit[1].strip(), part))
    while not kept[-1][1].strip():
        kept.pop()
    return kept


def _pieces(text: str, code: bool) -> list[str]:
    """A line cut into parts of at most ``MAX_CHARS``: sentences (prose), words, characters."""
    sentences = [text] if code else [m.group() for m in SENTENCE.finditer(text) if m.group()]
    fitted: list[str] = []
    for sentence in sentences:
        if len(sentence) <= MAX_CHARS:
            fitted.append(sentence)
            continue
        for word in (m.group() for m in WORD.finditer(sentence)):
            fitted += [word[at : at + MAX_CHARS] for at in range(0, len(word), MAX_CHARS)]
    return fitted or [text]


def _part_text(part: list[Line], code: bool) -> str:
    """A part's text: pieces of one line joined as written, lines by line breaks."""
    joined: list[Line] = []
    for number, piece in part:
        if joined and joined[-1][0] == number:
            joined[-1] = (number, joined[-1][1] + piece)
        else:
            joined.append((number, piece))
    return "\n".join(_tidy(text, code) for _, text in joined)
