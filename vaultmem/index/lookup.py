"""Queries of the index for recall: passages by relevance, notes' facets, names and facts.

Each reads only the rows its answer needs (by id, by name key, by type), never every note.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..read.extract import RawFact
from ..read.record import GENERATED
from . import fts
from .rows import name_keys
from .sql import IN_ARRAY, array
from .store import Store

FACT_COLUMNS = ("attribute, value, line, kind, entity, valid_from, valid_until, confidence, "
                "asserted")


class Facets(NamedTuple):
    """What search filters read of a note."""

    type: str
    status: str  # lower case, "" when none
    date: str
    expires: str  # the day its memory stops holding, "" when none
    tags: list[str]


class StoredPassage(NamedTuple):
    """A passage as the index keeps it, with its note's id (the splitter's
    :class:`~vaultmem.read.passages.StoredPassage` has neither note nor number)."""

    note: str
    number: int
    kind: str
    headings: tuple[str, ...]
    start: int
    end: int
    block_id: str | None
    text: str


PASSAGE_COLUMNS = ("p.path, p.number, p.kind, p.headings, p.start_line, p.end_line, p.block_id, "
                   "p.text")


class Name(NamedTuple):
    """A title or alias of a note."""

    note: str
    name: str
    alias: bool


def matching_passages(store: Store, query: str, *, limit: int) -> list[fts.PassageHit]:
    """The passages matching a term of ``query``, best first by bm25 (at most ``limit``)."""
    return fts.candidates(store.db, query, limit=limit)


def passages(store: Store, ids: Iterable[str]) -> dict[str, list[StoredPassage]]:
    """Every passage of the notes ``ids`` (those with any), in file order."""
    found: dict[str, list[StoredPassage]] = {}
    for row in store.query(
            f"SELECT {PASSAGE_COLUMNS} FROM passages AS p WHERE path IN "
            f"(SELECT path FROM notes WHERE id IN {IN_ARRAY}) ORDER BY path, number",
            (array(ids),)):
        passage = _stored_passage(row)
        found.setdefault(passage.note, []).append(passage)
    return found


def opening_passages(store: Store, ids: Iterable[str]) -> dict[str, StoredPassage]:
    """The first passage that says something (not properties, not a lone heading) of each of
    the notes ``ids``, else its first passage (its properties)."""
    rows = store.query(
        f"SELECT {PASSAGE_COLUMNS} FROM passages AS p JOIN (SELECT path, coalesce(min(CASE WHEN "
        "kind NOT IN ('properties', 'heading') THEN number END), min(number)) AS first FROM "
        f"passages WHERE path IN (SELECT path FROM notes WHERE id IN {IN_ARRAY}) GROUP BY "
        "path) AS o ON o.path = p.path AND o.first = p.number", (array(ids),))
    return {passage.note: passage for passage in map(_stored_passage, rows)}


def passages_of_texts(store: Store, digests: list[bytes]) -> dict[bytes, list[StoredPassage]]:
    """The passages whose texts have the digests ``digests`` (of any note), by digest."""
    found: dict[bytes, list[StoredPassage]] = {}
    for at in range(0, len(digests), 500):  # below SQLite's limit of bound values
        part = digests[at : at + 500]
        for row in store.query(f"SELECT p.digest, {PASSAGE_COLUMNS} FROM passages AS p WHERE "
                               f"p.digest IN ({', '.join('?' * len(part))}) "
                               "ORDER BY p.path, p.number", tuple(part)):
            found.setdefault(row[0], []).append(_stored_passage(row[1:]))
    return found


def digests_of(store: Store, note_id: str) -> list[bytes]:
    """The digests of the texts of a note's passages, in file order."""
    return [row[0] for row in store.query(
        "SELECT p.digest FROM passages AS p JOIN notes AS n ON n.path = p.path WHERE n.id = ? "
        "ORDER BY p.number", (note_id,))]


def with_text(store: Store, ids: Iterable[str]) -> set[str]:
    """The notes among ``ids`` that say something: a passage besides their properties and
    headings."""
    return {row[0] for row in store.query(
        f"SELECT DISTINCT n.id FROM notes AS n JOIN passages AS p ON p.path = n.path WHERE "
        f"n.id IN {IN_ARRAY} AND p.kind NOT IN ('properties', 'heading')", (array(ids),))}


def passages_near(store: Store, keys: Iterable[tuple[str, int]], *, before: int,
                  after: int) -> list[StoredPassage]:
    """The passages up to ``before`` places before and ``after`` places after each (note id,
    passage number) of ``keys`` (those themselves too), each once, by note and number."""
    wanted = json.dumps(sorted(set(keys)), ensure_ascii=False)
    rows = store.query(
        f"SELECT DISTINCT {PASSAGE_COLUMNS} FROM json_each(?) AS k JOIN notes AS n ON "
        "n.id = k.value ->> 0 JOIN passages AS p ON p.path = n.path AND p.number BETWEEN "
        "(k.value ->> 1) - ? AND (k.value ->> 1) + ? ORDER BY p.path, p.number",
        (wanted, before, after))
    return [_stored_passage(row) for row in rows]


