"""Conflicting memory: contradicting facts, competing decisions, superseded-but-active entries,
duplicates, alias clashes, and expired facts still cited."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import astuple

from .. import clock
from ..index.doc import Meta
from ..index.link_rows import linked_by_name
from ..index.store import folder_stamp
from ..model import SHOWN, Fact, Finding
from ..secrets import redact_value
from ..vault import Vault
from .conflicts_around import LOCAL_KINDS, documents_around
from .current_facts import INACTIVE, Ledger, build_ledger, holds, value_key
from .decisions import decision_findings
from .habits import habits_apart
from .kin import alike_in_words, linked_together, particular_words
from .open_conflicts import Finder, chains_now, keep_found, open_conflicts
from .winners import choose, finding_id

KINDS = ("fact-conflict", "decision-conflict", "superseded-active", "duplicate", "alias-clash",
         "expired-used", "sync-copy")
CITERS = ("MEMORY", "NOW")


def find_conflicts(vault: Vault, *, kinds: tuple[str, ...] = KINDS,
                   today: dt.date | None = None, touching: set[str] | None = None,
                   least: float = SHOWN, quiet: bool = True) -> list[Finding]:
    """Every conflict of the given kinds at least ``least`` sure (0: all), sorted by kind and
    notes; with ``quiet``, not those the owner ignores (``.vaultmem/ignored.txt``).

    ``touching`` keeps the conflicts involving those notes. When the vault's findings are not
    kept for its current state, kinds that need no comparison with every note are found from
    the notes around those alone (see :func:`~vaultmem.check.conflicts_around.documents_around`).
    """
    today = today or clock.today()
    known = _known(vault, today, kinds, touching)
    ignored = vault.ignored
    return [f for f in known if f.kind in kinds and f.confidence >= least
            and (touching is None or touching & set(f.notes))
            and not (quiet and ignored.quiets(f.id, f.kind, f.notes))]


def ready_conflicts(vault: Vault, today: dt.date | None = None) -> None:
    """Find the open conflicts a context warns of in every note, once for a long-running
    reader, which then brings them up to date from each change instead of finding them around
    every context's notes."""
    today = today or clock.today()
    open_conflicts(vault, today, _local_finder(vault, today), whole=True)


def _known(vault: Vault, today: dt.date, kinds: tuple[str, ...],
           touching: set[str] | None) -> list[Finding]:
    """The vault's findings as kept (in this process, else in the cache); else, when its kinds
    allow, the open conflicts kept for an earlier state brought up to date, or those around
    ``touching``; else all, computed once per vault state and kept."""
    known = vault.derived.get(("conflicts", today))
    if known is None:
        known = _stored(vault, today)
    if known is None and touching is not None and LOCAL_KINDS.issuperset(kinds):
        kept = open_conflicts(vault, today, _local_finder(vault, today))
        if kept is not None:
            return sorted(kept, key=_order)
        return _find(vault, kinds, today, documents_around(vault, touching, today))
    if known is None:
        known = _computed(vault, today)
    vault.derived["conflicts", today] = known
    return known


def _key(vault: Vault, today: dt.date) -> str:
    """What the vault's findings depend on: its memory, the day and the checks' code."""
    _ = vault.index  # current first
    return f"{vault.store.sources_generation()}|{today}|{folder_stamp('check')}"


def _stored(vault: Vault, today: dt.date) -> list[Finding] | None:
    """All findings of an unchanged vault, from the cache (same notes, settings, names, files
    and day: same findings); None when not kept."""
    stored = vault.store.load_result("conflicts", _key(vault, today))
    return None if stored is None else [Finding(*row) for row in stored]


def _computed(vault: Vault, today: dt.date) -> list[Finding]:
    """All findings, computed from every note and kept in the cache."""
    store, key, generation = vault.store, _key(vault, today), vault.index.generation
    stamp = folder_stamp("check")
    rows = store.load_result("duplicate-blocks", stamp) or {}
    memo = {sign: [Finding(*row) for row in block] for sign, block in rows.items()}
    chains = chains_now(vault)
    found = _find(vault, KINDS, today, vault.facts, memo)
    keep_found(vault, today, [f for f in found if f.kind in LOCAL_KINDS], chains)
    if store.generation() != generation:  # another process stored meanwhile: the key may be
        return found  # of a later state than the notes these were found in
    store.save_result("conflicts", key, [astuple(f) for f in found])
    store.save_result("duplicate-blocks", stamp,
                      {sign: [astuple(f) for f in block] for sign, block in memo.items()})
    return found


def _find(vault: Vault, kinds: tuple[str, ...], today: dt.date,
          documents: Iterable[tuple[str, Meta]],
          memo: dict[str, list[Finding]] | None = None) -> list[Finding]:
    """The findings of ``kinds`` among the notes of ``documents``, computed."""
    ledger = build_ledger(documents, vault.index.resolver)
    found: list[Finding] = []
    if "fact-conflict" in kinds:
        found += fact_conflicts(vault, ledger, today)
    if kinds != ("fact-conflict",):
        found += decision_findings(ledger, kinds, vault.index.resolver)
    if "expired-used" in kinds:
        found += expired_used(vault, ledger, today)
    if not LOCAL_KINDS.issuperset(kinds):
        found += _compared(vault, kinds, ledger, memo)
    return sorted(habits_apart(found)[0], key=_order)


