"""What says a note is related to another: direct links, shared neighbours (weighed by what
they are, and plain Adamic-Adar), similar text, unlinked mentions, shared tags and recency, each
part 0..1 for :mod:`.notes` to weigh."""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from ... import clock
from ...part_graph import node_not_found
from .bridges import NOT_NOTES, Bridge, bridge_reasons, bridge_scores, bridges

if TYPE_CHECKING:
    from ...part_graph import Graph

RECENT_DAYS = 30
RARE_TAG = 200  # notes sharing a tag this rare become candidates
TAG_INDEX = "vaultmem_tag_index"
NO_MIDDLE = {"template", "excluded", "sync-copy"}  # never count as a shared neighbour
COCITED_GAP = 5  # lines apart in a note linking both: beyond, another part of it
UNWRITTEN = "a note nobody wrote yet"


class Evidence(NamedTuple):
    """What says a candidate is related to the note, each part 0..1: a direct link each way,
    shared neighbours weighed by what they are (:mod:`.bridges`), plain Adamic-Adar over
    every neighbour (written notes or not) and resource allocation (each shared neighbour
    1 / its degree), similar text (telling words; ``words``: every word of the note), the
    note writing the candidate's name or the other way round (unlinked mentions), shared rare
    tags and recency. Graph and tag parts are divided by their best among the note's
    candidates."""

    link_out: float = 0.0
    link_in: float = 0.0
    shared: float = 0.0
    adamic: float = 0.0
    text: float = 0.0
    names_it: float = 0.0
    named_by: float = 0.0
    tags: float = 0.0
    recent: float = 0.0
    cocited: float = 0.0
    allocation: float = 0.0
    words: float = 0.0


# A candidate's reasons, made when it is shown: of the graph, for the parts of the evidence
# that count (a part's name -> whether it counts)
Reasons = Callable[["Graph", Callable[[str], bool]], list[str]]
Said = dict[str, list[tuple[str, str]]]  # candidate -> (part of the evidence, reason)


def evidence(graph: Graph, note: str, *, depth: int = 2, today: dt.date | None = None,
             text: Mapping[str, float] | None = None,
             tagged: Mapping[str, list[str]] | None = None,
             meaning: Mapping[str, float] | None = None,
             mentions: Mapping[str, Mapping[str, int]] | None = None, cocite: bool = True,
             words: Mapping[str, float] | None = None
             ) -> tuple[dict[str, Evidence], dict[str, Reasons]]:
    """The :class:`Evidence` of every candidate (the notes within ``depth`` links, those
    sharing a rare tag, those with similar ``text`` (note id -> 0..1; ``meaning`` gives the
    part of it that is closeness in meaning; ``words``: likeness of every word) and those in
    ``mentions``: ``"names_it"`` and ``"named_by"``, each note id -> the line), and how to
    say why; ``cocite``: also the co-citation part."""
    if note not in graph:
        raise node_not_found(note)
    if depth < 1:
        raise ValueError("depth must be 1 or more")
    parts: dict[str, dict[str, float]] = defaultdict(dict)
    linked: Said = defaultdict(list)
    said: Said = defaultdict(list)
    _links(graph, note, parts, linked)
    shared = _shared_neighbours(graph, note, parts)
    _adamic(graph, note, parts, said)
    if cocite:  # a part with no weight is not worked out
        _cocited(graph, note, parts, said)
    _farther(graph, note, depth, parts)
    _mentioned(graph, note, mentions or {}, parts, said)
    _tags(graph, note, set(text or ()), tagged, parts, said)
    _text(graph, note, text or {}, meaning or {}, parts, said)
    _words(graph, note, words or {}, parts)
    _recency(graph, parts, said, today or clock.today())
    found = _normalised({n: p for n, p in parts.items() if n != note and _eligible(graph, n)})

    def why(other: str) -> Reasons:
        def reasons(g: Graph, counts: Callable[[str], bool]) -> list[str]:
            bridged = bridge_reasons(g, note, other, shared.get(other, [])) \
                if counts("shared") or counts("adamic") else []
            return ([text for part, text in linked[other] if counts(part)] + bridged
                    + [text for part, text in said[other] if counts(part)])
        return reasons
    return found, {other: why(other) for other in found}


def _normalised(parts: dict[str, dict[str, float]]) -> dict[str, Evidence]:
    """Each candidate's evidence, its graph and tag parts divided by their best."""
    tops = {key: max((p.get(key, 0.0) for p in parts.values()), default=0.0) or 1.0
            for key in ("shared", "adamic", "tags", "cocited", "allocation")}
    return {other: Evidence(**{key: value / tops.get(key, 1.0) for key, value in p.items()})
            for other, p in parts.items()}


def _eligible(graph: Graph, node: str) -> bool:
    """Notes, not missing targets, attachments or templates."""
    return node in graph and graph.nodes[node].get("type") not in NOT_NOTES


def _links(graph: Graph, note: str, parts: dict[str, dict[str, float]],
           reasons: Said) -> None:
    """Direct links, both ways."""
    title = graph.nodes[note].get("title", note)
    for target in graph.successors(note):
        parts[target]["link_out"] = 1.0
        reasons[target].append(("link_out", f"[[{title}]] links to it"))
    for source in graph.predecessors(note):
        parts[source]["link_in"] = 1.0
        reasons[source].append(("link_in", f"links to [[{title}]]"))


def _shared_neighbours(graph: Graph, note: str, parts: dict[str, dict[str, float]]
                       ) -> dict[str, list[Bridge]]:
    """Adamic-Adar over the notes both are linked with, weighed by what they are (see
    :mod:`.bridges`); the strongest bridges of each candidate, for its reasons."""
    shared = {}
    for other, (score, best) in bridge_scores(bridges(graph, note)).items():
        parts[other]["shared"] = score
        shared[other] = best
    return shared


