"""The full-text index's vocabulary: a text's terms as the index stems them, and how many
passages hold each (SQLite's ``fts5vocab``), for queries made of a note's most telling words."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable

from . import fts
from .store import Store

LOOKUPS = 40
BOILERPLATE = 3  # notes holding one passage's text: a template's, not any one note's
PHRASE_WORDS = 12  # of a passage, searched as a phrase to find the passages of the same text
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


def particular_terms(store: Store, note_id: str, *, most_share: float, at_least: int,
                     known: dict[str, int] | None = None) -> set[str]:
    """The index terms of a note's own text: its passages' lines but those ``BOILERPLATE``
    or more notes hold (what a template stamps on the notes made from it; a note copied once
    keeps its text), then only the terms held by at most ``most_share`` of the vault's
    passages or ``at_least`` passages, whichever is more (common English words and
    one-character terms aside; ``known``: passage counts kept between calls)."""
    texts = [row[0] for row in store.query(
        "SELECT p.text FROM passages AS p JOIN notes AS n ON n.path = p.path WHERE n.id = ? "
        "ORDER BY p.number", (note_id,))]
    lines = (line.strip() for text in texts for line in text.split("\n"))
    with store.held() as db:
        own = [line for line in dict.fromkeys(lines) if not _stamped(db, line)]
        counts = _terms_of(db, "\n".join(own))
        asked = [t for t in counts if t not in fts.STOPWORDS and len(t) > 1]
        held = _passages_holding(db, asked, {} if known is None else known)
    most = max(at_least, most_share * passage_count(store))
    return {term for term, passages in held.items() if passages <= most}


def _stamped(db: sqlite3.Connection, text: str) -> bool:
    """True when ``BOILERPLATE`` or more notes hold a passage with ``text`` in it (found by
    the phrase of its first words, then compared whole)."""
    words = fts.search_form(text).split()[:PHRASE_WORDS]
    if not words:
        return False
    phrase = '"' + " ".join(words).replace('"', '""') + '"'
    holding: int = db.execute(
        "SELECT COUNT(*) FROM (SELECT DISTINCT p.path FROM passages_fts AS f JOIN passages AS p "
        "ON p.id = f.rowid WHERE passages_fts MATCH ? AND instr(p.text, ?) LIMIT ?)",
        (f"body : {phrase}", text, BOILERPLATE)).fetchone()[0]
    return holding >= BOILERPLATE


def index_terms(store: Store, text: str) -> set[str]:
    """The terms the index makes of ``text``."""
    with store.held() as db:
        return set(_terms_of(db, text))


def passage_count(store: Store) -> int:
    """How many passages the vault has."""
    return int(store.query("SELECT COUNT(*) FROM passage_store")[0][0])


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
