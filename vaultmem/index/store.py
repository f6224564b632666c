"""The index database: parsed notes, their links by target name, and results derived from them.

One SQLite file per vault in the cache folder (never in the vault). WAL lets readers go on while
one process writes; each update is one transaction, so a killed writer leaves the previous
state. It is a cache: another schema, another vaultmem or a damaged file is rebuilt, never
trusted, and deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import marshal
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import IndexBusy
from ..locations import index_folder
from ..read.record import Entry, loaded_blobs
from ..read.resolve import Resolver
from . import degrees, fts, update
from .freshness import changes
from .sql import IN_ARRAY, KEYS, array, index_statements, start_over, transaction, tuned

SCHEMA = 15
BUSY_MS = 30_000
SQLITE_BUSY, SQLITE_LOCKED = 5, 6
# Every connection of this process is opened under this lock: a file created by one (and its
# descriptor closed) must never drop the POSIX locks another connection holds on it, or another
# process may think the index unused and delete its write-ahead log under it.
_CREATING = threading.Lock()


def _unlocked_in_child() -> None:
    """A fork starts with the lock free: the thread that held it is not in the child."""
    global _CREATING
    _CREATING = threading.Lock()


os.register_at_fork(after_in_child=_unlocked_in_child)
PACKAGE = Path(__file__).resolve().parents[1]
TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE notes(path TEXT PRIMARY KEY, id TEXT NOT NULL, mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    flags INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL,
    type TEXT NOT NULL, status TEXT NOT NULL, date TEXT NOT NULL, expires TEXT NOT NULL,
    tag_uses INTEGER NOT NULL, fields INTEGER NOT NULL, node BLOB NOT NULL) WITHOUT ROWID;
CREATE INDEX notes_by_id ON notes(id);
CREATE INDEX notes_by_type ON notes(type, date, status, id, flags);  -- covers a type's reads
CREATE INDEX notes_by_date ON notes(date, flags);
CREATE TABLE bodies(path TEXT PRIMARY KEY, record BLOB NOT NULL, doc BLOB NOT NULL);
CREATE TABLE files(id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX files_by_name ON files(name);
""" + KEYS + """
CREATE TABLE link_store(source_no INTEGER NOT NULL, name TEXT NOT NULL, target TEXT NOT NULL,
    node_no INTEGER NOT NULL, missing INTEGER NOT NULL, ambiguous INTEGER NOT NULL,
    kind TEXT NOT NULL, line INTEGER NOT NULL, raw TEXT NOT NULL, subpath TEXT NOT NULL,
    embed INTEGER NOT NULL);
CREATE INDEX links_by_name ON link_store(name);
CREATE INDEX links_by_source ON link_store(source_no, node_no);
CREATE INDEX links_by_node ON link_store(node_no, source_no);
CREATE INDEX links_to_check ON link_store(source_no) WHERE missing OR ambiguous OR subpath != '';
CREATE INDEX links_to_fix ON link_store(source_no) WHERE missing OR ambiguous;
CREATE VIEW links(rowid, source, name, target, node, missing, ambiguous, kind, line, raw,
    subpath, embed) AS SELECT l.rowid, s.key, l.name, l.target, n.key, l.missing, l.ambiguous,
    l.kind, l.line, l.raw, l.subpath, l.embed FROM link_store AS l
    JOIN keys AS s ON s.no = l.source_no JOIN keys AS n ON n.no = l.node_no;
CREATE TABLE anchor_store(note_no INTEGER NOT NULL, block INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX anchors_by_note ON anchor_store(note_no);
CREATE VIEW anchors(rowid, note, block, text) AS SELECT a.rowid, k.key, a.block, a.text
    FROM anchor_store AS a JOIN keys AS k ON k.no = a.note_no;
CREATE TABLE tag_store(tag TEXT NOT NULL, note_no INTEGER NOT NULL, PRIMARY KEY(tag, note_no))
    WITHOUT ROWID;
CREATE INDEX tags_by_note ON tag_store(note_no);
CREATE VIEW tags(tag, note) AS SELECT t.tag, k.key FROM tag_store AS t
    JOIN keys AS k ON k.no = t.note_no;
CREATE TABLE fact_store(note_no INTEGER NOT NULL, attribute TEXT NOT NULL, value BLOB NOT NULL,
    line INTEGER NOT NULL, kind TEXT NOT NULL, entity TEXT NOT NULL, valid_from TEXT NOT NULL,
    valid_until TEXT NOT NULL, confidence REAL, asserted TEXT NOT NULL);
CREATE INDEX facts_by_note ON fact_store(note_no);
CREATE INDEX facts_by_attribute ON fact_store(attribute, entity);
CREATE INDEX facts_expiring ON fact_store(valid_until)
    WHERE kind = 'fact-note' AND valid_until != '';
CREATE VIEW facts(rowid, note, attribute, value, line, kind, entity, valid_from, valid_until,
    confidence, asserted) AS SELECT f.rowid, k.key, f.attribute, f.value, f.line, f.kind,
    f.entity, f.valid_from, f.valid_until, f.confidence, f.asserted FROM fact_store AS f
    JOIN keys AS k ON k.no = f.note_no;
CREATE TABLE name_store(key TEXT NOT NULL, folded TEXT NOT NULL, name TEXT NOT NULL,
    note_no INTEGER NOT NULL, alias INTEGER NOT NULL);
CREATE INDEX names_by_key ON name_store(key);
CREATE INDEX names_by_folded ON name_store(folded);
CREATE INDEX names_by_note ON name_store(note_no);
CREATE VIEW names(rowid, key, folded, name, note, alias) AS SELECT n.rowid, n.key, n.folded,
    n.name, k.key, n.alias FROM name_store AS n JOIN keys AS k ON k.no = n.note_no;
CREATE TABLE derived(kind TEXT NOT NULL, shard INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY(kind, shard)) WITHOUT ROWID;
CREATE TABLE results(name TEXT PRIMARY KEY, key TEXT NOT NULL, data BLOB NOT NULL);
""" + fts.SCHEMA + degrees.SCHEMA + changes.SCHEMA


