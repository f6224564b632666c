"""Edit the body of a note by section (``## Heading``), leaving the rest byte-identical.

Headings are found by the same tokenizer the reader uses, so a ``## line`` inside a code block
is never mistaken for a section.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..config import Config
from ..read.parse import parse_note
from .props import newline_of

NO_CONFIG = Config(root=Path("."))
ATX = re.compile(r"\s*(?:(?:[-*+]|\d+[.)])\s+)*#{1,6}(?:\s|$)")  # ``## x``, ``- ## x``


def _headings(text: str) -> list[tuple[int, int, str, int]]:
    """(0-based line, level, text, first content line) of the note's own headings.

    Headings inside block quotes or callouts are not sections; a setext heading (text over
    ``---`` or ``===``) starts its content after the underline.
    """
    note = parse_note("x.md", text.encode("utf-8"), NO_CONFIG)
    lines = text.splitlines()
    found = []
    for heading in note.headings:
        line = heading.line - 1
        if lines[line].lstrip().startswith(">"):
            continue
        underline = line + 1 < len(lines) and set(lines[line + 1].strip()) in ({"-"}, {"="})
        found.append((line, heading.level, heading.text, line + 1 + underline))
    return found


def headings_in(text: str, above: str) -> list[tuple[int, int, str]]:
    """(line of ``text``, level, title) of each section heading ``text`` makes when written
    under the lines ``above`` (ending in a line break): none in code or quotes; a setext
    heading at its underline (which may make the last line of ``above`` a heading).

    >>> headings_in("Met.\\n```\\n# code\\n```\\nTitle\\n---\\n", "### 10:00 — Met\\n")
    [(6, 2, 'Title')]
    >>> headings_in("---\\n- ### 09:00 — x\\n", "### 10:00 — Met\\n")
    [(2, 3, '09:00 — x')]
    """
    whole = above + text
    lines, skip = whole.splitlines(), len(above.splitlines())
    found = []
    for line, level, name, _ in _headings(whole):
        setext = not ATX.match(lines[line]) and line + 1 < len(lines)
        last = line + 1 if setext else line  # a setext heading is made by its underline
        if last >= skip:
            found.append((last - skip + 1, level, name))
    return found


def section_span(text: str, title: str, level: int = 2) -> tuple[int, int] | None:
    """Lines [start, end) of the content under heading ``title`` (case-insensitive).

    The content ends before the next heading of the same or a higher level.
    """
    heads = _headings(text)
    total = len(text.splitlines())
    for index, (_, lvl, name, content) in enumerate(heads):
        if lvl == level and name.strip().lower() == title.strip().lower():
            after = [h[0] for h in heads[index + 1 :] if h[1] <= level]
            return content, after[0] if after else total
    return None


def _lines(text: str) -> tuple[list[str], str]:
    """The note's lines (with their endings) and its line ending."""
    return text.splitlines(keepends=True), newline_of(text)


def _close(lines: list[str], index: int, nl: str) -> None:
    """Give line ``index`` a line ending before something is inserted after it."""
    if 0 <= index < len(lines) and not lines[index].endswith(("\n", "\r")):
        lines[index] += nl


def _trim_end(lines: list[str], start: int, end: int) -> int:
    """The end of the section without its trailing blank lines."""
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def append_to_section(text: str, title: str, new: list[str], level: int = 2) -> str:
    """Add lines at the end of section ``title``; create the section at the end if missing."""
    lines, nl = _lines(text)
    span = section_span(text, title, level)
    added = [line + nl for line in new]
    if span is None:
        _close(lines, len(lines) - 1, nl)
        gap = [nl] if lines and lines[-1].strip() else []
        return "".join([*lines, *gap, f"{'#' * level} {title}{nl}", *added])
    end = _trim_end(lines, span[0], span[1])
    _close(lines, end - 1, nl)
    lines[end:end] = added
    return "".join(lines)


def replace_section(text: str, title: str, new: list[str], level: int = 2) -> str:
    """Replace the content of section ``title`` with ``new`` lines (created when missing)."""
    span = section_span(text, title, level)
    if span is None:
        return append_to_section(text, title, new, level)
    lines, nl = _lines(text)
    end = _trim_end(lines, span[0], span[1])
    _close(lines, span[0] - 1, nl)
    keep_gap = [nl] if end < len(lines) else []
    lines[span[0] : span[1]] = [line + nl for line in new] + keep_gap
    return "".join(lines)


def section_lines(text: str, title: str, level: int = 2) -> list[str]:
    """The non-blank lines of section ``title`` (without line endings)."""
    span = section_span(text, title, level)
    if span is None:
        return []
    lines = text.splitlines()[span[0] : span[1]]
    return [line for line in lines if line.strip()]


def append_text(text: str, block: str) -> str:
    """``block`` appended at the end after one blank line (a final newline added first)."""
    lines, nl = _lines(text)
    _close(lines, len(lines) - 1, nl)
    body = "".join(lines)
    gap = nl if body.strip() and not body.endswith(nl + nl) else ""
    return body + gap + block.replace("\n", nl)


def insert_before_sections(text: str, block: str) -> str:
    """``block`` above the note's first section (its first heading below the title), as the
    note's opening text; appended when the note has no section.

    >>> insert_before_sections("# Lucy\\n\\n## About\\n", "Founder.")
    '# Lucy\\n\\nFounder.\\n\\n## About\\n'
    """
    sections = [line for line, level, _, _ in _headings(text) if level >= 2]
    if not sections:
        return append_text(text, block)
    lines, nl = _lines(text)
    at = sections[0]
    new = [line + nl for line in block.strip("\n").split("\n")] + [nl]
    lines[at:at] = ([nl] if at and lines[at - 1].strip() else []) + new
    return "".join(lines)
