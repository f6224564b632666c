"""How a vault uses a note's name: how many notes write its words and how many link it. A name
the vault writes far more than it links (``Work``, ``And``, ``Make`` as titles) is an ordinary
word there, not a name: not one a question names, nor a mention worth a link."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import NamedTuple

from .phrases import phrase_expression
from .store import Store

WRITTEN_ENOUGH = 20  # notes writing a name before its link share says anything
LINKED_SHARE = 0.1  # of the notes writing a name, fewer linking it than this: a word
READ_MOST = 2000  # passages a name's phrase query reads at most


class NameUse(NamedTuple):
    """How many notes write a name's words (``written``, at most what :data:`READ_MOST`
    passages hold) and how many link it (``linked``)."""

    written: int
    linked: int

    @property
    def ordinary(self) -> bool:
        """True when the vault writes the name as a word far more than it links it.

        >>> NameUse(400, 3).ordinary, NameUse(400, 120).ordinary, NameUse(12, 0).ordinary
        (True, False, False)
        """
        return self.written >= WRITTEN_ENOUGH and self.linked < LINKED_SHARE * self.written


def name_use(db: sqlite3.Connection, name: str, note_id: str) -> NameUse:
    """How the vault behind ``db`` uses ``name`` (a title or an alias of the note ``note_id``):
    notes writing its words, and notes linking that note by any name (``[[Lucy Tan|Lucibel]]``
    links the alias ``Lucibel``'s note too)."""
    expression = phrase_expression(name)
    written = 0 if expression is None else db.execute(
        "SELECT COUNT(DISTINCT path) FROM passages WHERE id IN (SELECT rowid FROM passages_fts "
        "WHERE passages_fts MATCH ? LIMIT ?)", (expression, READ_MOST)).fetchone()[0]
    linked = db.execute(
        "SELECT COUNT(DISTINCT l.source_no) FROM link_store AS l JOIN keys AS k "
        "ON k.no = l.node_no WHERE k.key = ? AND l.source_no != l.node_no",
        (note_id,)).fetchone()[0]
    return NameUse(max(written, linked), linked)


def ordinary_names(store: Store) -> Callable[[str, str], bool]:
    """Whether the vault writes a note's name (a title or alias: ``name``, of ``note_id``)
    far more than it links the note, each looked up once."""
    known: dict[tuple[str, str], bool] = {}

    def ordinary(name: str, note_id: str) -> bool:
        key = (name.casefold(), note_id)
        if key not in known:
            with store.held() as db:
                known[key] = name_use(db, name, note_id).ordinary
        return known[key]
    return ordinary
