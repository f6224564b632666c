"""Counts over the whole index, without reading any note: what ``scan`` summarises."""

from __future__ import annotations

from typing import NamedTuple

from ..read.record import GENERATED
from .rows import ATTACHMENT
from .sql import IN_ARRAY, array
from .store import Store

SOURCES = f"NOT flags & {GENERATED}"


class Tallies(NamedTuple):
    """Notes, links, tags and fields of the source notes."""

    notes: int
    by_type: dict[str, int]
    links: int
    resolved: int
    ambiguous: int
    embeds: int
    to_attachments: int
    distinct_tags: int
    tag_uses: int
    fields: int


def tallies(store: Store) -> Tallies:
    """Counts of the source notes' contents (sorted ``by_type``)."""
    by_type = dict(store.query(f"SELECT type, COUNT(*) FROM notes WHERE {SOURCES} "
                               "GROUP BY type ORDER BY type"))
    links = store.query("SELECT COUNT(*), COUNT(*) - SUM(missing), SUM(ambiguous), SUM(embed) "
                        "FROM links")[0]
    attached = store.query("SELECT COUNT(*) FROM links WHERE NOT missing AND node IN "
                           "(SELECT id FROM files WHERE role = ?)", (ATTACHMENT,))[0][0]
    tags = store.query("SELECT COUNT(DISTINCT tag) FROM tags")[0][0]
    uses, fields = store.query(f"SELECT SUM(tag_uses), SUM(fields) FROM notes WHERE {SOURCES}")[0]
    return Tallies(sum(by_type.values()), by_type, links[0], links[1] or 0, links[2] or 0,
                   links[3] or 0, attached, tags, uses or 0, fields or 0)


def unlinked(store: Store) -> list[str]:
    """Source notes with no link in or out (same-note links do not count), sorted.

    The candidates are the notes the kept degrees give none, and those whose degree is stale;
    only their links are read."""
    candidates = {path[:-3] for (path,) in store.query(
        f"SELECT path FROM notes WHERE {SOURCES} AND (id NOT IN (SELECT node FROM degrees WHERE "
        "degree > 0) OR id IN (SELECT node FROM stale_degrees))")}
    ids = array(candidates)
    linked = {row[0] for row in store.query(
        f"SELECT source FROM links WHERE source IN {IN_ARRAY} AND node != source UNION "
        f"SELECT node FROM links WHERE node IN {IN_ARRAY} AND node != source", (ids, ids))}
    return sorted(candidates - linked)
