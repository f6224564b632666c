"""Passage vectors: a SQLite file beside the index, by passage text digest, as int8.

Kept apart from the index, which is rebuilt whenever vaultmem or a parsing setting changes: a
rebuilt index finds its passages' vectors by digest, and nothing is embedded again. Each vector
is stored as int8 with its scale (its largest component / 127): a quarter of float32's size,
cosines within 0.01 of the float ones. ``packed`` holds the vectors of the index's current
passages in ``BUCKETS`` rows by their digests' first byte, read at once by a query (a page size
of 64 KiB and a memory map make that a few milliseconds at 70,000 passages); an edit packs again
only the buckets of the texts it added or removed. Another schema, another model or
a damaged file is started over, never trusted.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .sql import start_over, transaction, tuned

if TYPE_CHECKING:
    import numpy as np

SCHEMA = 3
FILE = "vectors.sqlite3"
BUCKETS = 256  # packed rows by their digest's first byte: an edit repacks a bucket or two
ROWS_AT_ONCE = 1024  # rows made float at a time: 1.5 MB, in the CPU's cache (8,192: 4x slower)
BUSY_MS = 30_000
TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE vectors(digest BLOB PRIMARY KEY, vector BLOB NOT NULL, scale REAL NOT NULL);
-- (a rowid table: its digest index lists the stored texts without reading their vectors)
CREATE TABLE packed(bucket INTEGER PRIMARY KEY, digests BLOB NOT NULL, vectors BLOB NOT NULL,
    scales BLOB NOT NULL);
CREATE TABLE dirty(bucket INTEGER PRIMARY KEY);  -- buckets with vectors added since packed
"""
DIGEST = 16  # bytes, as fts.text_digest makes them


class Matrix(NamedTuple):
    """The vectors of the current passages: row ``i`` is of the text digested ``digests[i]``."""

    digests: list[bytes]
    vectors: np.ndarray  # int8, (rows, width)
    scales: np.ndarray  # float32, (rows,)


