"""A note as a search document: weighted term counts, computed once when the note is parsed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..model import Note
from ..read.extract import RawFact, history, raw_facts
from ..text import tokens

# (type, status, date, tags, aliases, facts, history): per note, kept in the search index
Meta = tuple[str, str, str, list[str], list[str], list[RawFact], list[tuple[str, str]]]

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


def meta_of(note: Note, body: str = "", text: str = "") -> Meta:
    """What filters and checks need without decoding the note: (type, status, date, tags,
    aliases, facts, history)."""
    status = note.frontmatter.get("status")
    date = note.date or note.frontmatter.get("date") or note.frontmatter.get("updated")
    return (note.type, str(status).lower() if isinstance(status, str) else "",
            str(date) if isinstance(date, str) else "", note.tag_names(), list(note.aliases),
            raw_facts(note, text), history(body) if "## History" in body else [])
