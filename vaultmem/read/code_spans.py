"""Where a block's code spans, inline math and backslash escapes are: the parts of its text
that are no prose and no markup (read the way vaultmem's parser reads them)."""

from __future__ import annotations

import re

PROTECTED = re.compile(r"\\.|`+|\$\$?")
MATH_CLOSE = re.compile(r"(?<=\S)\$(?!\d)")


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