def _local_finder(vault: Vault, today: dt.date) -> Finder:
    """The conflicts of :data:`LOCAL_KINDS` among the notes it is given."""
    kinds = tuple(kind for kind in KINDS if kind in LOCAL_KINDS)
    return lambda documents: _find(vault, kinds, today, documents)


def _order(finding: Finding) -> tuple[int, list[str], str]:
    """Findings by kind, then notes."""
    return (KINDS.index(finding.kind), finding.notes, finding.id)


def _compared(vault: Vault, kinds: tuple[str, ...], ledger: Ledger,
              memo: dict[str, list[Finding]] | None) -> list[Finding]:
    """The findings of ``kinds`` that compare notes with each other: duplicates, alias
    clashes, sync copies."""
    from .duplicates import (  # loads rapidfuzz
        duplicate_findings,
        mixed_versions,
        same_lessons,
        sync_copies,
    )

    found: list[Finding] = []
    if "duplicate" in kinds or "alias-clash" in kinds:
        words = particular_words(vault)
        found += [f for f in duplicate_findings(
            ledger.metas, words, lambda i: vault.notes[i].frontmatter, memo,
            kin=lambda ids: linked_together(vault.store, ids) or alike_in_words(ids, words),
            vault_of=vault.index.resolver.vault_of,
            linked=lambda name: linked_by_name(vault.store, name))
            if f.kind in kinds]
    if "duplicate" in kinds:
        resolver = vault.index.resolver
        found += same_lessons(ledger.metas, lambda value, note: value_key(value, note, resolver))
    if "sync-copy" in kinds:
        found += sync_copies(vault.index.other) + mixed_versions(vault)
    return found


def fact_conflicts(vault: Vault, ledger: Ledger, today: dt.date) -> list[Finding]:
    """Current facts about one entity and attribute with different values."""
    resolver = vault.index.resolver
    found = []
    for (entity, _), facts in sorted(ledger.groups.items()):
        if len(facts) < 2:
            continue
        current = [f for f in facts if holds(f, ledger, today) and _stated(f.value)]
        values = {value_key(f.value, f.source, resolver) for f in current}
        if len(values) > 1 and not _a_list(entity, current):
            found.append(_fact_finding(entity, current, ledger, vault.config.secret_patterns))
    return found


def _stated(value: object) -> bool:
    """False for an empty value (a template's ``question::`` left blank states nothing)."""
    return value not in (None, "", [], {}) and not (isinstance(value, str) and not value.strip())


def _a_list(entity: str, facts: list[Fact]) -> bool:
    """True when one note states several values about itself in inline fields only: a list, as
    Dataview reads a field repeated on several lines (a character sheet, a query's notes), not a
    contradiction (its property against one of its fields still is one)."""
    return all(f.source == entity and f.kind == "field" for f in facts)


def _where(fact: Fact) -> str:
    """``[[source]]:line``."""
    return f"[[{fact.source}]]:{fact.line}"


def _fact_finding(entity: str, facts: list[Fact], ledger: Ledger,
                  secrets: Mapping[str, str]) -> Finding:
    """One fact conflict, with the rule that picks a winner (credential values redacted)."""
    facts = sorted(facts, key=lambda f: (f.source, f.line))
    attribute = facts[0].attribute
    said = "; ".join(f"{redact_value(attribute, str(f.value), secrets)} ({_where(f)})"
                     for f in facts)
    winner, rule = choose(facts, ledger)
    notes = sorted({f.source for f in facts} | ({entity} if entity in ledger.metas else set()))
    ident = finding_id("fact-conflict", entity, attribute.casefold())
    suggestion = (f"{rule}: keep the value of [[{winner}]] (vaultmem resolve {ident} --auto)"
                  if winner else f"{rule}: vaultmem resolve {ident} --keep NOTE")
    sources = {f.source for f in facts}
    confidence, reason = ((0.6, "one note states both")
                          if len(sources) == 1 else (0.9, f"{len(sources)} notes disagree"))
    return Finding(ident, "fact-conflict",
                   notes, f"[[{entity}]] {attribute} is stated differently: {said}",
                   suggestion, facts[0].line, rule, winner, [_where(f) for f in facts],
                   confidence, reason)


def expired_used(vault: Vault, ledger: Ledger, today: dt.date) -> list[Finding]:
    """Facts past ``valid_until`` that MEMORY.md, NOW.md or an agent note still cite."""
    expired = {f.source: f for f in ledger.fact_notes
               if f.valid_until and f.valid_until[:10] < today.isoformat()
               and ledger.status(f.source) not in INACTIVE}
    citers = [i for i, meta in ledger.metas.items() if i in CITERS or meta.type == "agent"]
    found = []
    for citer in sorted(citers):
        seen: set[str] = set()
        for link in vault.notes[citer].links:
            fact = expired.get(link.resolved or "")
            if fact is not None and fact.source not in seen:  # one finding per citing note
                seen.add(fact.source)
                found.append(Finding(
                    finding_id("expired-used", fact.source, citer), "expired-used",
                    sorted([fact.source, citer]), f"[[{citer}]] line {link.line} cites "
                    f"[[{fact.source}]], which expired on {fact.valid_until}",
                    f"update [[{citer}]] or renew the fact", link.line, "",
                    None, [f"[[{citer}]]:{link.line}", _where(fact)]))
    return found
