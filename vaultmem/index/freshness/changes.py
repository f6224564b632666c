"""Which notes each storing scan changed, kept for the last generations: a result kept for an
earlier state of the vault is brought up to date note by note instead of being made again.

Every note a write stores or forgets is recorded under the generation its scan will end with
(one more than the index's now), in the writer's transaction; a scan that dies before it ends
leaves rows of a generation the next scan ends with, so a reader may be told of a note that did
not change, never left untold of one that did.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from ..sql import IN_ARRAY, array

SCHEMA = """
CREATE TABLE changes(generation INTEGER NOT NULL, note TEXT NOT NULL, aliases INTEGER NOT NULL);
CREATE INDEX changes_by_generation ON changes(generation);
"""
KEPT_GENERATIONS = 1000  # older changes are dropped: a result that old is made again


class Changed(NamedTuple):
    """The notes stored or forgotten after a generation, and whether any alias changed."""

    notes: frozenset[str]
    aliases: bool


def aliases_of(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, list[str]]:
    """The aliases of each note among ``ids`` that has any, in order."""
    found: dict[str, list[str]] = {}
    for note, name in db.execute(f"SELECT note, name FROM names WHERE alias AND note IN "
                                 f"{IN_ARRAY} ORDER BY rowid", (array(ids),)):
        found.setdefault(note, []).append(name)
    return found


def record(db: sqlite3.Connection, before: Mapping[str, list[str]], ids: Iterable[str]) -> None:
    """Record that the notes ``ids`` (whose aliases were ``before``) were just stored or
    forgotten (inside the writer's transaction)."""
    ids = sorted(set(ids))
    after = aliases_of(db, ids)
    generation = counted(db, "generation") + 1
    db.executemany("INSERT INTO changes VALUES (?, ?, ?)",
                   [(generation, i, before.get(i) != after.get(i)) for i in ids])


def forget_old(db: sqlite3.Connection, generation: int) -> None:
    """Drop the changes older than :data:`KEPT_GENERATIONS` before ``generation`` (the one a
    storing scan just ended with), and note from which generation on they are all kept."""
    oldest = generation - KEPT_GENERATIONS
    if oldest > counted(db, "changes_from"):
        db.execute("DELETE FROM changes WHERE generation <= ?", (oldest,))
        db.execute("INSERT OR REPLACE INTO meta VALUES ('changes_from', ?)", (str(oldest),))


def changed_since(db: sqlite3.Connection, generation: int) -> Changed | None:
    """What was stored or forgotten after ``generation``; None when those changes are no
    longer all kept."""
    if generation < counted(db, "changes_from"):
        return None
    rows = db.execute("SELECT note, aliases FROM changes WHERE generation > ?",
                      (generation,)).fetchall()
    return Changed(frozenset(row[0] for row in rows), any(row[1] for row in rows))


def counted(db: sqlite3.Connection, key: str) -> int:
    """A counter of the meta table (0 before it is first set)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else 0
