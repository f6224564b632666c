"""Every index the index database creates is one some command's query plan uses: an index no
query reads only costs space and write time."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultmem.cli import cli
from vaultmem.index import store as store_module
from vaultmem.index.lookup import digests_of, names_like, passages_of_texts
from vaultmem.vault import Vault

# A tour of what users and agents run, writes included (a write's scan deletes and re-stores
# a note's rows, a move re-resolves links).
COMMANDS = [
    ["scan"], ["lint"], ["conflicts"], ["stale"], ["graph"], ["kpi"], ["export"],
    ["search", "Tesseract"], ["search", "Lucy"],
    ["context", "--query", "what did we decide about OCR?"],
    ["context", "--agent", "Rafael", "--note", "People/Lucy Tan", "--query", "her work", "--write"],
    ["related", "People/Lucy Tan"], ["show", "Projects/Invoice Inbox"],
    ["mentions", "People/Lucy Tan"], ["graph", "--around", "People/Priya Nair"],
    ["links", "--check", "Met [[Lucy Tan]] and [[Lucy]] about [[Invoice Inbox#Goal]]"],
    ["daily", "Paired with [[Lucy Tan]] on the OCR fallback"],
    ["fact", "People/Lucy Tan", "role", "Lead engineer"],
    ["forget", "Decisions/Charge per document"], ["restore", "Decisions/Charge per document"],
    ["scan"], ["related", "Decisions/Use Tesseract for OCR"], ["sync"], ["reflect"],
]
USED = re.compile(r"USING (?:COVERING )?INDEX (\w+)")


def _traced(statements: set[str]) -> Callable[[store_module.Store], sqlite3.Connection]:
    """Store._connect, every statement its connections run added to ``statements``."""
    connect = store_module.Store._connect

    def traced(self: store_module.Store) -> sqlite3.Connection:
        db = connect(self)
        db.set_trace_callback(statements.add)
        return db

    return traced


def _indexes_used(index_file: Path, statements: set[str]) -> set[str]:
    """The indexes the query plans of ``statements`` read (those that can be planned again
    outside the connection that ran them)."""
    used: set[str] = set()
    with sqlite3.connect(index_file) as db:
        for statement in statements:
            if not statement.lstrip().upper().startswith(("SELECT", "WITH", "DELETE", "UPDATE",
                                                          "INSERT")):
                continue
            try:
                plan = db.execute(f"EXPLAIN QUERY PLAN {statement}").fetchall()
            except sqlite3.Error:  # a temporary table of the connection that ran it
                continue
            used.update(name for row in plan for name in USED.findall(row[3]))
    return used


def _paths_beyond_the_tour(vault: Vault) -> None:
    """Reads the tour of a small vault without vectors does not make: name candidates of a
    large vault, a watcher's changes since a generation, passages found by meaning."""
    store = vault.index.store
    assert names_like(store, "Lucy", every_below=1)
    assert store.changed_since(store.generation() - 1) is not None
    digests = digests_of(store, "People/Lucy Tan")
    assert passages_of_texts(store, digests[:1])


def test_every_index_is_read_by_a_query_plan(sample: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    statements: set[str] = set()
    monkeypatch.setattr(store_module.Store, "_connect", _traced(statements))
    for command in COMMANDS:
        result = CliRunner().invoke(cli, ["--vault", str(sample), *command])
        assert result.exit_code in (0, 1), (command, result.output)
    _paths_beyond_the_tour(Vault(sample))
    index_file = store_module.Store(sample, "").path
    with sqlite3.connect(index_file) as db:
        created = {name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    assert created, "the tour made no index"
    assert created - _indexes_used(index_file, statements) == set()
