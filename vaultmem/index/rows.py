"""What the index stores of a parsed note besides its record: its graph node, tags, links,
facts and names."""

from __future__ import annotations

import datetime as dt
import marshal
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..model import Link, Note
from ..read.resolve import Resolver, link_name, nfc
from ..secrets import find_secrets

ATTACHMENT = "attachment"
WORD = re.compile(r"\w+")


class LinkRow(NamedTuple):
    """One link of a source note as the index keeps it, resolved against the whole vault."""

    source: str  # the linking note's id
    target: str  # the link path as written
    node: str  # the node it reaches: a note id or attachment path; when ``missing``, the
    missing: bool  # name it lacks, lower-cased (a missing name's case variants are one node)
    ambiguous: bool
    kind: str  # edge kind: body, embed, property:<key> or field:<key>
    line: int
    raw: str
    subpath: str
    embed: bool = False


def node_attrs(note: Note) -> dict[str, Any]:
    """The attributes a note's graph node carries."""
    fm = note.frontmatter
    status = fm.get("status")
    return {
        "type": note.type,
        "typed_by": note.typed_by,
        "title": note.title,
        "path": note.path,
        "tags": note.tag_names(),
        "aliases": list(note.aliases),
        "date": note.date or _scalar(fm.get("date")),
        "status": str(status).lower() if isinstance(status, str | int | float) else None,
        "missing": False,
        "self_links": 0,
    }


def _scalar(value: object) -> str | None:
    """A frontmatter value as a string when it is a plain scalar."""
    return str(value) if isinstance(value, str | int | float) else None


def expires(note: Note) -> str:
    """The day a note's memory stops holding (``expires`` or ``valid_until``), "" when none."""
    fm = note.frontmatter
    value = fm.get("expires") or fm.get("valid_until")
    return str(value)[:10] if isinstance(value, str | dt.date) else ""


def edge_kind(link: Link) -> str:
    """``body``, ``embed``, ``property:<key>`` or ``field:<key>``."""
    if link.kind in ("property", "field"):
        return f"{link.kind}:{link.key}"
    return "embed" if link.embed else "body"


class Reach(NamedTuple):
    """Where a link goes: see :class:`LinkRow`."""

    node: str
    missing: bool
    ambiguous: bool


def reach(resolver: Resolver, target: str, source: str) -> Reach:
    """Where a link to ``target`` written in note ``source`` goes."""
    resolved, ambiguous = resolver.resolve(target, source)
    if resolved is None:
        return Reach(missing_name(target).lower(), True, ambiguous)
    return Reach(resolved, False, ambiguous)


def link_rows(note: Note, resolver: Resolver) -> list[LinkRow]:
    """The note's links, in order, resolved by ``resolver``."""
    return [LinkRow(note.id, link.target, *reach(resolver, link.target, note.id),
                    edge_kind(link), link.line, link.raw, link.subpath, link.embed)
            for link in note.links]


def missing_name(target: str) -> str:
    """The node name of a link that resolves to nothing: as written, without ``.md``."""
    return target[:-3] if target.lower().endswith(".md") else target


def file_name(path: str) -> str:
    """The name links use to reach a note id or attachment path: the key of
    :func:`~vaultmem.read.resolve.link_name` (only links of that name can resolve to it).

    >>> from vaultmem.read.resolve import link_name
    >>> file_name("People/Lucy Tan"), link_name("../lucy TAN.md")
    ('lucy tan', 'lucy tan')
    """
    return nfc(path).rpartition("/")[2].lower()


def name_keys(name: str) -> list[str]:
    """The blocking keys of a title or alias for fuzzy lookup: the first three letters of
    each of its words, case-folded (a typo rarely hits the start of every word).

    >>> name_keys("Lucy Tan-Lee")
    ['luc', 'tan', 'lee']
    """
    return list(dict.fromkeys(word[:3] for word in WORD.findall(name.casefold())))


def name_rows(note: Note, secrets: Mapping[str, str] | None = None
              ) -> list[tuple[str, str, str, str, bool]]:
    """(key, case-folded name, name, note id, is an alias) of the note's title and aliases,
    but a name that holds a credential (``secrets``: the vault's own patterns besides the
    built-in ones): no search finds a note by it."""
    names = [(note.id.rsplit("/", 1)[-1], False), *((alias, True) for alias in note.aliases)]
    return [(key, name.casefold(), name, note.id, alias)
            for name, alias in dict.fromkeys(names) if not find_secrets(name, secrets)
            for key in name_keys(name) or [""]]


def note_rows(note: Note, resolver: Resolver, passages: list[tuple[Any, ...]],
              meta: Sequence[Any], secrets: Mapping[str, str] | None = None) -> bytes:
    """Everything the index stores of a parsed note besides its record, marshalled: (type,
    status, date, expiry, tag uses, inline fields, node attributes) and, unless vaultmem
    generated the note, its tags, anchors (headings: 0, block ids: 1), resolved links,
    ``passages`` (rows of :func:`~vaultmem.index.fts.passage_rows`), facts (of ``meta``, an
    :class:`~vaultmem.index.doc.Meta` as stored) and names (but those holding a credential,
    ``secrets``: see :func:`name_rows`)."""
    _, status, date, *_, facts, _ = meta
    counts = (note.type, status, date, expires(note), len(note.tags), len(note.fields),
              marshal.dumps(node_attrs(note)))
    if note.generated:
        return marshal.dumps((counts, [], [], [], [], [], []))
    tags = [(tag, note.id) for tag in note.tag_names()]
    anchors = [(note.id, 0, h.text) for h in note.headings]
    anchors += [(note.id, 1, b.id) for b in note.block_ids]
    links = [(r.source, link_name(r.target, r.source), r.target, r.node, r.missing,
              r.ambiguous, r.kind, r.line, r.raw, r.subpath, r.embed)
             for r in link_rows(note, resolver)]
    fact_rows = [(note.id, attribute, marshal.dumps(value), *rest)
                 for attribute, value, *rest in facts]
    names = name_rows(note, secrets)
    return marshal.dumps((counts, tags, anchors, links, passages, fact_rows, names))
