"""Entries related to a note, from the graph: links, shared neighbours, tags, text and recency."""

from __future__ import annotations

import datetime as dt
import heapq
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import networkx as nx

from .. import clock
from ..model import Json
from .bridges import NOT_NOTES, PROPERTY_WEIGHT, Bridge, bridge_reasons, bridge_scores, bridges

if TYPE_CHECKING:
    from ..vault import Vault

LINK_WEIGHT = 2.0  # a direct link, each way
TAG_WEIGHT = PROPERTY_WEIGHT  # a tag is a property: sharing a rare one is like sharing a link
RECENT_DAYS = 30
RECENT_WEIGHT = 0.3
TEXT_WEIGHT = 1.0  # the most similar text (1, the others relative to it): half a direct link
RARE_TAG = 200  # notes sharing a tag this rare become candidates
TAG_INDEX = "vaultmem_tag_index"


@dataclass
class Related:
    """A related note, its score and the reasons."""

    id: str
    title: str
    type: str
    score: float
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> Json:
        """The ``related --json`` result shape."""
        return asdict(self)


def related(graph: nx.DiGraph, note: str, *, limit: int = 10, depth: int = 2,
            today: dt.date | None = None, text: Mapping[str, float] | None = None,
            tagged: Mapping[str, list[str]] | None = None,
            meaning: Mapping[str, float] | None = None) -> list[Related]:
    """Notes related to ``note``, best first (ties by id).

    ``graph`` may be the whole graph or a part of it with ``degree`` node attributes: the
    links of ``note`` and of its neighbours (:func:`vaultmem.graph.two_hop_graph`) for a
    ``depth`` of 2, the part within ``depth`` links (:func:`vaultmem.graph.ego_graph`) for
    more; ``tagged`` gives the notes carrying each rare tag of ``note`` when it is a part.

    Scores add up: a direct link either way, Adamic-Adar over the notes both are linked with
    (a shared rare note counts more than a shared hub, a shared property twice, a daily note a
    quarter and all daily notes together less than a link; missing notes, attachments and
    templates not at all: :func:`vaultmem.recall.bridges.bridges`), Adamic-Adar over shared
    tags (a tag on hundreds of notes says nothing), similar text (``text``: note id -> 0..1,
    e.g. from :func:`vaultmem.recall.similar_notes.similar`; ``meaning`` gives the part of it
    that is closeness in meaning, for the reasons) and recency. Candidates are the
    notes within ``depth`` links, those sharing a tag and those with similar text.

    >>> g = nx.DiGraph([("A", "P"), ("B", "P"), ("A", "C")])
    >>> nx.set_node_attributes(g, {n: {"type": "note", "title": n, "tags": []} for n in g})
    >>> [(r.id, r.reasons) for r in related(g, "A")]
    [('C', ['[[A]] links to it']), ('P', ['[[A]] links to it']), ('B', ['both link [[P]]'])]
    """
    if note not in graph:
        raise nx.NodeNotFound(f"node {note!r} is not in the graph")
    if depth < 1 or limit < 1:
        raise ValueError("depth and limit must be 1 or more")
    undirected = graph.to_undirected(as_view=True)
    scores: dict[str, float] = defaultdict(float)
    linked: dict[str, list[str]] = defaultdict(list)  # reasons are in this order
    shared: dict[str, list[Bridge]] = {}
    reasons: dict[str, list[str]] = defaultdict(list)
    _links(graph, note, scores, linked)
    _shared_neighbours(graph, note, scores, shared)
    _farther(undirected, note, depth, scores)
    _tags(graph, note, set(text or ()), tagged, scores, reasons)
    _text(graph, note, text or {}, meaning or {}, scores, reasons)
    _recency(graph, scores, reasons, today or clock.today())
    best = heapq.nsmallest(limit, ((-round(s, 4), n) for n, s in scores.items()
                                   if n != note and _eligible(graph, n)))
    return [Related(n, graph.nodes[n].get("title", n), graph.nodes[n].get("type", ""), -s,
                    linked[n] + bridge_reasons(graph, note, n, shared.get(n, [])) + reasons[n])
            for s, n in best]


def _eligible(graph: nx.DiGraph, node: str) -> bool:
    """Notes, not missing targets, attachments or templates."""
    return graph.nodes[node].get("type") not in NOT_NOTES


def _links(graph: nx.DiGraph, note: str, scores: dict[str, float],
           reasons: dict[str, list[str]]) -> None:
    """Direct links, both ways."""
    title = graph.nodes[note].get("title", note)
    for target in graph.successors(note):
        scores[target] += LINK_WEIGHT
        reasons[target].append(f"[[{title}]] links to it")
    for source in graph.predecessors(note):
        scores[source] += LINK_WEIGHT
        reasons[source].append(f"links to [[{title}]]")


def _shared_neighbours(graph: nx.DiGraph, note: str, scores: dict[str, float],
                       shared: dict[str, list[Bridge]]) -> None:
    """Adamic-Adar over the notes both are linked with (see :mod:`.bridges`); the strongest
    bridges of each candidate go to ``shared``, for its reasons."""
    for other, (score, best) in bridge_scores(bridges(graph, note)).items():
        scores[other] += score
        shared[other] = best


