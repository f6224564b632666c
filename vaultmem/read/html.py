"""HTML in a block of Markdown, which vaultmem's parser leaves as text: where its tags are,
outside code spans, inline math and backslash escapes, and how a reader sees them (left out,
their text kept; a tag that breaks a line leaves a space)."""

from __future__ import annotations

import re
from typing import NamedTuple

from markdown_it.common.html_re import close_tag, open_tag

HTML_TAG = re.compile(f"{open_tag}|{close_tag}")
TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
# elements that sit inside a line of text: left out without a trace (``H<sub>2</sub>O``)
INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em",
                    "font", "i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike",
                    "strong", "sub", "sup", "time", "tt", "u", "var"})
PROTECTED = re.compile(r"\\.|`+|\$\$?")
MATH_CLOSE = re.compile(r"(?<=\S)\$(?!\d)")


class Edit(NamedTuple):
    """Characters ``start`` to ``end`` (excluded) of a block shown as ``text``."""

    start: int
    end: int
    text: str


def html_edits(content: str) -> list[Edit]:
    """HTML tags outside code spans, inline math and escapes, each left out (a space for one
    that is no inline element)."""
    if "<" not in content:
        return []
    guarded = protected(content)
    edits = []
    for tag in HTML_TAG.finditer(content):
        if any(start <= tag.start() < end for start, end in guarded):
            continue
        name = TAG_NAME.match(tag.group())
        text = "" if name and name.group(1).lower() in INLINE else " "
        edits.append(Edit(tag.start(), tag.end(), text + "\n" * tag.group().count("\n")))
    return edits


def protected(content: str) -> list[tuple[int, int]]:
    """The spans of code, inline math and backslash escapes in ``content``, in order."""
    found: list[tuple[int, int]] = []
    pos = 0
    while mark := PROTECTED.search(content, pos):
        start, text = mark.start(), mark.group()
        if text.startswith("\\"):
            end = mark.end()
        elif text.startswith("`"):
            end = code_span_end(content, mark.end(), len(text))
        else:
            end = _math_end(content, mark.end(), text)
        if end > mark.end() or text.startswith("\\"):
            found.append((start, end))
        pos = max(end, mark.end())
    return found


def code_span_end(content: str, start: int, ticks: int) -> int:
    """Just after the run of exactly ``ticks`` backticks closing a code span, or ``start``."""
    closing = re.compile(rf"(?<!`)`{{{ticks}}}(?!`)")
    found = closing.search(content, start)
    return found.end() if found else start


def _math_end(content: str, start: int, opener: str) -> int:
    """Just after the ``$`` or ``$$`` closing math opened just before ``start`` on its line,
    or ``start`` (a ``$`` opens only before a non-space and closes after one, not before a
    digit)."""
    line_end = content.find("\n", start)
    line_end = len(content) if line_end < 0 else line_end
    if opener == "$$":
        close = content.find("$$", start, line_end)
        return close + 2 if close >= 0 else start
    if start >= line_end or content[start].isspace():
        return start
    closer = MATH_CLOSE.search(content, start + 1, line_end)
    return closer.end() if closer else start
