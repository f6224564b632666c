"""A passage scored for a question, the order of scored passages, and which notes count."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from ...index.fts import PassageHit
from ...index.lookup import Facets, StoredPassage
from .periods import parse_day


class Scored(NamedTuple):
    """A passage and how well it answers the question."""

    passage: StoredPassage
    score: float
    date: str  # its note's date, "" when none
    reasons: tuple[str, ...] = ()  # what makes its score, for people (``context --explain``)
    held: frozenset[str] = frozenset()  # the question's search terms it holds


def best_first(found: Scored) -> tuple[float, str, int]:
    """Sort key: best first; ties in note and file order."""
    return -found.score, found.passage.note, found.passage.number


def stored(hit: PassageHit) -> StoredPassage:
    """The passage a search hit holds."""
    return StoredPassage(hit.path[:-3], hit.number, hit.kind, hit.headings, hit.start, hit.end,
                         hit.block_id, hit.text)


def expired(note: Facets, today: dt.date) -> bool:
    """True when the note's memory stopped holding before ``today``."""
    day = parse_day(note.expires)
    return day is not None and day < today
