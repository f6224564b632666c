"""Format dates with moment.js tokens, as Obsidian's daily notes and templates do."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Formatter = Callable[[dt.datetime], str]


def _ordinal(day: int) -> str:
    """``1st``, ``2nd``, ``11th`` ..."""
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


# Longest tokens first, so "YYYY" wins over "YY" and "MMMM" over "MM".
TOKENS: list[tuple[str, Formatter]] = [
    ("YYYY", lambda d: f"{d.year:04d}"), ("YY", lambda d: f"{d.year % 100:02d}"),
    ("MMMM", lambda d: d.strftime("%B")), ("MMM", lambda d: d.strftime("%b")),
    ("MM", lambda d: f"{d.month:02d}"), ("M", lambda d: str(d.month)),
    ("Do", lambda d: _ordinal(d.day)), ("DD", lambda d: f"{d.day:02d}"),
    ("D", lambda d: str(d.day)),
    ("dddd", lambda d: d.strftime("%A")), ("ddd", lambda d: d.strftime("%a")),
    ("dd", lambda d: d.strftime("%a")[:2]), ("d", lambda d: str(d.isoweekday() % 7)),
    ("E", lambda d: str(d.isoweekday())), ("e", lambda d: str(d.isoweekday() % 7)),
    ("GGGG", lambda d: f"{d.isocalendar()[0]:04d}"),
    ("gggg", lambda d: f"{d.isocalendar()[0]:04d}"),
    ("WW", lambda d: f"{d.isocalendar()[1]:02d}"), ("W", lambda d: str(d.isocalendar()[1])),
    ("ww", lambda d: f"{d.isocalendar()[1]:02d}"), ("w", lambda d: str(d.isocalendar()[1])),
    ("Q", lambda d: str((d.month - 1) // 3 + 1)),
    ("HH", lambda d: f"{d.hour:02d}"), ("H", lambda d: str(d.hour)),
    ("hh", lambda d: f"{(d.hour - 1) % 12 + 1:02d}"), ("h", lambda d: str((d.hour - 1) % 12 + 1)),
    ("mm", lambda d: f"{d.minute:02d}"), ("m", lambda d: str(d.minute)),
    ("ss", lambda d: f"{d.second:02d}"), ("s", lambda d: str(d.second)),
    ("A", lambda d: "AM" if d.hour < 12 else "PM"), ("a", lambda d: "am" if d.hour < 12 else "pm"),
    ("X", lambda d: str(int(d.timestamp()))),
]


def format_moment(when: dt.datetime, fmt: str) -> str:
    """``when`` written in the moment.js format ``fmt`` (``[text]`` is literal).

    >>> format_moment(dt.datetime(2026, 8, 20, 9, 5), "YYYY-MM-DD [at] HH:mm, dddd Do")
    '2026-08-20 at 09:05, Thursday 20th'
    """
    out, index = [], 0
    while index < len(fmt):
        if fmt[index] == "[":
            close = fmt.find("]", index)
            close = len(fmt) if close < 0 else close
            out.append(fmt[index + 1 : close])
            index = close + 1
            continue
        token = next((t for t in TOKENS if fmt.startswith(t[0], index)), None)
        out.append(token[1](when) if token else fmt[index])
        index += len(token[0]) if token else 1
    return "".join(out)