def facets(store: Store, ids: Iterable[str]) -> dict[str, Facets]:
    """Type, status, date and tags of the source notes among ``ids``."""
    wanted = array(ids)
    found = {note_id: Facets(kind, status, date, expires, []) for note_id, kind, status, date,
             expires in store.query("SELECT id, type, status, date, expires FROM notes "
                                    f"WHERE id IN {IN_ARRAY} "
                         f"AND NOT flags & {GENERATED}", (wanted,))}
    for tag, note_id in store.query(
            f"SELECT tag, note FROM tags WHERE note IN {IN_ARRAY} ORDER BY tag", (wanted,)):
        if note_id in found:
            found[note_id].tags.append(tag)
    return found


class Standing(NamedTuple):
    """A note's status (lower case, "" when none) and date."""

    status: str
    date: str


def notes_of_type(store: Store, kind: str, *,
                  statuses: Iterable[str] | None = None) -> dict[str, Standing]:
    """Status and date of every source note of type ``kind`` (of one of ``statuses`` only,
    when given), by id."""
    among = "" if statuses is None else f"AND status IN {IN_ARRAY} "
    return {note_id: Standing(status, date) for note_id, status, date in store.query(
        f"SELECT id, status, date FROM notes WHERE type = ? {among}AND NOT flags & {GENERATED} "
        "ORDER BY id", (kind,) if statuses is None else (kind, array(statuses)))}


def latest_of_type(store: Store, kind: str, count: int) -> list[tuple[str, str]]:
    """(date, id) of the ``count`` source notes of type ``kind`` with the latest dates, newest
    first (ties by id, last first)."""
    return [(date, note_id) for date, note_id in store.query(
        f"SELECT date, id FROM notes WHERE type = ? AND date != '' AND NOT flags & {GENERATED} "
        "ORDER BY date DESC, id DESC LIMIT ?", (kind, count))]


def newest_date(store: Store) -> str:
    """The latest date of any source note ("" when none has one)."""
    rows = store.query(f"SELECT date FROM notes WHERE date != '' AND NOT flags & {GENERATED} "
                       "ORDER BY date DESC LIMIT 1")  # read from the end of notes_by_date
    return rows[0][0] if rows else ""


def names_like(store: Store, query: str, *, every_below: int) -> list[Name]:
    """The titles and aliases worth comparing with ``query``: all of them in a vault of fewer
    than ``every_below`` notes, else those sharing a word's first three letters with it."""
    count = store.query(f"SELECT COUNT(*) FROM (SELECT 1 FROM notes WHERE NOT flags & "
                        f"{GENERATED} LIMIT ?)", (every_below,))[0][0]  # no more are counted
    if count < every_below:
        rows = store.query("SELECT DISTINCT note, name, alias FROM names")
    else:
        rows = store.query(f"SELECT DISTINCT note, name, alias FROM names WHERE key IN "
                           f"{IN_ARRAY}", (array(name_keys(query)),))
    return sorted(Name(note, name, bool(alias)) for note, name, alias in rows)


def named(store: Store, name: str, *, aliases_only: bool = False) -> list[str]:
    """Ids of the notes with the title or alias ``name`` (case-folded), sorted."""
    extra = " AND alias" if aliases_only else ""
    return [row[0] for row in store.query(
        f"SELECT DISTINCT note FROM names WHERE folded = ?{extra} ORDER BY note",
        (name.casefold(),))]


def every_alias(store: Store) -> dict[str, list[str]]:
    """The aliases of every source note that has some, in the order the note gives them."""
    found: dict[str, dict[str, None]] = {}
    for note, name in store.query("SELECT note, name FROM names WHERE alias ORDER BY note, rowid"):
        found.setdefault(note, {})[name] = None
    return {note: list(names) for note, names in found.items()}


def source_ids(store: Store) -> list[str]:
    """The id of every source note (not generated, not a template, excluded or a copy)."""
    return [row[0] for row in store.query(
        "SELECT id FROM files WHERE role = 'source' ORDER BY id")]


def every_name(store: Store) -> dict[str, list[str]]:
    """Every source note's title and aliases, by id."""
    found: dict[str, list[str]] = {}
    for note, name in store.query("SELECT DISTINCT note, name FROM names ORDER BY note, alias"):
        found.setdefault(note, []).append(name)
    return found


def facts(store: Store, ids: Iterable[str]) -> dict[str, list[RawFact]]:
    """The facts each note among ``ids`` states, in stored order."""
    return facts_where(store, ids, "1")


