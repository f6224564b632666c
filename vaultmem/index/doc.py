"""A note as a search document: weighted term counts, computed once when the note is parsed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..model import Note
from ..read.extract import RawFact, history, raw_facts
from ..read.record import Entry, note_doc_of

# Meta as the index stores it: plain tuples all through (marshal refuses tuple subclasses)
StoredMeta = tuple[str, str, str, list[str], list[str], list[tuple[Any, ...]],
                   list[tuple[str, str]]]


class Meta(NamedTuple):
    """What filters and checks need of a note without decoding it, kept in the search index."""

    type: str
    status: str  # lower case, "" when none
    date: str
    tags: list[str]
    aliases: list[str]
    facts: list[RawFact]
    history: list[tuple[str, str]]  # (attribute, date) of each ``## History`` line

    @classmethod
    def load(cls, stored: Sequence[Any]) -> Meta:
        """The metadata from its stored plain tuple, facts as :class:`RawFact` too."""
        kind, status, date, tags, aliases, facts, history = stored
        return cls(kind, status, date, tags, aliases, [RawFact._make(f) for f in facts], history)

    def stored(self) -> StoredMeta:
        """As the index stores it: plain tuples (``Meta.load`` reads it back)."""
        return (self.type, self.status, self.date, self.tags, self.aliases,
                [tuple(fact) for fact in self.facts], self.history)


def meta_of(note: Note, body: str = "", text: str = "") -> StoredMeta:
    """What filters and checks need without decoding the note, as the index stores it
    (:meth:`Meta.load` reads it)."""
    status = note.frontmatter.get("status")
    date = note.date or note.frontmatter.get("date") or note.frontmatter.get("updated")
    return Meta(note.type, str(status).lower() if isinstance(status, str) else "",
                str(date) if isinstance(date, str) else "", note.tag_names(), list(note.aliases),
                raw_facts(note, text), history(body) if "## History" in body else []).stored()


def read_meta(entry: Entry) -> Meta:
    """The metadata stored with a note's text."""
    *_, stored = note_doc_of(entry)
    return Meta.load(stored)
