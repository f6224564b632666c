"""SQLite helpers of the index files: many values as one parameter (a JSON array), a cache
file's connection settings, transactions, and starting a file over."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator

from ..errors import CallTooLong

# ``column IN {IN_ARRAY}`` with one bound parameter: :func:`array` (no limit on the count, one
# statement text for any count, so SQLite prepares it once)
IN_ARRAY = "(SELECT value FROM json_each(?))"
# Each note id, node name or note path the index repeats in many rows is stored once here, and
# those rows hold its number; views read them back as text.
KEYS = "CREATE TABLE IF NOT EXISTS keys(no INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);"


def array(values: Iterable[str]) -> str:
    """``values`` as the JSON array :data:`IN_ARRAY` binds."""
    return json.dumps(sorted(values), ensure_ascii=False)


def index_statements(schema: str) -> dict[str, str]:
    """The secondary indexes ``schema`` creates: name -> a statement creating it unless it
    exists."""
    return {found[1]: f"CREATE INDEX IF NOT EXISTS {found[1]} {found[2]}"
            for found in re.finditer(r"CREATE INDEX (?:IF NOT EXISTS )?(\w+) (ON [^;]+)", schema)}


def tuned(db: sqlite3.Connection, busy_ms: int, *pragmas: str) -> sqlite3.Connection:
    """``db`` with a busy timeout, WAL and ``pragmas`` (closed if that fails)."""
    try:
        db.execute(f"PRAGMA busy_timeout = {busy_ms}")
        for pragma in pragmas:  # before WAL: a page size is set only before the first table
            db.execute(f"PRAGMA {pragma}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # a cache: losing the last commit is fine
    except BaseException:
        db.close()
        raise
    return db


def start_over(db: sqlite3.Connection, tables: str, meta: dict[str, str], schema: int) -> None:
    """Drop every view and table of ``db`` (virtual tables first: they own others), create
    ``tables`` with ``meta`` in their meta table and number the schema (in the caller's
    transaction)."""
    for (view,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'view'").fetchall():
        db.execute(f'DROP VIEW IF EXISTS "{view}"')
    dropped = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = "
                                            "'table' ORDER BY sql NOT LIKE 'CREATE VIRTUAL%'")]
    for table in dropped:
        db.execute(f'DROP TABLE IF EXISTS "{table}"')
    for statement in tables.split(";"):
        if statement.strip():
            db.execute(statement)
    db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    db.execute(f"PRAGMA user_version = {schema}")


@contextlib.contextmanager
def transaction(db: sqlite3.Connection, *, write: bool = True) -> Iterator[sqlite3.Connection]:
    """``db`` within one transaction: all of it is stored, or none (a write one takes the write
    lock at once; a read one sees one state throughout)."""
    db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


PROGRESS_EVERY = 20_000  # SQLite virtual machine steps between two looks at the clock


@contextlib.contextmanager
def within(db: sqlite3.Connection, seconds: float | None) -> Iterator[None]:
    """Statements run on ``db`` inside end once ``seconds`` have passed (None: no limit),
    with CallTooLong; what they read is never half used, since the statement fails whole.

    >>> db = sqlite3.connect(":memory:")
    >>> endless = ("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
    ...            "SELECT max(x) FROM n")
    >>> with within(db, 0.05):
    ...     db.execute(endless).fetchone()
    Traceback (most recent call last):
    vaultmem.errors.CallTooLong: the call ran past this server's 0.05 s a call and was ...
    """
    if seconds is None:
        yield
        return
    deadline = time.monotonic() + seconds
    db.set_progress_handler(lambda: time.monotonic() > deadline, PROGRESS_EVERY)
    try:
        yield
    except sqlite3.OperationalError as exc:
        if str(exc) != "interrupted":
            raise
        raise too_long(seconds) from exc
    finally:
        db.set_progress_handler(None, 0)


def too_long(seconds: float) -> CallTooLong:
    """The error of a call stopped after ``seconds``."""
    return CallTooLong(f"the call ran past this server's {seconds:g} s a call and was "
                       "stopped; ask for less (a shorter query, a smaller budget, limit or "
                       "depth)")
