"""Which notes each storing scan changed, kept for the last generations: a result kept for an
earlier state of the vault is brought up to date note by note instead of being made again.

Every note a write stores or forgets is recorded under the generation its scan will end with
(one more than the index's now), in the writer's transaction; a scan that dies before it ends
leaves rows of a generation the next scan ends with, so a reader may be told of a note that did
not change, never left untold of one that did.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Iterable
from typing import Any, NamedTuple

from ...read.record import loaded_doc
from ..sql import IN_ARRAY, array

SCHEMA = """
CREATE TABLE changes(generation INTEGER NOT NULL, note TEXT NOT NULL, aliases INTEGER NOT NULL,
    memory INTEGER NOT NULL, named INTEGER NOT NULL, file INTEGER NOT NULL);
CREATE INDEX changes_by_generation ON changes(generation);
"""
KEPT_GENERATIONS = 1000  # older changes are dropped: a result that old is made again


class Changed(NamedTuple):
    """The notes stored or forgotten after a generation, whether any alias changed, the notes
    whose memory changed (what the checks read of a note: its type, status, dates, tags,
    aliases, facts and history, and where its links go from which line; not only its words),
    and the names of the notes and files that came, went or changed role (a link written to
    such a name may mean another file now)."""

    notes: frozenset[str]
    aliases: bool
    memory: frozenset[str] = frozenset()
    named: frozenset[str] = frozenset()


class Before(NamedTuple):
    """What :func:`record` compares a note's rows with: its aliases and memory as stored."""

    aliases: dict[str, list[str]]
    memory: dict[str, tuple[Any, ...]]


def before_storing(db: sqlite3.Connection, ids: Iterable[str]) -> Before:
    """The aliases and memory of the notes ``ids`` as stored, before they are stored again or
    forgotten."""
    ids = list(ids)
    return Before(aliases_of(db, ids), memory_of(db, ids))


def memory_of(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, tuple[Any, ...]]:
    """What the checks read of each stored note among ``ids``: its stored metadata, and the
    (node, line) of each of its links."""
    wanted = array(f"{note_id}.md" for note_id in ids)
    metas = {path[:-3]: marshal.loads(loaded_doc(doc))[2] for path, doc in
             db.execute(f"SELECT path, doc FROM bodies WHERE path IN {IN_ARRAY}", (wanted,))}
    links: dict[str, list[tuple[str, int]]] = {}
    for source, node, line in db.execute(
            f"SELECT source, node, line FROM links WHERE source IN {IN_ARRAY} ORDER BY source, "
            "node, line", (array(metas),)):
        links.setdefault(source, []).append((node, line))
    return {note_id: (meta, links.get(note_id, [])) for note_id, meta in metas.items()}


def aliases_of(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, list[str]]:
    """The aliases of each note among ``ids`` that has any, in order."""
    found: dict[str, list[str]] = {}
    for note, name in db.execute(f"SELECT note, name FROM names WHERE alias AND note IN "
                                 f"{IN_ARRAY} ORDER BY rowid", (array(ids),)):
        found.setdefault(note, []).append(name)
    return found


def record(db: sqlite3.Connection, before: Before, ids: Iterable[str]) -> None:
    """Record that the notes ``ids`` (as ``before`` says they were) were just stored or
    forgotten (inside the writer's transaction). A note new to the index changed its memory
    without reading it back (a first scan stores every note)."""
    ids = sorted(set(ids))
    aliases = aliases_of(db, ids)
    memory = memory_of(db, [i for i in ids if i in before.memory])
    generation = counted(db, "generation") + 1
    db.executemany("INSERT INTO changes VALUES (?, ?, ?, ?, ?, 0)",
                   [(generation, i, before.aliases.get(i) != aliases.get(i),
                     i not in before.memory or before.memory[i] != memory.get(i),
                     i not in before.memory or i not in memory) for i in ids])


def record_files(db: sqlite3.Connection, names: Iterable[str]) -> None:
    """Record that files of these names came, went or changed role (inside the writer's
    transaction)."""
    generation = counted(db, "generation") + 1
    db.executemany("INSERT INTO changes VALUES (?, ?, 0, 0, 1, 1)",
                   [(generation, name) for name in sorted(set(names))])


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
    rows = db.execute("SELECT note, aliases, memory, named, file FROM changes WHERE "
                      "generation > ?", (generation,)).fetchall()
    notes = [row for row in rows if not row[4]]
    return Changed(frozenset(row[0] for row in notes), any(row[1] for row in notes),
                   frozenset(row[0] for row in notes if row[2]),
                   frozenset(row[0] for row in rows if row[3]))


def counted(db: sqlite3.Connection, key: str) -> int:
    """A counter of the meta table (0 before it is first set)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else 0
