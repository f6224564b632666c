"""Index rows for the checks that read a few notes' facts: their metadata, the notes linking
them, and the notes any conflict can reach (supersede links, expired fact notes)."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..read.record import GENERATED
from .doc import Meta
from .lookup import facets, facts, facts_where
from .sql import IN_ARRAY, array
from .store import Store

RELATIONS = frozenset({"supersedes", "superseded_by"})


def metas_of(store: Store, ids: Iterable[str]) -> dict[str, Meta]:
    """The metadata of the source notes among ``ids`` as their rows hold it. Tags and aliases
    come sorted; ``history`` is not in the rows and is left empty
    (:func:`~vaultmem.index.doc.read_meta` has it).

    >>> import pathlib
    >>> metas_of(Store(pathlib.Path("."), "", memory=True), ["nowhere"])
    {}
    """
    found = facets(store, sorted(set(ids)))
    aliases: dict[str, list[str]] = {}
    for note_id, name in store.query(f"SELECT DISTINCT note, name FROM names WHERE alias AND "
                                     f"note IN {IN_ARRAY} ORDER BY note, name", (array(found),)):
        aliases.setdefault(note_id, []).append(name)
    stated = facts(store, found)
    return {note_id: Meta(facet.type, facet.status, facet.date, facet.tags,
                          aliases.get(note_id, []), stated.get(note_id, []), [])
            for note_id, facet in found.items()}


def stating_metas(store: Store, ids: Iterable[str], *, attributes: Collection[str],
                  about_others: bool = False) -> dict[str, Meta]:
    """Type, status and date of the source notes among ``ids``, with only the facts of
    ``attributes`` and, with ``about_others``, those about another note (no tags, aliases or
    history): what the checks read of a note that only states something about others."""
    wanted = sorted(set(ids))
    found = store.query(f"SELECT id, type, status, date FROM notes WHERE id IN {IN_ARRAY} "
                        f"AND NOT flags & {GENERATED}", (array(wanted),))
    stated = facts_where(store, [row[0] for row in found],
                         f"attribute IN {IN_ARRAY} OR (? AND entity != '')",
                         (array(attributes), about_others))
    return {note_id: Meta(kind, status, date, [], [], stated.get(note_id, []), [])
            for note_id, kind, status, date in found}


def linking_any(store: Store, nodes: Iterable[str]) -> set[str]:
    """The notes with a link resolving to one of ``nodes``."""
    return {row[0] for row in store.query(
        f"SELECT DISTINCT source FROM links WHERE node IN {IN_ARRAY} AND NOT missing",
        (array(nodes),))}


def superseding(store: Store) -> set[str]:
    """The notes stating a ``supersedes`` or ``superseded_by`` link."""
    return {row[0] for row in store.query(
        f"SELECT DISTINCT note FROM facts WHERE attribute IN {IN_ARRAY} AND kind = 'relation'",
        (array(RELATIONS),))}


def expired_by(store: Store, day: str) -> set[str]:
    """The fact notes whose fact stopped holding before ``day`` (an ISO date), read from the
    index of expiring fact notes (a value that starts with ``day``, such as its time, is not
    before it, as its date is not)."""
    return {row[0] for row in store.query(
        "SELECT note FROM facts WHERE kind = 'fact-note' AND valid_until != '' "
        "AND valid_until < ?", (day,))}  # not DISTINCT: that would walk every fact by note
