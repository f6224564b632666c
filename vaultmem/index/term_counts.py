"""How many of the vault's passages hold each of a question's FTS5 terms, which passages hold
which, and which terms a few texts hold when read as the index reads a passage (the counts
:mod:`vaultmem.recall.question_weights` weighs)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable

from . import fts
from .store import Store

MEMO_MOST = 100_000  # counts a memo keeps before it starts again
TOTAL = ""  # in a memo of counts: the vault's passages (no term is empty)


def passages_holding(store: Store, terms: Iterable[str],
                     known: dict[str, int] | None = None) -> tuple[int, dict[str, int]]:
    """How many passages the vault has, and how many hold each FTS5 term of ``terms`` (through
    and into ``known``, the counts a reader keeps for one state of the index: counting walks a
    term's whole posting list)."""
    known = {} if known is None else known
    if len(known) > MEMO_MOST:
        known.clear()
    with store.held() as db:
        if TOTAL not in known:
            known[TOTAL] = db.execute("SELECT count(*) FROM passage_store").fetchone()[0]
        for term in terms:
            if term not in known:
                known[term] = db.execute("SELECT count(*) FROM passages_fts WHERE passages_fts "
                                         "MATCH ?", (term,)).fetchone()[0]
    return known[TOTAL], {term: known[term] for term in terms}


def terms_held(store: Store, terms: Iterable[str],
               passages: Iterable[tuple[str, int]]) -> dict[tuple[str, int], set[str]]:
    """The ``terms`` each passage (note id, number) holds, for those holding any."""
    pairs = json.dumps(sorted({(f"{note}.md", number) for note, number in passages}),
                       ensure_ascii=False)
    with store.held() as db:
        ids = {rowid: (path[:-3], number) for rowid, path, number in db.execute(
            "SELECT id, path, number FROM passages WHERE (path, number) IN (SELECT "
            "json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))",
            (pairs,))}
        found: dict[tuple[str, int], set[str]] = {}
        for term in terms:  # every passage holding it: FTS5 seeks a rowid given far slower
            for (rowid,) in db.execute("SELECT rowid FROM passages_fts WHERE passages_fts "
                                       "MATCH ?", (term,)):
                if rowid in ids:
                    found.setdefault(ids[rowid], set()).add(term)
    return found


def terms_in_each(texts: list[str], terms: list[set[str]]) -> list[set[str]]:
    """For each of ``texts``, which of its FTS5 ``terms`` (the set at the same place) it
    holds, read as the index reads a passage.

    >>> found = terms_in_each(["loc: Kyoto, Japan; rating: 7", "a trip"],
    ...                       [{'"japan"', '"rated"', '"trip"'}, {'"japan"', '"trips"'}])
    >>> [sorted(held) for held in found]
    [['"japan"', '"rated"'], ['"trips"']]
    """
    if not texts:
        return []
    with contextlib.closing(sqlite3.connect(":memory:")) as db:  # one table for all texts
        db.execute(f"CREATE VIRTUAL TABLE one USING fts5(body, tokenize='{fts.TOKENIZER}')")
        db.executemany("INSERT INTO one(rowid, body) VALUES (?, ?)",
                       [(row, fts.search_form(text)) for row, text in enumerate(texts)])
        found: list[set[str]] = [set() for _ in texts]
        for term in sorted(set().union(*terms)):
            for (row,) in db.execute("SELECT rowid FROM one WHERE one MATCH ?", (term,)):
                if term in terms[row]:
                    found[row].add(term)
        return found
