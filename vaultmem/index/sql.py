"""SQLite helpers of the index files: many values as one parameter (a JSON array), a cache
file's connection settings, transactions, and starting a file over."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator

# ``column IN {IN_ARRAY}`` with one bound parameter: :func:`array` (no limit on the count, one
# statement text for any count, so SQLite prepares it once)
IN_ARRAY = "(SELECT value FROM json_each(?))"


def array(values: Iterable[str]) -> str:
    """``values`` as the JSON array :data:`IN_ARRAY` binds."""
    return json.dumps(sorted(values), ensure_ascii=False)


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
    """Drop every table of ``db`` (virtual ones first: they own others), create ``tables``
    with ``meta`` in their meta table and number the schema (in the caller's transaction)."""
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