INDEXES = index_statements(TABLES)
KEYS_SWEPT_EVERY = 100  # storing scans between two sweeps of the numbers no row holds
BULK_LOAD_FROM = 2_000  # notes a scan of an empty index stores before its indexes are made


@functools.cache
def code_stamp() -> str:
    """A hash of the code that makes what the index holds, so a changed vaultmem never reuses
    what an older one stored."""
    digest = hashlib.sha256()
    sources = [PACKAGE / "model.py", PACKAGE / "config.py", PACKAGE / "secrets.py",
               PACKAGE / "text.py",
               *(PACKAGE / "read").glob("*.py"), *(PACKAGE / "index").glob("*.py")]
    for source in sorted(sources):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def folder_stamp(folder: str) -> str:
    """A hash of one package folder's code (results computed by it are keyed by it too)."""
    digest = hashlib.sha256()
    for source in sorted((PACKAGE / folder).glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) readable by the owner only (0700)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


class Store:
    """The index database of the vault at ``vault_root`` (``stamp``: what made its contents).

    Opened on first use; safe to share between threads (one connection, one lock).
    """

    def __init__(self, vault_root: Path, fingerprint: str, *, memory: bool = False,
                 view: str = "") -> None:
        self.folder = index_folder(vault_root) / view if view else index_folder(vault_root)
        self.path = self.folder / "index.sqlite3"
        self.memory = memory  # an index held in this process only (nothing on disk)
        self.stamp = (f"{__version__}|{sys.version}|{sqlite3.sqlite_version}|{code_stamp()}|"
                      f"{fingerprint}")
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection, checked against the schema and stamp (rebuilt if they differ
        or the file is damaged)."""
        if self._db is None:
            with self._lock:
                if self._db is None:
                    self._db = self._open()
        return self._db

    def verify(self) -> None:
        """Open the index again (rebuilt) if another vaultmem replaced it since it was opened:
        a long-running process never reads or writes rows of another schema."""
        with self._lock:
            if self._db is not None and not self.memory and not self._current(self._db):
                self.close()

    def _open(self) -> sqlite3.Connection:
        """Open, and start over when the file cannot be used as it is."""
        if self.memory:
            return self._prepared(sqlite3.connect(":memory:", isolation_level=None,
                                                  check_same_thread=False))
        private_dir(self.folder.parent)
        private_dir(self.folder)
        try:
            return self._opened_when_free()
        except sqlite3.DatabaseError:  # not a database, malformed: never repaired
            self._delete_files()
            return self._opened_when_free()

    def _opened_when_free(self) -> sqlite3.Connection:
        """A prepared connection, tried again while other processes hold the file (several
        opening a new index at once: only one can turn on WAL or create the tables, and SQLite
        answers the others "locked" at once, without its busy wait)."""
        deadline = time.monotonic() + BUSY_MS / 1000
        while True:
            try:
                return self._prepared_or_closed(self._connect())
            except sqlite3.DatabaseError as exc:
                if getattr(exc, "sqlite_errorcode", None) not in (SQLITE_BUSY, SQLITE_LOCKED):
                    raise
                if time.monotonic() >= deadline:
                    raise IndexBusy(f"the index {self.path} stayed locked by another vaultmem "
                                    f"for {BUSY_MS // 1000} s; try again once it is done") from exc
                time.sleep(0.01)

    def _prepared_or_closed(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """``db`` prepared, or closed if that failed (an open one would keep its locks)."""
        try:
            return self._prepared(db)
        except BaseException:
            db.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        """A connection with WAL and a busy timeout; the file private to the user."""
        with _CREATING:  # closing a descriptor would drop this process's locks on the file
            with contextlib.suppress(FileExistsError):
                os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
            db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
        return tuned(db, BUSY_MS)

    def _prepared(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """``db`` with this schema and stamp; anything else stored is dropped first."""
        if self._current(db):
            return db
        with transaction(db):
            if not self._current(db):  # another process may have rebuilt it meanwhile
                start_over(db, TABLES, {"stamp": self.stamp, "built": os.urandom(8).hex()},
                           SCHEMA)
        return db

    def _current(self, db: sqlite3.Connection) -> bool:
        """True when ``db`` holds this schema and what this code and these settings made."""
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:
            return False
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        except sqlite3.OperationalError:
            return False
        return row is not None and row[0] == self.stamp

    def _delete_files(self) -> None:
        """Remove the database and its WAL files."""
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Held by one storing scan at a time (of any process; an in-memory index: of this
        one); the kernel releases it when its process dies."""
        with self._lock:
            if self.memory:
                yield
                return
            private_dir(self.folder)
            fd = os.open(self.folder / "scan.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                yield
            finally:
                os.close(fd)

    def close(self) -> None:
        """Close the connection (it is opened again on next use)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def states(self, paths: Iterable[str] | None = None) -> dict[str, Entry]:
        """The stored entries of ``paths`` (every note when None) without their record and
        text blobs (``b""``): what a scan compares with the files."""
        columns = "SELECT path, mtime_ns, size, flags, ctime_ns, inode FROM notes"
        rows = (self.query(columns) if paths is None else
                self.query(f"{columns} WHERE path IN {IN_ARRAY}", (array(paths),)))
        return {r[0]: Entry(r[1], r[2], r[3], b"", b"", (r[4], r[5])) for r in rows}

    def entries(self, paths: Iterable[str] | None = None) -> dict[str, Entry]:
        """Stored entries of ``paths`` (every note when None)."""
        columns = ("SELECT path, mtime_ns, size, flags, record, doc, ctime_ns, inode "
                   "FROM notes JOIN bodies USING (path)")
        if paths is None:
            rows = self.query(columns)
        else:
            rows = self.query(f"{columns} WHERE path IN {IN_ARRAY}", (array(paths),))
        return {r[0]: Entry(r[1], r[2], r[3], *loaded_blobs(r[4], r[5]), (r[6], r[7]))
                for r in rows}

    def linking(self, node: str) -> list[str]:
        """Ids of the source notes with a link that resolves to ``node``, sorted."""
        rows = self.query("SELECT DISTINCT source FROM links WHERE node = ? AND NOT missing "
                           "ORDER BY source", (node,))
        return [row[0] for row in rows]

    def replace(self, updates: Mapping[str, Entry], removed: Iterable[str] = (), *,
                files: Mapping[str, str], resolver: Resolver) -> None:
        """:meth:`sync`, :meth:`store_notes` and :meth:`forget` in one transaction."""
        with self._lock, transaction(self.db) as db:
            _sync(db, files, resolver)
            _store_notes(db, updates)
            _forget(db, removed)

    def sync(self, *, files: Mapping[str, str], resolver: Resolver) -> None:
        """Record the vault's ``files`` (note id or attachment path -> role, as ``resolver``
        was built from) and resolve again the stored links whose files came, went or changed
        role, in one transaction: a scan does it first, so every link row stored after it, and
        every one kept, is resolved against the files it lists."""
        with self._lock, transaction(self.db) as db:
            _sync(db, files, resolver)

    def store_notes(self, updates: Mapping[str, Entry]) -> set[str]:
        """Store parsed notes in one transaction (a scan stores them as they are parsed); the
        paths stored. A note another process stored from a later state of its file (a newer
        change time) is kept: a slow scan never puts back what a faster one replaced."""
        with self._lock, transaction(self.db) as db:
            return _store_notes(db, updates)

    def forget(self, paths: Iterable[str]) -> None:
        """Forget the notes at ``paths`` (gone from the vault), in one transaction."""
        with self._lock, transaction(self.db) as db:
            _forget(db, paths)

    def bulk_load(self) -> None:
        """Drop the secondary indexes for a first scan storing many notes: building an index
        once after its rows are in costs far less than keeping it up to date row by row.
        :meth:`stored` makes them again, and so does the next scan if this one is stopped."""
        with self._lock, transaction(self.db) as db:
            for name in INDEXES:
                db.execute(f"DROP INDEX IF EXISTS {name}")

    def generation(self) -> int:
        """How many storing scans have finished on this index (see :meth:`stored`)."""
        return self._counted("generation")

    def stored(self, *, sources: bool = True) -> None:
        """Count one more finished storing scan (a scan that listed the vault before it must
        list it again before storing) and, if it changed a source note or the vault's files
        (``sources``), one more change of memory; count the degrees its links changed."""
        with self._lock, transaction(self.db) as db:
            for statement in INDEXES.values():  # after a bulk load
                db.execute(statement)
            degrees.refresh(db)
            for key in ("generation", "sources") if sources else ("generation",):
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                           (key, str(self._counted(key) + 1)))
            changes.forget_old(db, self._counted("generation"))
            if self._counted("generation") % KEYS_SWEPT_EVERY == 0:
                update.forget_unused_keys(db)

    def changed_since(self, generation: int) -> changes.Changed | None:
        """The notes stored or forgotten after ``generation`` (see :mod:`.changes`)."""
        with self._lock:
            return changes.changed_since(self.db, generation)

    def version(self) -> str:
        """This index's build (a token made when it was created) and generation: it differs
        after any storing scan and after a rebuild, when passage ids start over."""
        rows = self.query("SELECT value FROM meta WHERE key = 'built'")
        return f"{rows[0][0] if rows else ''}:{self.generation()}"

    def sources_generation(self) -> int:
        """How many storing scans changed a source note or the vault's files (not only
        vaultmem's own generated notes): what results about memory are keyed by."""
        return self._counted("sources")

    def _counted(self, key: str) -> int:
        """A counter kept in the meta table (0 before its first count)."""
        with self._lock:
            return changes.counted(self.db, key)

    def files_key(self) -> str | None:
        """The :func:`files_key` of the files the index was last updated with."""
        rows = self.query("SELECT value FROM meta WHERE key = 'files'")
        return rows[0][0] if rows else None

    def load_derived(self, kind: str) -> dict[int, Any]:
        """Stored shards of a derived index (``search`` or ``facts``) by number."""
        rows = self.query("SELECT shard, data FROM derived WHERE kind = ?", (kind,))
        found = {shard: _loads(data) for shard, data in rows}
        return {shard: data for shard, data in found.items() if data is not None}

    def save_derived(self, kind: str, shard: int, data: Any) -> None:
        """Store one shard of a derived index."""
        with self._lock, transaction(self.db) as db:
            db.execute("INSERT OR REPLACE INTO derived VALUES (?, ?, ?)",
                       (kind, shard, marshal.dumps(data)))

    def load_result(self, name: str, key: str) -> Any:
        """A stored result computed from the vault state ``key``, or None."""
        rows = self.query("SELECT data FROM results WHERE name = ? AND key = ?", (name, key))
        return _loads(rows[0][0]) if rows else None

    def save_result(self, name: str, key: str, data: Any) -> None:
        """Store a result computed from the vault state ``key``."""
        with self._lock, transaction(self.db) as db:
            db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?)",
                       (name, key, marshal.dumps(data)))

    @contextlib.contextmanager
    def held(self) -> Iterator[sqlite3.Connection]:
        """The connection, this thread's alone for several statements (temp tables, reads)."""
        with self._lock:
            yield self.db

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """All rows of a read."""
        with self._lock:
            return self.db.execute(sql, args).fetchall()


