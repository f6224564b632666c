"""A note's memory type (from frontmatter or folder) and daily-note dates (moment.js formats)."""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re

from ..config import ROOT_FILES, Config

MONTHS = "|".join(calendar.month_name[1:])
MONTHS_SHORT = "|".join(calendar.month_abbr[1:])
DAYS = "|".join(calendar.day_name)
DAYS_SHORT = "|".join(calendar.day_abbr)
# moment.js tokens, longest first; named groups carry the date parts.
TOKENS = [
    ("YYYY", r"(?P<Y>\d{4})"), ("YY", r"(?P<y>\d{2})"),
    ("MMMM", rf"(?P<B>{MONTHS})"), ("MMM", rf"(?P<b>{MONTHS_SHORT})"),
    ("MM", r"(?P<m>\d{2})"), ("M", r"(?P<m>\d{1,2})"),
    ("Do", r"(?P<d>\d{1,2})(?:st|nd|rd|th)"), ("DD", r"(?P<d>\d{2})"), ("D", r"(?P<d>\d{1,2})"),
    ("dddd", rf"(?:{DAYS})"), ("ddd", rf"(?:{DAYS_SHORT})"), ("dd", r"(?:Mo|Tu|We|Th|Fr|Sa|Su)"),
    ("d", r"\d"), ("E", r"\d"), ("e", r"\d"), ("WW", r"\d{2}"), ("W", r"\d{1,2}"),
    ("ww", r"\d{2}"), ("w", r"\d{1,2}"), ("Q", r"\d"), ("gggg", r"\d{4}"), ("GGGG", r"\d{4}"),
]


@functools.lru_cache(maxsize=32)
def daily_pattern(fmt: str) -> re.Pattern[str]:
    """A regex that matches file stems written in the moment.js format ``fmt``.

    >>> daily_pattern("YYYY-MM-DD").fullmatch("2026-08-20") is not None
    True
    """
    out, index, seen = [], 0, set()
    while index < len(fmt):
        if fmt[index] == "[":
            close = fmt.find("]", index)
            close = len(fmt) if close < 0 else close
            out.append(re.escape(fmt[index + 1 : close]))
            index = close + 1
            continue
        token = next((t for t in TOKENS if fmt.startswith(t[0], index)), None)
        if token is None:
            out.append(re.escape(fmt[index]))
            index += 1
            continue
        group = token[1]
        name = re.match(r"\(\?P<(\w)>", group)
        if name and name.group(1) in seen:  # a repeated part must not redefine the group
            group = f"(?P={name.group(1)})"
        elif name:
            seen.add(name.group(1))
        out.append(group)
        index += len(token[0])
    return re.compile("".join(out), re.IGNORECASE)


def daily_date(stem: str, fmt: str) -> str | None:
    """The ISO date of a daily note named ``stem`` in format ``fmt``, or None.

    >>> daily_date("2026/08/20-Thu", "YYYY/MM/DD-ddd")
    '2026-08-20'
    """
    match = daily_pattern(fmt).fullmatch(stem)
    if not match:
        return None
    parts = match.groupdict()
    year = int(parts["Y"]) if parts.get("Y") else 2000 + int(parts["y"] or 0)
    month = _month(parts)
    day = int(parts.get("d") or 1)
    if parts.get("Y") is None and parts.get("y") is None:
        return None
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _month(parts: dict[str, str | None]) -> int:
    """The month number from whichever month token matched."""
    if parts.get("m"):
        return int(parts["m"] or 1)
    for key, names in (("B", calendar.month_name), ("b", calendar.month_abbr)):
        if parts.get(key):
            return [n.lower() for n in names].index((parts[key] or "").lower())
    return 1


def in_folder(path: str, folder: str) -> bool:
    """True when vault path ``path`` lies inside ``folder`` ("" is the vault root)."""
    return not folder or path.lower().startswith(folder.lower().rstrip("/") + "/")


def note_type(note_id: str, path: str, declared: object, config: Config) -> str:
    """The memory type: frontmatter ``type:``, else root file, else the folder's type."""
    if isinstance(declared, str) and declared.strip():
        return declared.strip().lower()
    if path in ROOT_FILES:
        return ROOT_FILES[path]
    for kind, folder in sorted(config.folders.items(), key=lambda kv: -len(kv[1])):
        if folder and in_folder(path, folder):
            return kind
    return "note"


def daily_of(note_id: str, config: Config) -> str | None:
    """The date of a note that lives in the daily folder and is named in the daily format."""
    if not in_folder(note_id, config.daily_folder):
        return None
    inner = note_id[len(config.daily_folder) + 1 :] if config.daily_folder else note_id
    return daily_date(inner, config.daily_format)
