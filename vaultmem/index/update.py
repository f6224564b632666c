"""Write a scan's changes into the index database: notes, their rows, and re-resolved links.

A link's resolution depends on which files exist, so when files appear, go or change role,
the stored links whose name is one of theirs are resolved again (only those: a link can only
resolve to a file of its name). Runs inside the caller's write transaction.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Iterable, Mapping

from ..read.record import Entry, decode
from ..read.resolve import Resolver, link_name
from .rows import file_name, link_rows, node_attrs, reach
from .sql import IN_ARRAY, array


def forget(db: sqlite3.Connection, paths: Iterable[str]) -> None:
    """Delete the notes at ``paths`` and their rows."""
    for path in paths:
        db.execute("DELETE FROM notes WHERE path = ?", (path,))
        db.execute("DELETE FROM links WHERE source = ?", (path[:-3],))
        db.execute("DELETE FROM tags WHERE note = ?", (path[:-3],))


def insert(db: sqlite3.Connection, entries: Mapping[str, Entry], resolver: Resolver) -> None:
    """Store parsed notes with their node, tags and resolved links (a generated note's links
    and tags are not memory: not stored)."""
    for path, entry in entries.items():
        note = decode(entry)
        db.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (path, entry.mtime_ns, entry.size, entry.flags, *entry.identity, entry.record,
                    entry.search, marshal.dumps(node_attrs(note))))
        if note.generated:
            continue
        db.executemany("INSERT INTO tags VALUES (?, ?)", [(t, note.id) for t in note.tag_names()])
        db.executemany("INSERT INTO links VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            (r.source, link_name(r.target), r.target, r.node, r.missing, r.ambiguous, r.kind,
             r.line, r.raw, r.subpath) for r in link_rows(note, resolver)])


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
    db.executemany("UPDATE links SET node = ?, missing = ?, ambiguous = ? WHERE rowid = ?",
                   updates)
    return len(updates)
