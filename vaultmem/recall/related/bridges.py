"""Evidence through shared neighbours: which linked nodes are bridges between two notes, how
much each says (Adamic-Adar, weighed by what the bridge is and how both are linked with it),
and the reason shown for it."""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ...part_graph import node_not_found

if TYPE_CHECKING:
    from ...part_graph import Graph

NOT_NOTES = {"missing", "attachment", "template", "excluded", "sync-copy"}  # never bridges
DAILY_WEIGHT = 0.25  # a daily or other periodic note links what happened on one day, related or not
PROPERTY_WEIGHT = 2.0  # both name the bridge under the same property or inline-field key
DAILY_MOST = 1.0  # co-mentions in daily notes together add at most this (below a direct link)
PERIOD = re.compile(r"\d{4}-(?:\d{2}(?:-\d{2})?|W\d{2}|Q[1-4]|M\d{2})")  # day/week/month titles
GROUP_TYPES = {"project": "same project", "person": "same person", "agent": "same agent"}
SHOWN = 2  # bridges named in the reasons of one candidate


class Bridge(NamedTuple):
    """One shared neighbour of the note and a candidate: what it adds, and why."""

    score: float
    middle: str
    key: str  # the property both link it under ("" none)
    weak: bool  # a daily note


def is_daily(data: Mapping[str, Any]) -> bool:
    """A daily note, or a note titled as a day, week, month or quarter (periodic notes)."""
    return data.get("type") == "daily" or _periodic(str(data.get("title", "")))


@functools.lru_cache(maxsize=65536)
def _periodic(title: str) -> bool:
    """True for a title naming a day, week, month or quarter (asked of many nodes, often)."""
    return bool(PERIOD.fullmatch(title))


def bridges(graph: Graph, note: str) -> dict[str, list[Bridge]]:
    """The bridges between ``note`` and each node two links away, either way.

    A bridge is a note (missing notes, attachments and templates say nothing about what links
    them); it adds 1 / log(its degree: the ``degree`` attribute, which a part of the graph
    gives from the whole graph, else its neighbours), times ``PROPERTY_WEIGHT`` when both link
    it under the same property or inline-field key, or ``DAILY_WEIGHT`` for a daily or other
    periodic note (unless ``note`` is one too).

    >>> import networkx as nx
    >>> g = nx.DiGraph([("A", "P"), ("B", "P"), ("A", "x.png"), ("B", "x.png")])
    >>> nx.set_node_attributes(g, {n: {"type": "note", "title": n} for n in g})
    >>> g.nodes["x.png"]["type"] = "attachment"
    >>> found = bridges(g, "A")
    >>> [(b.middle, round(b.score, 3)) for b in found["B"]]
    [('P', 1.443)]
    >>> bridge_reasons(g, "A", "B", bridge_scores(found)["B"].best)
    ['both link [[P]]']
    """
    if note not in graph:
        raise node_not_found(note)
    undirected = graph.to_undirected(as_view=True)
    daily = is_daily(graph.nodes[note])
    found: dict[str, list[Bridge]] = defaultdict(list)
    for middle in sorted(undirected[note]):
        data = graph.nodes[middle]
        degree = data.get("degree", undirected.degree(middle))
        if data.get("type") in NOT_NOTES or degree < 2:
            continue
        weak = is_daily(data) and not daily  # days are a daily note's context
        share = (DAILY_WEIGHT if weak else 1.0) / math.log(degree)
        mine = set() if weak else _property_keys(graph, note, middle)
        for other in undirected[middle]:
            if other != note:
                keys = mine & _property_keys(graph, other, middle) if mine else mine
                found[other].append(Bridge(share * PROPERTY_WEIGHT if keys else share, middle,
                                           min(keys, default=""), weak))
    return found


def _property_keys(graph: Graph, source: str, middle: str) -> set[str]:
    """The property and inline-field keys under which ``source`` links ``middle``."""
    if not graph.has_edge(source, middle):
        return set()
    return {kind.split(":", 1)[1] for kind in graph.edges[source, middle].get("kinds", ())
            if kind.startswith(("property:", "field:"))}


def _reason(graph: Graph, note: str, other: str, bridge: Bridge) -> str:
    """Why a bridge counts: a shared project, person or agent, a shared property, a note
    linking both, both linking it, or a path through it; a daily note's marked weak."""
    data = graph.nodes[bridge.middle]
    name = f"[[{data.get('title', bridge.middle)}]]"
    if data.get("type") in GROUP_TYPES:
        return f"{GROUP_TYPES[data['type']]} {name}"
    if bridge.key:
        return f"same {bridge.key} {name}"
    name = f"daily note {name}" if is_daily(data) else name
    if graph.has_edge(bridge.middle, note) and graph.has_edge(bridge.middle, other):
        text = f"both linked from {name}"
    elif graph.has_edge(note, bridge.middle) and graph.has_edge(other, bridge.middle):
        text = f"both link {name}"
    else:
        text = f"linked through {name}"
    return text + (" (weak)" if bridge.weak else "")


class Scored(NamedTuple):
    """A candidate's score from its bridges, and the strongest of them (for its reasons)."""

    score: float
    best: list[Bridge]


def bridge_scores(found: Mapping[str, list[Bridge]]) -> dict[str, Scored]:
    """Each candidate's score from its :func:`bridges` and the ``SHOWN`` strongest: daily
    notes together add at most ``DAILY_MOST`` (many days mentioning both are still days)."""
    result = {}
    for other, items in found.items():
        weak = sum(b.score for b in items if b.weak)
        score = sum(b.score for b in items if not b.weak)
        score += DAILY_MOST * (1 - math.exp(-weak / DAILY_MOST))
        best = items if len(items) == 1 else sorted(items, key=lambda b: (-b.score, b.middle))
        result[other] = Scored(score, best[:SHOWN])
    return result


def bridge_reasons(graph: Graph, note: str, other: str, best: list[Bridge]) -> list[str]:
    """The reasons naming the bridges ``best`` between ``note`` and ``other`` (asked only of
    the candidates shown: most never are)."""
    return [_reason(graph, note, other, bridge) for bridge in best]