def files_key(files: Mapping[str, str]) -> str:
    """A digest of a vault's files and their roles: equal digests, nothing to re-resolve."""
    digest = hashlib.sha256()
    for key in sorted(files):
        digest.update(f"{key}\0{files[key]}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _store_notes(db: sqlite3.Connection, updates: Mapping[str, Entry]) -> set[str]:
    """Store the notes no other process stored from a later state; their paths."""
    stored = dict(db.execute(f"SELECT path, ctime_ns FROM notes WHERE path IN {IN_ARRAY}",
                             (array(updates),)))
    fresh = {path: entry for path, entry in updates.items()
             if stored.get(path, -1) <= entry.identity[0]}  # else read from a later change
    ids = [path[:-3] for path in fresh]
    before = changes.before_storing(db, [i for i in ids if f"{i}.md" in stored])
    update.forget(db, [path for path in fresh if path in stored])  # others have no rows
    update.insert(db, fresh)
    changes.record(db, before, ids)
    return set(fresh)


def _forget(db: sqlite3.Connection, paths: Iterable[str]) -> None:
    """Forget the notes at ``paths``, recording the change."""
    paths = list(paths)
    ids = [path[:-3] for path in paths]
    before = changes.before_storing(db, ids)
    update.forget(db, paths)
    changes.record(db, before, ids)


def _sync(db: sqlite3.Connection, files: Mapping[str, str], resolver: Resolver) -> None:
    """Record ``files`` and resolve again the links their changes concern."""
    names = update.sync_files(db, files)
    changes.record_files(db, names)
    update.resolve_again(db, names, resolver)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('files', ?)", (files_key(files),))


def _loads(data: bytes) -> Any:
    """A stored value, or None when it cannot be read back."""
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
