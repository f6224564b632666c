"""A note as a search document: weighted term counts, computed once when the note is parsed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..model import Note
from ..read.extract import RawFact, history, raw_facts
from ..read.record import Entry, search_doc_of
from ..text import tokens

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


WEIGHTS = {"title": 4, "alias": 4, "tag": 2, "heading": 1, "property": 1, "body": 1}
LINK = "\x01"  # prefix of the terms that record a link target, for graph evidence


def link_term(name: str) -> str:
    """The term that stands for "links to a note named ``name``"."""
    base = name.strip().rsplit("/", 1)[-1]
    return LINK + (base[:-3] if base.lower().endswith(".md") else base).casefold()


def search_doc(note: Note, body: str) -> tuple[dict[str, int], int]:
    """(weighted term counts, length) of a note: title, aliases, tags, headings, properties
    and body (headings are in the body too, so they count twice)."""
    counts: Counter[str] = Counter(tokens(body))  # weight 1, counted in C
    parts = [("title", note.title), *(("alias", a) for a in note.aliases),
             *(("tag", t.name.replace("/", " ")) for t in note.tags),
             *(("heading", h.text) for h in note.headings),
             *(("property", v) for v in _strings(note.frontmatter.values())),
             *(("property", k.replace("_", " ")) for k in note.frontmatter)]
    for kind, text in parts:
        for term in tokens(text):
            counts[term] += WEIGHTS[kind]
    length = sum(counts.values())
    for link in note.links:
        if link.target:
            counts[link_term(link.target)] += 1
    return dict(counts), length


def _strings(values: Iterable[object]) -> list[str]:
    """String property values (list items too), without wikilink brackets."""
    out: list[str] = []
    for value in values:
        if isinstance(value, list):
            out += _strings(value)
        elif isinstance(value, str):
            out.append(value.replace("[[", " ").replace("]]", " "))
    return out


def meta_of(note: Note, body: str = "", text: str = "") -> StoredMeta:
    """What filters and checks need without decoding the note, as the index stores it
    (:meth:`Meta.load` reads it)."""
    status = note.frontmatter.get("status")
    date = note.date or note.frontmatter.get("date") or note.frontmatter.get("updated")
    return Meta(note.type, str(status).lower() if isinstance(status, str) else "",
                str(date) if isinstance(date, str) else "", note.tag_names(), list(note.aliases),
                raw_facts(note, text), history(body) if "## History" in body else []).stored()


def read_meta(entry: Entry) -> Meta:
    """The metadata stored with a note's search document."""
    *_, stored = search_doc_of(entry)
    return Meta.load(stored)
