"""Times a question names ("in May 2023", "on 10 January", "last week") as date ranges, and the
dates a passage speaks of (its note's date, moved by "yesterday" or "last week" in its text)."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import NamedTuple

MONTHS = {name.casefold(): number for number, name in enumerate(calendar.month_name) if name}
MONTHS |= {name.casefold(): number for number, name in enumerate(calendar.month_abbr) if name}
MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}(?:,?\s+(\d{{4}}))?\b",
                       re.IGNORECASE)
MONTH_DAY = re.compile(rf"\b{MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?",
                       re.IGNORECASE)
MONTH_YEAR = re.compile(rf"\b{MONTH}\s+(?:of\s+)?(\d{{4}})\b", re.IGNORECASE)
YEAR = re.compile(r"\b(?:in|during|of)\s+((?:19|20)\d{2})\b", re.IGNORECASE)
# (words, first day, last day) relative to the day a text is read on
RELATIVE = [("the day before yesterday", -2, -2), ("yesterday", -1, -1), ("today", 0, 0),
            ("tonight", 0, 0), ("this morning", 0, 0), ("tomorrow", 1, 1),
            ("last week", -10, -4), ("this week", -6, 6), ("next week", 4, 10),
            ("last month", -45, -15), ("next month", 15, 45), ("last weekend", -8, -1),
            ("last year", -550, -180), ("a few days ago", -5, -2), ("recently", -14, 0)]


class Period(NamedTuple):
    """Days from ``start`` to ``end``, both included; ``any_year``: only month and day count
    (a question that names a day without its year)."""

    start: dt.date
    end: dt.date
    any_year: bool = False

    def holds(self, day: dt.date) -> bool:
        """True when ``day`` falls in the period."""
        if self.any_year:
            return (self.start.month, self.start.day) <= (day.month, day.day) <= (
                self.end.month, self.end.day)
        return self.start <= day <= self.end


def query_periods(question: str, today: dt.date) -> list[Period]:
    """The times ``question`` names: dates, days of a month, months, years, and words such as
    "yesterday" or "last week" read from ``today``.

    >>> query_periods("what did Ana say on 10 January?", dt.date(2026, 3, 1))
    [Period(start=datetime.date(2000, 1, 10), end=datetime.date(2000, 1, 10), any_year=True)]
    >>> [p.start.isoformat() for p in query_periods("in May 2023 and last week",
    ...                                              dt.date(2026, 3, 20))]
    ['2023-05-01', '2026-03-10']
    """
    found = [_day(int(y), int(m), int(d)) for y, m, d in ISO.findall(question)]
    text = ISO.sub(" ", question)
    for match in DAY_MONTH.finditer(text):
        found.append(_day(match.group(3), MONTHS[match.group(2).casefold()], int(match.group(1))))
    for match in MONTH_DAY.finditer(text):
        if match.group(1) == "may":  # "we may 10 times": a verb; the month is written "May"
            continue
        found.append(_day(match.group(3), MONTHS[match.group(1).casefold()], int(match.group(2))))
    if not found:
        found += [_month(int(year), MONTHS[name.casefold()])
                  for name, year in MONTH_YEAR.findall(text)]
    if not found:
        found += [Period(dt.date(int(year), 1, 1), dt.date(int(year), 12, 31))
                  for year in YEAR.findall(text)]
    found += [Period(today + dt.timedelta(first), today + dt.timedelta(last))
              for first, last in _relative(text)]
    return [period for period in dict.fromkeys(found) if period is not None]


def spoken_days(text: str, day: dt.date) -> list[dt.date]:
    """The days a text written on ``day`` speaks of: that day, and the day before for
    "yesterday", the week before for "last week" (its middle day), and so on.

    >>> spoken_days("we met yesterday", dt.date(2026, 3, 10))
    [datetime.date(2026, 3, 10), datetime.date(2026, 3, 9)]
    """
    days = [day]
    for first, last in _relative(text):
        days.append(day + dt.timedelta((first + last) // 2))
    return list(dict.fromkeys(days))


def parse_day(value: str) -> dt.date | None:
    """A note's date (``2026-03-14``, maybe with a time after it), or None."""
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None


def _relative(text: str) -> list[tuple[int, int]]:
    """(first, last) day offsets of the relative time words in ``text``."""
    folded = f" {' '.join(re.findall(r'[a-z]+', text.casefold()))} "
    found = []
    for words, first, last in RELATIVE:
        if f" {words} " in folded:
            found.append((first, last))
            folded = folded.replace(f" {words} ", " | ")  # "the day before yesterday" once
    return found


def _day(year: str | int | None, month: int, day: int) -> Period | None:
    """One day (any year when ``year`` is None), or None when there is no such day."""
    try:
        date = dt.date(int(year) if year else 2000, month, day)
    except ValueError:
        return None
    return Period(date, date, not year)


def _month(year: int, month: int) -> Period:
    """A whole month."""
    return Period(dt.date(year, month, 1),
                  dt.date(year, month, calendar.monthrange(year, month)[1]))
