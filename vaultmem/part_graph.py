"""A part of the vault's graph read from index rows, with the part of networkx's DiGraph
interface ``related`` reads: a note's neighbourhood without importing networkx."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeAlias, Union

from .index.graph_rows import GraphRows, NodeMemo, star_rows
from .index.store import Store

if TYPE_CHECKING:
    import networkx as nx

    Graph: TypeAlias = Union[nx.DiGraph, "PartGraph"]  # noqa: UP007 - the whole graph or a part

MISSING = "missing"
Attrs = dict[str, Any]
Edges = dict[tuple[str, str], Attrs]


class PartGraph:
    """Nodes with attributes, edges ``(source, target)`` with attributes, both ways.

    >>> part = PartGraph({"A": {"title": "A"}, "B": {}}, {("A", "B"): {"lines": [3]}})
    >>> list(part.successors("A")), list(part.predecessors("B")), part.edges["A", "B"]
    (['B'], ['A'], {'lines': [3]})
    >>> sorted(part.to_undirected(as_view=True)["B"]), part.has_edge("B", "A")
    (['A'], False)
    >>> other = part.copy()
    >>> other.remove_edge("A", "B")
    >>> other.has_edge("A", "B"), part.has_edge("A", "B")
    (False, True)
    """

    def __init__(self, nodes: dict[str, Attrs], edges: Edges) -> None:
        self.nodes = _Nodes(nodes)
        self.edges = edges
        self.graph: dict[str, Any] = {}
        self._out: dict[str, dict[str, None]] = {node: {} for node in nodes}
        self._in: dict[str, dict[str, None]] = {node: {} for node in nodes}
        for source, target in edges:
            self._out[source][target] = None
            self._in[target][source] = None

    def __contains__(self, node: object) -> bool:
        return node in self._out

    def successors(self, node: str) -> Iterator[str]:
        """The nodes ``node`` links to."""
        return iter(self._out[node])

    def predecessors(self, node: str) -> Iterator[str]:
        """The nodes linking ``node``."""
        return iter(self._in[node])

    def has_edge(self, source: str, target: str) -> bool:
        """True when ``source`` links ``target``."""
        return (source, target) in self.edges

    def number_of_nodes(self) -> int:
        """How many nodes the part holds."""
        return len(self._out)

    def copy(self) -> PartGraph:
        """A copy whose nodes' and edges' attributes can change without changing these."""
        return PartGraph({node: dict(attrs) for node, attrs in self.nodes(data=True)},
                         {pair: dict(attrs) for pair, attrs in self.edges.items()})

    def remove_edge(self, source: str, target: str) -> None:
        """Take the link ``source`` -> ``target`` out."""
        del self.edges[source, target]
        del self._out[source][target]
        del self._in[target][source]

    def to_undirected(self, *, as_view: bool = True) -> _Undirected:
        """The links either way (always a view)."""
        return _Undirected(self)


class _Nodes:
    """``graph.nodes``: a node's attributes by ``[node]``, every node by calling it."""

    def __init__(self, attrs: dict[str, Attrs]) -> None:
        self._attrs = attrs

    def __getitem__(self, node: str) -> Attrs:
        return self._attrs[node]

    def __iter__(self) -> Iterator[str]:
        return iter(self._attrs)

    def __call__(self, *, data: bool = False) -> Any:
        return self._attrs.items() if data else self._attrs.keys()


class _Undirected:
    """The neighbours of a node either way, and how many."""

    def __init__(self, part: PartGraph) -> None:
        self._part = part

    def __getitem__(self, node: str) -> dict[str, None]:
        return {**self._part._out[node], **self._part._in[node]}

    def degree(self, node: str) -> int:
        """How many nodes ``node`` is linked with."""
        return len(self[node])


def part_of_rows(rows: GraphRows) -> PartGraph:
    """The graph the index rows describe (see :func:`graph_attrs`)."""
    return PartGraph(*graph_attrs(rows))


def graph_attrs(rows: GraphRows) -> tuple[dict[str, Attrs], Edges]:
    """The nodes and edges, with their attributes, of the graph the index rows describe:
    same-note links counted in the source node's ``self_links``, missing targets as nodes of
    their label, and each node at the edge of a part carrying its whole-graph ``degree``."""
    nodes: dict[str, Attrs] = {note_id: dict(attrs) for note_id, attrs in rows.notes.items()}
    for node, role in rows.roles.items():
        nodes.setdefault(node, {}).update({"type": role, "title": node.rsplit("/", 1)[-1],
                                           "path": node, "missing": False, "self_links": 0})
    for label in rows.labels.values():
        nodes.setdefault(label, {}).update({"type": MISSING, "title": label, "path": None,
                                            "missing": True, "self_links": 0})
    edges: dict[tuple[str, str], tuple[set[str], list[int]]] = {}
    for link in rows.links:
        if link.node == link.source:
            nodes[link.source]["self_links"] += 1
            continue
        pair = (link.source, rows.labels[link.node] if link.missing else link.node)
        kinds, lines = edges.setdefault(pair, (set(), []))
        kinds.add(link.kind)
        lines.append(link.line)
    for pair in edges:  # a node known only by its links has no attributes
        for node in pair:
            nodes.setdefault(node, {})
    for node, degree in rows.degrees.items():
        if rows.labels.get(node, node) in nodes:
            nodes[rows.labels.get(node, node)]["degree"] = degree
    return nodes, {pair: {"kinds": sorted(kinds), "count": len(lines), "lines": lines}
                   for pair, (kinds, lines) in edges.items()}


def two_hop_part(store: Store, center: str, *, also: Iterable[str] = (),
                 known: NodeMemo | None = None) -> PartGraph:
    """Every link of ``center`` and of each node linked with it, read from the index, plus the
    notes ``also`` (attributes only), each node with its whole-graph ``degree``: what
    :func:`vaultmem.recall.related.notes.related` reads within two links. Node attributes in
    ``known`` (kept by a long-running reader of one state of the index) are not read again."""
    if not store.query("SELECT 1 FROM notes WHERE id = ?", (center,)):
        raise node_not_found(center)
    return part_of_rows(star_rows(store, center, also, known=known))


def node_not_found(node: str) -> Exception:
    """networkx's error for a node the graph does not hold (networkx imported only then)."""
    import networkx as nx

    error: Exception = nx.NodeNotFound(f"node {node!r} is not in the graph")
    return error
