"""Conflicting memory: contradicting facts, competing decisions, superseded-but-active entries,
duplicates, alias clashes, and expired facts still cited."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import astuple

from .. import clock
from ..index.doc import Meta
from ..index.store import Store, folder_stamp
from ..model import SHOWN, Fact, Finding
from ..read.resolve import Resolver
from ..secrets import redact_value
from ..vault import Vault
from .current_facts import INACTIVE, Ledger, build_ledger, holds, value_key

KINDS = ("fact-conflict", "decision-conflict", "superseded-active", "duplicate", "alias-clash",
         "expired-used", "sync-copy")
ACTIVE = {"approved", "active", "accepted", "confirmed", "current"}
CITERS = ("MEMORY", "NOW")
Supersedes = dict[str, set[str]]


def finding_id(kind: str, *parts: str) -> str:
    """A stable id: the same conflict keeps its id from run to run."""
    digest = hashlib.sha1("\x1f".join([kind, *sorted(parts)]).encode()).hexdigest()
    return f"{kind}:{digest[:8]}"


def find_conflicts(vault: Vault, *, kinds: tuple[str, ...] = KINDS,
                   today: dt.date | None = None, touching: set[str] | None = None,
                   least: float = SHOWN, quiet: bool = True) -> list[Finding]:
    """Every conflict of the given kinds at least ``least`` sure (0: all), sorted by kind and
    notes; with ``quiet``, not those the owner ignores (``.vaultmem/ignored.txt``).

    ``touching`` limits the work to conflicts involving those notes: only they, the notes
    linking them (where facts about them are stated) and the decisions are read.
    """
    today = today or clock.today()
    store = vault.store
    if store is None:
        known = _find(vault, kinds, today, touching)
    else:
        known = vault.derived.get(("conflicts", today))
        if known is None:  # computed once per vault state (kept in the cache), then reused
            known = vault.derived["conflicts", today] = _remembered(vault, store, today)
    ignored = vault.ignored
    return [f for f in known if f.kind in kinds and f.confidence >= least
            and (touching is None or touching & set(f.notes))
            and not (quiet and ignored.quiets(f.id, f.kind, f.notes))]


def _remembered(vault: Vault, store: Store, today: dt.date) -> list[Finding]:
    """All findings of an unchanged vault, from the cache (same notes, settings, names, files
    and day: same findings); else computed and stored."""
    index = vault.index  # current first
    key = f"{store.sources_generation()}|{today}|{folder_stamp('check')}"
    stored = store.load_result("conflicts", key)
    if stored is not None:
        return [Finding(*row) for row in stored]
    stamp = folder_stamp("check")
    rows = store.load_result("duplicate-blocks", stamp) or {}
    memo = {sign: [Finding(*row) for row in block] for sign, block in rows.items()}
    found = _find(vault, KINDS, today, None, memo)
    if store.generation() != index.generation:  # another process stored meanwhile: the key
        return found  # may be of a later state than the notes these were found in
    store.save_result("conflicts", key, [astuple(f) for f in found])
    store.save_result("duplicate-blocks", stamp,
                      {sign: [astuple(f) for f in block] for sign, block in memo.items()})
    return found


def _find(vault: Vault, kinds: tuple[str, ...], today: dt.date, touching: set[str] | None,
          memo: dict[str, list[Finding]] | None = None) -> list[Finding]:
    """The findings, computed."""
    from .duplicates import duplicate_findings, mixed_versions, sync_copies  # loads rapidfuzz

    documents: Iterable[tuple[str, Meta]] = vault.facts
    if touching is not None:
        wanted = _around(vault, touching)
        documents = [(i, meta) for i, meta in documents
                     if i in wanted or meta.type == "decision"]
    ledger = build_ledger(documents, vault.index.resolver)
    found: list[Finding] = []
    if "fact-conflict" in kinds:
        found += fact_conflicts(vault, ledger, today)
    if kinds != ("fact-conflict",):
        found += decision_findings(ledger, kinds, vault.index.resolver)
    if "duplicate" in kinds or "alias-clash" in kinds:
        found += [f for f in duplicate_findings(
            ledger.metas, vault.note_text, lambda i: vault.notes[i].frontmatter, memo)
                  if f.kind in kinds]
    if "expired-used" in kinds:
        found += expired_used(vault, ledger, today)
    if "sync-copy" in kinds:
        found += sync_copies(vault.index.other) + mixed_versions(vault)
    if touching is not None:
        found = [f for f in found if touching & set(f.notes)]
    return sorted(found, key=lambda f: (KINDS.index(f.kind), f.notes, f.id))


def _around(vault: Vault, notes: set[str]) -> set[str]:
    """The notes, and every note that links one of them."""
    wanted = set(notes)
    for note_id in notes:
        wanted |= set(vault.store.linking(note_id))
    return wanted


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


def scope(meta: Meta | None) -> int:
    """How specific a source is: 3 an agent's, 2 a project's, 1 global."""
    kind = meta.type if meta else ""
    keys = {fact.attribute for fact in meta.facts} if meta else set()
    if kind in ("agent", "lesson") or "agent" in keys:
        return 3
    if kind == "project" or keys & {"project", "applies_to"}:
        return 2
    return 1


def choose(facts: list[Fact], ledger: Ledger) -> tuple[str | None, str]:
    """The winning source: most specific, then most recent (all dates known), else nobody."""
    sources = sorted({f.source for f in facts})
    scopes = {s: scope(ledger.metas.get(s)) for s in sources}
    best = max(scopes.values())
    if list(scopes.values()).count(best) == 1:
        return next(s for s in sources if scopes[s] == best), "most specific wins"
    dates = {f.source: f.asserted for f in facts}
    if all(dates.values()):
        newest = max(dates.values())
        winners = [s for s, d in dates.items() if d == newest]
        if len(winners) == 1:
            return winners[0], "most recent wins"
    return None, "ask the user"


def supersede_graph(ledger: Ledger) -> Supersedes:
    """X -> {Y, ...} when X supersedes Y (from either side's property)."""
    graph: Supersedes = defaultdict(set)
    for fact in ledger.relations:
        if fact.source == fact.entity:
            continue  # a note superseding itself says nothing about any other
        if fact.attribute == "supersedes":
            graph[fact.source].add(fact.entity)
        else:
            graph[fact.entity].add(fact.source)
    return graph


def decision_findings(ledger: Ledger, kinds: tuple[str, ...],
                      resolver: Resolver) -> list[Finding]:
    """Competing approved decisions, and superseded entries still marked active."""
    graph = supersede_graph(ledger)
    found = []
    if "superseded-active" in kinds:
        found += _superseded_active(graph, ledger)
    if "decision-conflict" in kinds:
        found += _competing(graph, ledger, resolver) + _cycles(graph, ledger)
    return found


def _cycles(graph: Supersedes, ledger: Ledger) -> list[Finding]:
    """Entries that supersede each other (a cycle) while two or more are still active."""
    import networkx as nx  # only supersede chains need it; a context often reads none

    edges = nx.DiGraph([(n, o) for n, olders in graph.items() for o in olders])
    found = []
    for ring in nx.strongly_connected_components(edges):
        active = sorted(i for i in ring if ledger.status(i) in ACTIVE)
        if len(ring) > 1 and len(active) > 1:
            ident = finding_id("decision-conflict", *active)
            found.append(Finding(
                ident, "decision-conflict", active, "supersede each other: " + ", ".join(
                    f"[[{i}]]" for i in active) + " (at most one of them can hold)",
                f"ask the user: vaultmem resolve {ident} --keep DECISION", None, "ask the user",
                None, [f"[[{i}]]" for i in active]))
    return sorted(found, key=lambda f: f.notes)


def _superseded_active(graph: Supersedes, ledger: Ledger) -> list[Finding]:
    """An entry another supersedes whose own status still says active."""
    found = []
    for newer, older in sorted((n, o) for n, olders in graph.items() for o in olders):
        status = ledger.status(older)
        if status in ACTIVE and not _supersedes(graph, older, newer):  # cycles: _cycles
            found.append(Finding(
                finding_id("superseded-active", older, newer), "superseded-active",
                sorted([older, newer]), f"[[{older}]] is superseded by [[{newer}]] but its "
                f"status is still {status}", f"most recent wins: set [[{older}]] to superseded",
                None, "most recent wins", newer, [f"[[{newer}]]", f"[[{older}]]"]))
    return found


def _competing(graph: Supersedes, ledger: Ledger, resolver: Resolver) -> list[Finding]:
    """Two or more approved decisions on one topic, none superseding another."""
    topics: dict[str, list[Fact]] = {}
    for note_id, meta in ledger.metas.items():
        if meta.type != "decision" or meta.status not in ACTIVE:
            continue
        for raw in meta.facts:
            if raw.attribute == "topic" and raw.kind == "property":
                topic = value_key(raw.value, note_id, resolver)
                topics.setdefault(topic, []).append(Fact(note_id, "topic", raw.value, note_id,
                                                         raw.line, "property", raw.asserted))
    return [finding for topic, facts in sorted(topics.items())
            if (finding := _topic_finding(topic, facts, graph, ledger))]


def _topic_finding(topic: str, facts: list[Fact], graph: Supersedes,
                   ledger: Ledger) -> Finding | None:
    """The finding for one topic's approved decisions that do not supersede each other."""
    ids = sorted({f.source for f in facts})
    open_ = [d for d in ids if not any(_supersedes(graph, o, d) for o in ids if o != d)]
    if len(open_) < 2:
        return None
    dated = [f for f in facts if f.source in open_]
    winner, rule = choose(dated, ledger)
    listed = ", ".join(f"[[{d}]]" for d in open_)
    ident = finding_id("decision-conflict", *open_)
    suggestion = (f"{rule}: keep [[{winner}]] and supersede the others (vaultmem resolve "
                  f"{ident} --auto)" if winner else
                  f"{rule}: vaultmem resolve {ident} --keep DECISION")
    return Finding(ident, "decision-conflict", open_,
                   f"approved decisions on topic {str(facts[0].value)!r} compete: {listed}",
                   suggestion,
                   None, rule, winner, [f"[[{d}]]" for d in open_])


def _supersedes(graph: Supersedes, newer: str, older: str) -> bool:
    """True when ``newer`` supersedes ``older``, directly or through others (cycles end)."""
    seen, stack = {newer}, [newer]
    while stack:
        for nxt in graph.get(stack.pop(), ()):
            if nxt == older:
                return True
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


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