def _adamic(graph: Graph, note: str, parts: dict[str, dict[str, float]],
            reasons: Said) -> None:
    """Plain Adamic-Adar over every node both are linked with, written or not (a shared
    link to a note nobody wrote yet names a shared topic too): 1 / log(its degree) each. The
    nodes that are not notes are named in the reasons (the notes are, as bridges). Resource
    allocation alongside: 1 / its degree each, so a hub shared counts for less still."""
    undirected = graph.to_undirected(as_view=True)
    for middle in sorted(undirected[note]):
        data = graph.nodes[middle]
        degree = data.get("degree", undirected.degree(middle))
        if degree < 2 or data.get("type") in NO_MIDDLE:
            continue
        share = 1 / math.log(degree)
        what = UNWRITTEN if data.get("missing") else data.get("type")
        for other in undirected[middle]:
            if other != note:
                parts[other]["adamic"] = parts[other].get("adamic", 0.0) + share
                parts[other]["allocation"] = parts[other].get("allocation", 0.0) + 1 / degree
                if what in (UNWRITTEN, "attachment"):
                    name = data.get("title", middle)
                    reasons[other].append(("adamic", f"both linked with [[{name}]] ({what})"))


def _cocited(graph: Graph, note: str, parts: dict[str, dict[str, float]],
             reasons: Said) -> None:
    """Notes another note links close to where it links this one (the same line counts 1,
    the next 1/2, ...; a list or a section of a hub names related notes together), summed
    over the notes linking both."""
    for citer in sorted(graph.predecessors(note)):
        if graph.nodes[citer].get("type") in NO_MIDDLE:
            continue
        near = graph.edges[citer, note].get("lines", [])
        for other in graph.successors(citer):
            if other == note or not near:
                continue
            lines = graph.edges[citer, other].get("lines", [])
            gap = min((abs(a - b) for a in near for b in lines), default=None)
            if gap is not None and gap <= COCITED_GAP:
                parts[other]["cocited"] = parts[other].get("cocited", 0.0) + 1 / (1 + gap)
                title = graph.nodes[citer].get("title", citer)
                reasons[other].append(("cocited", f"[[{title}]] links both, {gap} line(s) apart"))


def _farther(graph: Graph, note: str, depth: int,
             parts: dict[str, dict[str, float]]) -> None:
    """Notes within ``depth`` links become candidates (with what they scored so far)."""
    if depth <= 2:
        return
    import networkx as nx  # a part within more than two links is a networkx graph

    undirected = graph.to_undirected(as_view=True)
    for other in nx.single_source_shortest_path_length(undirected, note, cutoff=depth):
        parts[other].setdefault("shared", 0.0)


def _mentioned(graph: Graph, note: str, mentions: Mapping[str, Mapping[str, int]],
               parts: dict[str, dict[str, float]], reasons: Said) -> None:
    """The notes whose name ``note`` writes as plain words, and those writing its name."""
    title = graph.nodes[note].get("title", note)
    for other, line in mentions.get("names_it", {}).items():
        if other in graph:
            parts[other]["names_it"] = 1.0
            reasons[other].append(("names_it", f"[[{title}]] names it (line {line})"))
    for other, line in mentions.get("named_by", {}).items():
        if other in graph:
            parts[other]["named_by"] = 1.0
            reasons[other].append(("named_by", f"names [[{title}]] (line {line})"))


def _tags(graph: Graph, note: str, also: set[str],
          tagged: Mapping[str, list[str]] | None, parts: dict[str, dict[str, float]],
          reasons: Said) -> None:
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
    for other in sorted((set(parts) | also | rare) - {note}):
        if other not in graph:
            continue
        common = sorted(mine.intersection(graph.nodes[other].get("tags") or ()) & sizes.keys())
        if common:
            parts[other]["tags"] = sum(1 / math.log(max(2, sizes[t])) for t in common)
            reasons[other].append(("tags", "shared tag " + ", ".join(f"#{t}" for t in common)))


def _tag_members(graph: Graph) -> dict[str, list[str]]:
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


def _text(graph: Graph, note: str, text: Mapping[str, float],
          meaning: Mapping[str, float], parts: dict[str, dict[str, float]],
          reasons: Said) -> None:
    """Notes with similar words or meaning."""
    for other, value in text.items():
        if other != note and other in graph and value > 0:
            parts[other]["text"] = value
            part = f"; meaning {meaning[other]:.2f}" if other in meaning else ""
            reasons[other].append(("text", f"similar text ({value:.2f}{part})"))


def _words(graph: Graph, note: str, words: Mapping[str, float],
           parts: dict[str, dict[str, float]]) -> None:
    """Notes sharing the note's words, every one of them (the reason is said by ``text``)."""
    for other, value in words.items():
        if other != note and other in graph and value > 0:
            parts[other]["words"] = value


def _recency(graph: Graph, parts: dict[str, dict[str, float]],
             reasons: Said, today: dt.date) -> None:
    """Candidates dated in the last 30 days rank a little higher."""
    for other in parts:
        date = graph.nodes[other].get("date")
        if not date:
            continue
        try:
            age = (today - dt.date.fromisoformat(str(date)[:10])).days
        except ValueError:
            continue
        if 0 <= age < RECENT_DAYS:
            parts[other]["recent"] = 1 - age / RECENT_DAYS
            reasons[other].append(("recent", f"recent ({date})"))
