"""The program's one clock: every "today" and "now" comes from here, pinned by VAULTMEM_NOW."""

from __future__ import annotations

import datetime as dt
import os

from .errors import BadClock

ENV = "VAULTMEM_NOW"


def now() -> dt.datetime:
    """The current local time, naive, or the moment ``$VAULTMEM_NOW`` pins."""
    text = os.environ.get(ENV, "").strip()
    return pinned(text) if text else dt.datetime.now()


def pinned(text: str) -> dt.datetime:
    """The moment a ``VAULTMEM_NOW`` value names, as naive local time.

    A day alone is read as 09:00 that day, so writes that record a time record a stable one.

    >>> pinned("2026-11-29T10:30"), pinned("2026-11-29")
    (datetime.datetime(2026, 11, 29, 10, 30), datetime.datetime(2026, 11, 29, 9, 0))
    """
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise BadClock(f"{ENV}={text!r} is not a date or time; use YYYY-MM-DD or "
                       f"YYYY-MM-DDTHH:MM, or unset {ENV} to use the system clock") from None
    if len(text) == 10:
        when = when.replace(hour=9)
    return when if when.tzinfo is None else _local(when)


def _local(when: dt.datetime) -> dt.datetime:
    """An aware pinned time as naive local time, as the system clock gives it."""
    return when.astimezone().replace(tzinfo=None)


def this_minute() -> dt.datetime:
    """The current minute: the moment a write records when none is given."""
    return now().replace(second=0, microsecond=0)


def today() -> dt.date:
    """The current local date (or the pinned one)."""
    return now().date()