class VectorStore:
    """The vector file in ``folder`` for the model ``identity`` of width ``dim``."""

    def __init__(self, folder: Path, identity: str, dim: int) -> None:
        self.path = folder / FILE
        self.identity = identity
        self.dim = dim
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection, started over if it holds another schema or model, or if the
        file is damaged."""
        if self._db is None:
            try:
                self._db = self._prepared(self._connect())
            except sqlite3.DatabaseError:
                self.delete_files()
                self._db = self._prepared(self._connect())
        return self._db

    def close(self) -> None:
        """Close the connection (the next use opens it again)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def value(self, key: str) -> str | None:
        """A value of the meta table (``packed``: the index version the matrix is of)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def digests(self) -> set[bytes]:
        """The digests of every text with a stored vector."""
        return {row[0] for row in self.db.execute("SELECT digest FROM vectors")}

    def add(self, digests: list[bytes], vectors: np.ndarray) -> None:
        """Store the float vectors of the texts ``digests`` (one transaction)."""
        rows, scales = quantize(vectors)
        with transaction(self.db) as db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                           [(digest, rows[at].tobytes(), float(scales[at]))
                            for at, digest in enumerate(digests)])
            db.executemany("INSERT OR IGNORE INTO dirty VALUES (?)",
                           [(bucket,) for bucket in {digest[0] for digest in digests}])

    def pack(self, gone: Iterable[bytes], version: str, *, waiting: int) -> int:
        """Forget the vectors of the texts ``gone``, pack again the buckets that changed and
        record ``version`` as what they are of, with the ``waiting`` texts still without a
        vector (one transaction); how many rows are packed."""
        gone = list(gone)
        with transaction(self.db) as db:
            db.executemany("DELETE FROM vectors WHERE digest = ?", ((d,) for d in gone))
            buckets = {d[0] for d in gone} | {row[0] for row in
                                              db.execute("SELECT bucket FROM dirty")}
            for bucket in sorted(buckets):
                _pack_bucket(db, bucket)
            db.execute("DELETE FROM dirty")
            (count,) = db.execute("SELECT COUNT(*) FROM vectors").fetchone()
            db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                ("packed", version), ("rows", str(count)), ("waiting", str(waiting))])
        return int(count)

    def matrix(self) -> Matrix:
        """The packed vectors, read in one transaction."""
        import numpy as np

        with transaction(self.db, write=False) as db:
            (count,) = db.execute("SELECT COALESCE(SUM(LENGTH(digests)), 0) FROM packed"
                                  ).fetchone()
            matrix = Matrix([], np.empty((count // DIGEST, self.dim), dtype=np.int8),
                            np.empty(count // DIGEST, dtype=np.float32))
            for blob, vectors, scales in db.execute(  # a bucket at a time: no second copy
                    "SELECT digests, vectors, scales FROM packed ORDER BY bucket"):
                at = len(matrix.digests)
                matrix.digests.extend(blob[i : i + DIGEST] for i in range(0, len(blob), DIGEST))
                rows = np.frombuffer(vectors, dtype=np.int8).reshape(-1, self.dim)
                matrix.vectors[at : at + len(rows)] = rows
                matrix.scales[at : at + len(rows)] = np.frombuffer(scales, dtype=np.float32)
        return matrix

    def _connect(self) -> sqlite3.Connection:
        """A connection to the file (created private), in WAL with a busy timeout."""
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None,
                             check_same_thread=False)
        self.path.chmod(0o600)
        return tuned(db, BUSY_MS, "page_size = 65536", "mmap_size = 1073741824")

    def _prepared(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """``db`` with this schema and model; anything else stored is dropped first."""
        if self._current(db):
            return db
        with transaction(db):
            if not self._current(db):  # another process may have started it over meanwhile
                start_over(db, TABLES, {"model": self.identity, "dim": str(self.dim)}, SCHEMA)
        return db

    def _current(self, db: sqlite3.Connection) -> bool:
        """True when ``db`` holds this schema and this model's vectors."""
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:
            return False
        stored = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('model', 'dim')"))
        return stored == {"model": self.identity, "dim": str(self.dim)}

    def delete_files(self) -> None:
        """Remove the file and its WAL files (closing the connection first)."""
        self.close()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}{suffix}").unlink()


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Float vectors as int8 rows and their scales (row * scale is about the vector)."""
    import numpy as np

    scales = np.abs(vectors).max(axis=1).astype(np.float32) / 127
    scales[scales == 0] = 1.0
    rows = np.rint(vectors / scales[:, None]).clip(-127, 127).astype(np.int8)
    return rows, scales


def nearest(matrix: Matrix, query: np.ndarray, *, limit: int) -> list[tuple[bytes, float]]:
    """The ``limit`` rows most like ``query`` (a unit vector): (digest, cosine), best first."""
    import numpy as np

    if not matrix.digests or limit <= 0:
        return []
    query = query.astype(np.float32)
    cosines = np.empty(len(matrix.digests), dtype=np.float32)
    for start in range(0, len(cosines), ROWS_AT_ONCE):
        end = start + ROWS_AT_ONCE
        cosines[start:end] = matrix.vectors[start:end].astype(np.float32) @ query
    cosines *= matrix.scales
    count = min(limit, len(cosines))
    best = np.argpartition(-cosines, count - 1)[:count]
    ranked = sorted(best.tolist(), key=lambda row: (-cosines[row], matrix.digests[row]))
    return [(matrix.digests[row], float(cosines[row])) for row in ranked]


def _pack_bucket(db: sqlite3.Connection, bucket: int) -> None:
    """Write the packed row of the vectors whose digests start with the byte ``bucket``."""
    rows = db.execute("SELECT digest, vector, scale FROM vectors WHERE digest >= ? AND "
                      "digest < ? ORDER BY digest", (bytes([bucket]), _after(bucket))).fetchall()
    db.execute("DELETE FROM packed WHERE bucket = ?", (bucket,))
    if rows:
        db.execute("INSERT INTO packed VALUES (?, ?, ?, ?)", (
            bucket, b"".join(r[0] for r in rows), b"".join(r[1] for r in rows),
            _floats([r[2] for r in rows])))


def _after(bucket: int) -> bytes:
    """A blob above every digest starting with the byte ``bucket``."""
    return bytes([bucket + 1]) if bucket < 255 else b"\xff" * (DIGEST + 1)


def _floats(values: list[float]) -> bytes:
    """``values`` as float32 bytes."""
    import numpy as np

    return np.asarray(values, dtype=np.float32).tobytes()