def facts_where(store: Store, ids: Iterable[str], where: str,
                args: tuple[Any, ...] = ()) -> dict[str, list[RawFact]]:
    """The facts each note among ``ids`` states that meet the SQL condition ``where`` (over
    the facts table's columns, with ``args``), in stored order."""
    found: dict[str, list[RawFact]] = {}
    for note, *row in store.query(
            f"SELECT note, {FACT_COLUMNS} FROM facts WHERE note IN {IN_ARRAY} AND ({where}) "
            "ORDER BY rowid", (array(ids), *args)):
        found.setdefault(note, []).append(_fact(row))
    return found


def entities_named(store: Store, attribute: str) -> set[str]:
    """What the facts of ``attribute`` are about (their entities), anywhere in the vault."""
    return {row[0] for row in store.query(
        "SELECT DISTINCT entity FROM facts WHERE attribute = ?", (attribute,))}


def facts_named(store: Store, attribute: str) -> list[tuple[str, RawFact]]:
    """(note id, fact) of every fact of ``attribute`` in the vault."""
    return [(note, _fact(row)) for note, *row in store.query(
        f"SELECT note, {FACT_COLUMNS} FROM facts WHERE attribute = ? ORDER BY note, rowid",
        (attribute,))]


def linked_from_lines(store: Store, spans: Iterable[tuple[str, int, int]]) -> set[str]:
    """The source notes linked from the lines ``start`` to ``end`` of each (note id, start,
    end) of ``spans``."""
    wanted = json.dumps(sorted(set(spans)), ensure_ascii=False)
    rows = store.query(
        "SELECT DISTINCT l.node FROM json_each(?) AS s JOIN links AS l ON l.source = "
        "s.value ->> 0 AND l.line BETWEEN s.value ->> 1 AND s.value ->> 2 WHERE NOT l.missing",
        (wanted,))
    return set(facets(store, [row[0] for row in rows]))


def link_raws(store: Store, spans: Iterable[tuple[str, int, int]]
              ) -> dict[tuple[str, int, int], list[str]]:
    """The links on the lines ``start`` to ``end`` of each (note id, start, end) of ``spans``,
    as written, in order (spans without links left out)."""
    wanted = json.dumps(sorted(set(spans)), ensure_ascii=False)
    found: dict[tuple[str, int, int], list[str]] = {}
    for note, start, end, raw in store.query(
            "SELECT s.value ->> 0, s.value ->> 1, s.value ->> 2, l.raw FROM json_each(?) AS s "
            "JOIN links AS l ON l.source = s.value ->> 0 AND l.line BETWEEN s.value ->> 1 AND "
            "s.value ->> 2 ORDER BY l.rowid", (wanted,)):
        found.setdefault((note, start, end), []).append(raw)
    return found


def neighbour_notes(store: Store, note_id: str) -> tuple[list[str], list[str]]:
    """(the source notes ``note_id`` links to, those linking to it), each sorted, itself left
    out."""
    return neighbours_of_each(store, [note_id])[note_id]


def neighbours_of_each(store: Store, ids: Iterable[str]
                       ) -> dict[str, tuple[list[str], list[str]]]:
    """:func:`neighbour_notes` of each note among ``ids``, read at once."""
    ids = sorted(set(ids))
    wanted = array(ids)
    out: dict[str, set[str]] = {note_id: set() for note_id in ids}
    into: dict[str, set[str]] = {note_id: set() for note_id in out}
    for source, node in store.query(f"SELECT source, node FROM links WHERE source IN "
                                    f"{IN_ARRAY} AND NOT missing", (wanted,)):
        out[source].add(node)
    for node, source in store.query(f"SELECT node, source FROM links WHERE node IN "
                                    f"{IN_ARRAY} AND NOT missing", (wanted,)):
        into[node].add(source)
    reached = set().union(*out.values(), *into.values())
    notes = {row[0] for row in store.query(f"SELECT id FROM notes WHERE id IN {IN_ARRAY} AND "
                                           f"NOT flags & {GENERATED}", (array(reached),))}
    return {note_id: (sorted((out[note_id] - {note_id}) & notes),
                      sorted((into[note_id] - {note_id}) & notes)) for note_id in out}


def _stored_passage(row: tuple[Any, ...]) -> StoredPassage:
    """A row of :data:`PASSAGE_COLUMNS` as a :class:`StoredPassage`."""
    path, number, kind, heads, start, end, block, text = row
    return StoredPassage(path[:-3], number, kind, fts.heading_path(heads), start, end, block,
                         text)


def _fact(row: list[Any]) -> RawFact:
    """A stored fact row (without its note) as a :class:`RawFact`."""
    attribute, value, *rest = row
    return RawFact(attribute, marshal.loads(value), *rest)
