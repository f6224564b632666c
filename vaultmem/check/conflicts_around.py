"""The notes whose facts decide the conflicts touching a few notes, read from the index rows
instead of the whole vault's facts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import TypeVar

from ..index.doc import Meta, read_meta
from ..index.fact_rows import (
    RELATIONS,
    expired_by,
    linking_any,
    metas_of,
    stating_metas,
    superseding,
)
from ..index.link_rows import sources_naming_any
from ..index.lookup import facts_named
from ..vault import Vault
from .current_facts import value_key
from .winners import SCOPE_KEYS

# Conflicts of these kinds can be found from the notes around the ones they touch; duplicates,
# alias clashes and sync copies compare a note with every other and need the whole vault.
T = TypeVar("T")
LOCAL_KINDS = frozenset({"fact-conflict", "decision-conflict", "superseded-active",
                         "expired-used"})


def documents_around(vault: Vault, notes: Iterable[str],
                     today: dt.date) -> list[tuple[str, Meta]]:
    """(id, metadata) of every note a conflict of :data:`LOCAL_KINDS` touching ``notes`` can
    involve, sorted by id.

    Read whole: the notes, the entities their facts are about, the decisions sharing a topic
    with theirs, and the expired fact notes (one of the notes may cite them). Of every note
    linking an entity (so of every note citing one of the notes too), or writing a link to an
    entity's name no note has: its facts about other notes and those saying how specific it
    is. Of the rest only supersede links, which chain
    through any note: every note stating one, and the notes those name (their status decides).
    """
    store = vault.store
    metas = metas_of(store, notes)
    entities = set(metas) | _entities(vault, metas)
    metas |= metas_of(store, (entities | _topic_mates(vault, metas)
                              | _expired(vault, today)) - metas.keys())
    unwritten = {name for name in entities - metas.keys() if name not in vault.index.notes}
    stating = linking_any(store, entities) | sources_naming_any(store, unwritten)
    metas |= stating_metas(store, stating - metas.keys(), attributes=SCOPE_KEYS,
                           about_others=True)
    metas |= {note_id: meta for note_id, meta in _superseding(vault).items()
              if note_id not in metas}
    metas |= stating_metas(store, _entities(vault, metas, kind="relation") - metas.keys(),
                           attributes=RELATIONS)
    for note_id in sorted(entities & metas.keys()):  # their history dates the facts about them
        metas[note_id] = metas[note_id]._replace(
            history=read_meta(vault.index.notes.entry(note_id)).history)
    return sorted(metas.items())


def concerned(vault: Vault, metas: dict[str, Meta]) -> set[str]:
    """What the facts of ``metas`` are about (ids, or names no note has) and the decisions
    sharing a topic with theirs: the notes whose conflicts a change of them can join."""
    return _entities(vault, metas) | _topic_mates(vault, metas)


def _entities(vault: Vault, metas: dict[str, Meta], *, kind: str | None = None) -> set[str]:
    """The notes the facts of ``metas`` (of ``kind`` only, if given) are about, resolved from
    the stating note as the ledger resolves them."""
    resolver = vault.index.resolver
    return {resolver.resolve(fact.entity, note_id)[0] or fact.entity
            for note_id, meta in metas.items() for fact in meta.facts
            if fact.entity and (kind is None or fact.kind == kind)}


def _topic_mates(vault: Vault, metas: dict[str, Meta]) -> set[str]:
    """The decisions whose ``topic`` is that of a decision among ``metas``."""
    if not any(meta.type == "decision" for meta in metas.values()):
        return set()  # the vault's topics are not read for notes that decide nothing
    stated = _topics(vault)
    mine = {key for note_id, key in stated
            if note_id in metas and metas[note_id].type == "decision"}
    return {note_id for note_id, key in stated if key in mine}


# What every call reads whatever the notes: kept per Vault (dropped with its index after any
# change), so a long-running reader (mcp, watch) reads it once per state of the vault.

def _kept(vault: Vault, key: object, make: Callable[[], T]) -> T:
    """``make()``, made once per reading of the vault (see :attr:`Vault.derived`)."""
    if key not in vault.derived:
        vault.derived[key] = make()
    found: T = vault.derived[key]
    return found


def _topics(vault: Vault) -> list[tuple[str, str]]:
    """(note id, value key) of every ``topic`` property in the vault."""
    resolver = vault.index.resolver
    return _kept(vault, "topics", lambda: [
        (note_id, value_key(fact.value, note_id, resolver))
        for note_id, fact in facts_named(vault.store, "topic") if fact.kind == "property"])


def _expired(vault: Vault, today: dt.date) -> set[str]:
    """The fact notes whose fact stopped holding before ``today``."""
    return _kept(vault, ("expired fact notes", today),
                 lambda: expired_by(vault.store, today.isoformat()))


def supersede_chains(vault: Vault) -> set[str]:
    """Every note stating a supersede link, and every note one names."""
    stating = _superseding(vault)
    return _kept(vault, "supersede chains",
                 lambda: set(stating) | _entities(vault, stating, kind="relation"))


def _superseding(vault: Vault) -> dict[str, Meta]:
    """The notes stating a supersede link, with those links only."""
    return _kept(vault, "superseding", lambda: stating_metas(
        vault.store, superseding(vault.store), attributes=RELATIONS))
