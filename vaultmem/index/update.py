"""Write a scan's changes into the index database: notes, their rows, and re-resolved links.

A link's resolution depends on which files exist, so when files appear, go or change role,
the stored links whose name is one of theirs are resolved again (only those: a link can only
resolve to a file of its name). Runs inside the caller's write transaction.
"""

from __future__ import annotations

import json
import marshal
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from ..read.record import Entry, stored_blobs
from ..read.resolve import Resolver
from . import degrees, fts
from .rows import file_name, reach
from .sql import IN_ARRAY, array

KEY_NO = "(SELECT no FROM keys WHERE key = ?)"  # a note id's or node's number in ``keys``
# The tables of a note's rows that hold note ids as numbers: the columns keyed (as made by
# rows.note_rows), and the column of the note the rows are of.
NUMBERED = {"links": ("link_store", (0, 3)), "tags": ("tag_store", (1,)),
            "anchors": ("anchor_store", (0,)), "facts": ("fact_store", (0,)),
            "names": ("name_store", (3,))}
NUMBERED_NOTES = {"link_store": "source_no", "tag_store": "note_no", "anchor_store": "note_no",
                  "fact_store": "note_no", "name_store": "note_no"}
KEYED_COLUMNS = [*NUMBERED_NOTES.items(), ("link_store", "node_no"), ("passage_store", "path_no")]


def forget(db: sqlite3.Connection, paths: Iterable[str]) -> None:
    """Delete the notes at ``paths`` and their rows."""
    gone = array(paths)
    ids = array(path[:-3] for path in json.loads(gone))
    fts.remove(db, json.loads(gone))
    degrees.mark_stale(db, [*json.loads(ids), *(row[0] for row in db.execute(
        f"SELECT node FROM links WHERE source IN {IN_ARRAY}", (ids,)))])
    for table, column in NUMBERED_NOTES.items():
        db.execute(f"DELETE FROM {table} WHERE {column} IN (SELECT no FROM keys WHERE key IN "
                   f"{IN_ARRAY})", (ids,))
    for table in ("notes", "bodies"):
        db.execute(f"DELETE FROM {table} WHERE path IN {IN_ARRAY}", (gone,))


def insert(db: sqlite3.Connection, entries: Mapping[str, Entry]) -> None:
    """Store parsed notes (made by ``parse_files`` with a resolver) with their node, tags,
    headings, block ids, resolved links and passages (a generated note's are not memory)."""
    rows: dict[str, list[tuple[Any, ...]]] = {"notes": [], "bodies": [], "tags": [],
                                               "anchors": [], "links": [], "facts": [],
                                               "names": []}
    passages: list[tuple[Any, ...]] = []
    for path, entry in entries.items():
        if not entry.rows:
            raise ValueError(f"{path}: an entry parsed without its index rows (no resolver)")
        counts, tags, anchors, links, texts, facts, names = marshal.loads(entry.rows)
        rows["notes"].append((path, path[:-3], entry.mtime_ns, entry.size, entry.flags,
                              *entry.identity, *counts))
        rows["bodies"].append((path, *stored_blobs(entry)))
        rows["tags"] += tags
        rows["anchors"] += anchors
        rows["links"] += links
        rows["facts"] += facts
        rows["names"] += names
        passages += [(path, *row) for row in texts]
    fts.add_rows(db, passages)
    degrees.mark_stale(db, [node for link in rows["links"] for node in (link[0], link[3])])
    if not entries:  # nothing to store
        return
    db.executemany(f"INSERT INTO notes VALUES ({', '.join('?' * len(rows['notes'][0]))})",
                   rows["notes"])
    db.executemany("INSERT INTO bodies VALUES (?, ?, ?)", rows["bodies"])
    for kind, (table, keyed) in NUMBERED.items():
        _insert_numbered(db, table, keyed, rows[kind])


def _insert_numbered(db: sqlite3.Connection, table: str, keyed: tuple[int, ...],
                     rows: list[tuple[Any, ...]]) -> None:
    """Store ``rows`` (made by :func:`~vaultmem.index.rows.note_rows`) in ``table``, the
    note ids (or nodes) in the columns ``keyed`` numbered in the keys table."""
    if not rows:
        return
    db.executemany("INSERT OR IGNORE INTO keys(key) VALUES (?)",
                   [(key,) for key in sorted({row[at] for row in rows for at in keyed})])
    marks = ", ".join(KEY_NO if at in keyed else "?" for at in range(len(rows[0])))
    db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def forget_unused_keys(db: sqlite3.Connection) -> int:
    """Drop the numbers of note ids, nodes and paths no row holds any more (notes gone, links
    changed); how many."""
    used = " UNION ".join(f"SELECT {column} FROM {table}" for table, column in KEYED_COLUMNS)
    return db.execute(f"DELETE FROM keys WHERE no NOT IN ({used})").rowcount


def sync_files(db: sqlite3.Connection, files: Mapping[str, str]) -> set[str]:
    """Make the ``files`` table hold ``files`` (note id or attachment path -> role); return the
    names of those that appeared, went or changed role."""
    stored = dict(db.execute("SELECT id, role FROM files"))
    gone = stored.keys() - files.keys()
    changed = {key for key, role in files.items() if stored.get(key) != role}
    db.executemany("DELETE FROM files WHERE id = ?", [(key,) for key in gone])
    db.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?)",
                   [(key, file_name(key), files[key]) for key in changed])
    return {file_name(key) for key in gone | changed}


def resolve_again(db: sqlite3.Connection, names: set[str], resolver: Resolver) -> int:
    """Resolve the stored links of these names again; the number that changed."""
    rows = db.execute("SELECT rowid, source, target, node, missing, ambiguous FROM links "
                      f"WHERE name IN {IN_ARRAY}", (array(names),))
    updates = []
    for rowid, source, target, node, missing, ambiguous in rows.fetchall():
        now = reach(resolver, target, source)
        if now != (node, bool(missing), bool(ambiguous)):
            updates.append((*now, rowid))
            degrees.mark_stale(db, (source, node, now[0]))
    db.executemany("INSERT OR IGNORE INTO keys(key) VALUES (?)",
                   [(node,) for node in sorted({update[0] for update in updates})])
    db.executemany(f"UPDATE link_store SET node_no = {KEY_NO}, missing = ?, ambiguous = ? "
                   "WHERE rowid = ?", updates)
    return len(updates)
