"""Each node's degree in the whole link graph (how many distinct nodes it is linked with, either
way, same-note links left out), kept in the index so a part of the graph reads it per node.

A write that adds, removes or re-resolves links marks the nodes at both ends stale, in its own
transaction; the end of a storing scan counts the stale ones again (:func:`refresh`). A reader
counts a stale node itself (:func:`vaultmem.index.graph_rows.degrees`), so a scan that died
between the two never gives a wrong degree.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from .sql import IN_ARRAY, array

SCHEMA = """
CREATE TABLE degrees(node TEXT PRIMARY KEY, degree INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE stale_degrees(node TEXT PRIMARY KEY) WITHOUT ROWID;
"""
COUNTED = (  # node -> distinct neighbours, for the nodes in the array bound twice
    "SELECT n, COUNT(DISTINCT m) FROM (SELECT source AS n, node AS m FROM links "
    f"WHERE source IN {IN_ARRAY} AND node != source UNION ALL SELECT node, source "
    f"FROM links WHERE node IN {IN_ARRAY} AND node != source) GROUP BY n")


def mark_stale(db: sqlite3.Connection, nodes: Iterable[str]) -> None:
    """Note that the degrees of ``nodes`` may have changed (inside the writer's transaction)."""
    db.executemany("INSERT OR IGNORE INTO stale_degrees VALUES (?)", ((n,) for n in set(nodes)))


def refresh(db: sqlite3.Connection) -> None:
    """Count the stale nodes' degrees again (inside the writer's transaction)."""
    stale = array(row[0] for row in db.execute("SELECT node FROM stale_degrees"))
    db.execute(f"DELETE FROM degrees WHERE node IN {IN_ARRAY}", (stale,))
    db.execute(f"INSERT INTO degrees {COUNTED}", (stale, stale))
    db.execute("DELETE FROM stale_degrees")
