"""Passages holding a text's words in order (an FTS5 phrase query): what finds the notes that
write a note's name."""

from __future__ import annotations

import sqlite3
import unicodedata

from .fts import PassageHit, _bigrams, _cjk, _quote, _words, heading_path


def phrase_expression(text: str) -> str | None:
    """The FTS5 MATCH text for passages holding ``text``'s words in order in their body (CJK
    runs as their bigrams, a single CJK character not at all), None when it has none.

    >>> phrase_expression("Lucy's 线性映射"), phrase_expression("!!")
    ('body : "Lucy s 线性 性映 映射"', None)
    """
    text = unicodedata.normalize("NFKC", text)
    tokens: list[str] = []
    at = 0
    for run in _cjk().finditer(text):
        tokens += _words(text[at : run.start()]) + _bigrams(run.group())
        at = run.end()
    tokens += _words(text[at:])
    return f"body : {_quote(' '.join(tokens))}" if tokens else None


def phrase_hits(db: sqlite3.Connection, text: str, *, limit: int) -> list[PassageHit]:
    """The passages whose body holds ``text``'s words in order (:func:`phrase_expression`),
    in the order of the notes and passages, at most ``limit``."""
    expression = phrase_expression(text)
    if expression is None:
        return []
    return [PassageHit(path, number, start, end, block, text, heading_path(heads), 0.0, 0.0, kind)
            for path, number, start, end, block, text, heads, kind in db.execute(
        "SELECT p.path, p.number, p.start_line, p.end_line, p.block_id, p.text, p.headings, "
        "p.kind FROM passages AS p WHERE p.id IN (SELECT rowid FROM passages_fts WHERE "
        "passages_fts MATCH ? LIMIT ?) ORDER BY p.path, p.number", (expression, limit))]