def _farther(undirected: nx.Graph, note: str, depth: int, scores: dict[str, float]) -> None:
    """Notes within ``depth`` links become candidates (with what they scored so far)."""
    if depth <= 2:
        return
    for other in nx.single_source_shortest_path_length(undirected, note, cutoff=depth):
        scores[other] += 0.0


def _tags(graph: nx.DiGraph, note: str, also: set[str],
          tagged: Mapping[str, list[str]] | None, scores: dict[str, float],
          reasons: dict[str, list[str]]) -> None:
    """Shared tags, for the candidates so far, ``also`` and the notes sharing a tag: as
    Adamic-Adar over tags, each rare tag both carry adds 1 / log(notes carrying it), so a tag
    on two notes says much and one on hundreds (more than ``RARE_TAG``) nothing."""
    mine = set(graph.nodes[note].get("tags") or [])
    if not mine:
        return
    members = _tag_members(graph) if tagged is None else tagged
    sizes = {tag: sum(other in graph for other in members[tag]) for tag in mine
             if 0 < len(members.get(tag, ())) <= RARE_TAG}
    rare = {other for tag in sizes for other in members[tag]}
    for other in sorted((set(scores) | also | rare) - {note}):
        if other not in graph:
            continue
        common = sorted(mine.intersection(graph.nodes[other].get("tags") or ()) & sizes.keys())
        if common:
            scores[other] += TAG_WEIGHT * sum(1 / math.log(max(2, sizes[t])) for t in common)
            reasons[other].append("shared tag " + ", ".join(f"#{t}" for t in common))


def _tag_members(graph: nx.DiGraph) -> dict[str, list[str]]:
    """Notes by tag, built once per graph and kept in ``graph.graph`` (rebuilt if the number
    of nodes changes)."""
    kept = graph.graph.get(TAG_INDEX)
    if kept is None or kept[0] != graph.number_of_nodes():
        members: dict[str, list[str]] = defaultdict(list)
        for node, data in graph.nodes(data=True):
            for tag in data.get("tags") or ():
                members[tag].append(node)
        kept = graph.graph[TAG_INDEX] = (graph.number_of_nodes(), dict(members))
    found: dict[str, list[str]] = kept[1]
    return found


def _text(graph: nx.DiGraph, note: str, text: Mapping[str, float],
          meaning: Mapping[str, float], scores: dict[str, float],
          reasons: dict[str, list[str]]) -> None:
    """Notes with similar words or meaning."""
    for other, value in text.items():
        if other != note and other in graph and value > 0:
            scores[other] += TEXT_WEIGHT * value
            part = f"; meaning {meaning[other]:.2f}" if other in meaning else ""
            reasons[other].append(f"similar text ({value:.2f}{part})")


def _recency(graph: nx.DiGraph, scores: dict[str, float], reasons: dict[str, list[str]],
             today: dt.date) -> None:
    """Candidates dated in the last 30 days rank a little higher."""
    for other in scores:
        date = graph.nodes[other].get("date")
        if not date:
            continue
        try:
            age = (today - dt.date.fromisoformat(str(date)[:10])).days
        except ValueError:
            continue
        if 0 <= age < RECENT_DAYS:
            scores[other] += RECENT_WEIGHT * (1 - age / RECENT_DAYS)
            reasons[other].append(f"recent ({date})")


def related_notes(vault: Vault, name: str, *, limit: int = 10, depth: int = 2,
                  today: dt.date | None = None) -> tuple[str, list[Related]]:
    """(note id, related notes) for a note given by id, name or path: :func:`related` over the
    part of the graph around it, read from the index, with text similarity from the search
    index; what ``related`` and the MCP tool answer."""
    from ..graph import ego_graph, two_hop_graph
    from ..index.graph_rows import tag_members
    from .similar_notes import similar, similar_in_meaning

    note = vault.note(name)
    words = similar(vault, vault.note_text(note.id), exclude=note.id)
    meaning = similar_in_meaning(vault, note.id)
    text = _fused(words, meaning, vault.config.semantic.search_weight)
    tagged = tag_members(vault.store, note.tag_names(), most=RARE_TAG)
    also = {*text, *(member for members in tagged.values() for member in members)}
    known = vault.derived.setdefault("node attributes", {})
    graph = (two_hop_graph(vault.store, note.id, also=also, known=known) if depth <= 2 else
             ego_graph(vault.store, note.id, radius=depth, also=also))
    return note.id, related(graph, note.id, limit=limit, depth=depth, today=today, text=text,
                            tagged=tagged, meaning=meaning)


def _fused(words: Mapping[str, float], meaning: Mapping[str, float],
           weight: float) -> dict[str, float]:
    """Text likeness: words plus ``weight`` times meaning, divided by the best (0..1)."""
    fused = {other: words.get(other, 0.0) + weight * meaning.get(other, 0.0)
             for other in {*words, *meaning}}
    top = max(fused.values(), default=0.0) or 1.0
    return {other: value / top for other, value in fused.items()}
