"""The index database: parsed notes, their links by target name, and results derived from them.

One SQLite file per vault in the cache folder (never in the vault). WAL lets readers go on while
one process writes; each update is one transaction, so a killed writer leaves the previous
state. It is a cache: another schema, another vaultmem or a damaged file is rebuilt, never
trusted, and deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import sqlite3
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import __version__
from ..read.record import Entry, link_targets
from ..read.resolve import link_name

SCHEMA = 1
BUSY_MS = 30_000
BATCH = 500  # paths asked for in one query (SQLite allows 32,766 parameters)
PACKAGE = Path(__file__).resolve().parents[1]
TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE notes(path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    flags INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL,
    record BLOB NOT NULL, search BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE links(source TEXT NOT NULL, name TEXT NOT NULL);
CREATE INDEX links_by_name ON links(name);
CREATE INDEX links_by_source ON links(source);
CREATE TABLE derived(kind TEXT NOT NULL, shard INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY(kind, shard)) WITHOUT ROWID;
CREATE TABLE results(name TEXT PRIMARY KEY, key TEXT NOT NULL, data BLOB NOT NULL);
"""


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


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/vaultmem`` (default ``~/.cache/vaultmem``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "vaultmem"


def private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) readable by the owner only (0700)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


class Store:
    """The index database of the vault at ``vault_root`` (``stamp``: what made its contents).

    Opened on first use; safe to share between threads (one connection, one lock).
    """

    def __init__(self, vault_root: Path, fingerprint: str) -> None:
        key = hashlib.sha256(str(vault_root.resolve()).encode()).hexdigest()[:20]
        self.folder = cache_root() / key
        self.path = self.folder / "index.sqlite3"
        self.stamp = f"{__version__}|{sys.version}|{code_stamp()}|{fingerprint}"
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

    def _open(self) -> sqlite3.Connection:
        """Open, and start over when the file cannot be used as it is."""
        private_dir(self.folder.parent)
        private_dir(self.folder)
        try:
            return self._prepared(self._connect())
        except sqlite3.DatabaseError:  # not a database, malformed: a cache is never repaired
            self._delete_files()
            return self._prepared(self._connect())

    def _connect(self) -> sqlite3.Connection:
        """A connection with WAL and a busy timeout; the file private to the user."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None,
                             check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # a cache: losing the last commit is fine
        return db

    def _prepared(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """``db`` with this schema and stamp; anything else stored is dropped first."""
        if self._current(db):
            return db
        with _writing(db):
            if not self._current(db):  # another process may have rebuilt it meanwhile
                tables = [r[0] for r in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")]
                for table in tables:
                    db.execute(f'DROP TABLE IF EXISTS "{table}"')
                for statement in TABLES.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO meta VALUES ('stamp', ?)", (self.stamp,))
                db.execute(f"PRAGMA user_version = {SCHEMA}")
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

    def close(self) -> None:
        """Close the connection (it is opened again on next use)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def states(self) -> dict[str, Entry]:
        """Every stored note's entry without its record and search blobs (``b""``): what a
        scan compares with the files."""
        rows = self._query("SELECT path, mtime_ns, size, flags, ctime_ns, inode FROM notes")
        return {r[0]: Entry(r[1], r[2], r[3], b"", b"", (r[4], r[5])) for r in rows}

    def entries(self, paths: Iterable[str] | None = None) -> dict[str, Entry]:
        """Stored entries of ``paths`` (every note when None)."""
        columns = "path, mtime_ns, size, flags, record, search, ctime_ns, inode"
        if paths is None:
            rows = self._query(f"SELECT {columns} FROM notes")
        else:
            wanted = list(paths)
            rows = [row for i in range(0, len(wanted), BATCH) for row in self._query(
                f"SELECT {columns} FROM notes WHERE path IN "
                f"({', '.join('?' * len(wanted[i : i + BATCH]))})", tuple(wanted[i : i + BATCH]))]
        return {r[0]: Entry(r[1], r[2], r[3], r[4], r[5], (r[6], r[7])) for r in rows}

    def linking(self, name: str) -> list[str]:
        """Paths of the notes holding a link whose target has the file name ``name``."""
        rows = self._query("SELECT DISTINCT source FROM links WHERE name = ? ORDER BY source",
                           (link_name(name),))
        return [row[0] for row in rows]

    def replace(self, updates: Mapping[str, Entry], removed: Iterable[str] = ()) -> None:
        """Store ``updates`` and forget ``removed`` paths, in one transaction.

        A note another process stored from a later state of its file (a newer change time)
        is kept: a slow scan never puts back what a faster one replaced.
        """
        with self._lock, _writing(self.db) as db:
            newer = {path for path, entry in updates.items() if _stored_later(db, path, entry)}
            fresh = {path: entry for path, entry in updates.items() if path not in newer}
            for path in [*removed, *fresh]:
                db.execute("DELETE FROM notes WHERE path = ?", (path,))
                db.execute("DELETE FROM links WHERE source = ?", (path,))
            db.executemany("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
                (path, e.mtime_ns, e.size, e.flags, *e.identity, e.record, e.search)
                for path, e in fresh.items()])
            db.executemany("INSERT INTO links VALUES (?, ?)", [
                (path, name) for path, entry in fresh.items()
                for name in {link_name(t) for t in link_targets(entry)}])

    def load_derived(self, kind: str) -> dict[int, Any]:
        """Stored shards of a derived index (``search`` or ``facts``) by number."""
        rows = self._query("SELECT shard, data FROM derived WHERE kind = ?", (kind,))
        found = {shard: _loads(data) for shard, data in rows}
        return {shard: data for shard, data in found.items() if data is not None}

    def save_derived(self, kind: str, shard: int, data: Any) -> None:
        """Store one shard of a derived index."""
        with self._lock, _writing(self.db) as db:
            db.execute("INSERT OR REPLACE INTO derived VALUES (?, ?, ?)",
                       (kind, shard, marshal.dumps(data)))

    def load_result(self, name: str, key: str) -> Any:
        """A stored result computed from the vault state ``key``, or None."""
        rows = self._query("SELECT data FROM results WHERE name = ? AND key = ?", (name, key))
        return _loads(rows[0][0]) if rows else None

    def save_result(self, name: str, key: str, data: Any) -> None:
        """Store a result computed from the vault state ``key``."""
        with self._lock, _writing(self.db) as db:
            db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?)",
                       (name, key, marshal.dumps(data)))

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """All rows of a read."""
        with self._lock:
            return self.db.execute(sql, args).fetchall()


@contextlib.contextmanager
def _writing(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: all of it is stored, or none."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _stored_later(db: sqlite3.Connection, path: str, entry: Entry) -> bool:
    """True when the stored row of ``path`` was read from a later change of the file."""
    row = db.execute("SELECT ctime_ns FROM notes WHERE path = ?", (path,)).fetchone()
    return row is not None and row[0] > entry.identity[0]


def _loads(data: bytes) -> Any:
    """A stored value, or None when it cannot be read back."""
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
