"""Decisions and entries that compete: approved decisions on one topic, superseded entries
still active, and entries superseding each other in a ring."""

from __future__ import annotations

import graphlib
from collections import defaultdict

from ..model import Fact, Finding
from ..read.resolve import Resolver
from .current_facts import Ledger, value_key
from .winners import choose, finding_id

ACTIVE = {"approved", "active", "accepted", "confirmed", "current"}
Supersedes = dict[str, set[str]]


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
    try:  # most vaults have no cycle, and networkx takes long to import
        graphlib.TopologicalSorter(graph).prepare()
        return []
    except graphlib.CycleError:
        import networkx as nx

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
