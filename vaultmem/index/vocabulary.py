"""The full-text index's vocabulary: a text's terms as the index stems them, and how many
passages hold each (SQLite's ``fts5vocab``), for queries made of a note's most telling words."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable

from . import fts
from .store import Store

LOOKUPS = 40
MEMO_MOST = 200_000  # passage counts a memo keeps before it starts again
# The passages' index read as (term, passages holding it); made once per connection, in temp.
VOCABULARY = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_terms USING " \
    "fts5vocab(main, passages_fts, 'row')"
# A scratch index with the passages' tokenizer: what it holds is what the index would hold.
SCRATCH = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.scratch USING fts5(body, content='', " \
    "tokenize='porter unicode61 remove_diacritics 2')"
SCRATCH_TERMS = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.scratch_terms USING " \
    "fts5vocab(temp, scratch, 'instance')"


def telling_terms(store: Store, text: str, *, count: int, most_share: float,
                  known: dict[str, int] | None = None, passages: int | None = None) -> list[str]:
    """The ``count`` index terms of ``text`` with the highest tf x idf over the vault's
    passages (best first, ties by term), leaving out those held by more than ``most_share`` of
    the passages, common English words and those of one character; only the ``LOOKUPS`` most
    frequent in ``text`` are weighed (counting the passages of a term walks its whole posting
    list: the commonest words are never asked, and the counts in ``known``, kept by a
    long-running reader of one state of the index, are not counted again; nor ``passages``,
    the vault's passage count, when given)."""
    with store.held() as db:
        counts = _terms_of(db, text)
        asked = sorted((t for t in counts if t not in fts.STOPWORDS and len(t) > 1),
                       key=lambda term: (-counts[term], term))[:LOOKUPS]
        held = _passages_holding(db, asked, {} if known is None else known)
        total = (passage_count(store) if passages is None else passages) or 1
    weighted = sorted(((counts[term] * math.log(1 + (total - df + 0.5) / (df + 0.5)), term)
                       for term, df in held.items() if df <= most_share * total),
                      key=lambda pair: (-pair[0], pair[1]))
    return [term for _, term in weighted[:count]]


def passage_count(store: Store) -> int:
    """How many passages the vault has."""
    return int(store.query("SELECT COUNT(*) FROM passages")[0][0])


def _terms_of(db: sqlite3.Connection, text: str) -> dict[str, int]:
    """How often each index term occurs in ``text`` (CJK runs as the index writes them)."""
    db.execute(SCRATCH)
    db.execute(SCRATCH_TERMS)
    db.execute("INSERT INTO temp.scratch(scratch) VALUES ('delete-all')")
    db.execute("INSERT INTO temp.scratch(rowid, body) VALUES (1, ?)", (fts.search_form(text),))
    return dict(db.execute("SELECT term, COUNT(*) FROM temp.scratch_terms GROUP BY term"))


def _passages_holding(db: sqlite3.Connection, terms: Iterable[str],
                      known: dict[str, int]) -> dict[str, int]:
    """How many passages hold each of ``terms`` (those the vault has: 0 is left out), one term
    at a time (fts5vocab looks up ``term = ?``, but reads its whole vocabulary for ``IN``),
    through and into ``known``."""
    db.execute(VOCABULARY)
    if len(known) > MEMO_MOST:
        known.clear()
    for term in terms:
        if term not in known:
            row = db.execute("SELECT doc FROM temp.passage_terms WHERE term = ?",
                             (term,)).fetchone()
            known[term] = row[0] if row else 0
    return {term: known[term] for term in terms if known[term]}
