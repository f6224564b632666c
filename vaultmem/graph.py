"""The vault as a networkx DiGraph: one edge per (source, target) with kinds, count and lines."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from .index.graph_rows import (
    EdgeRow,
    GraphRows,
    ball,
    missing_labels,
    part_graph_rows,
)
from .index.rows import ATTACHMENT, LinkRow, edge_kind, missing_name, node_attrs
from .index.store import Store
from .model import Note
from .part_graph import graph_attrs


def build_graph(notes: Mapping[str, Note], other: Mapping[str, str] | None = None) -> nx.DiGraph:
    """A graph of ``notes`` (id -> Note, links already resolved).

    Same-note links are counted in the node attribute ``self_links``, never as edges.
    Unresolved targets become ``missing`` nodes, linked files ``attachment`` nodes, and linked
    templates/excluded/generated notes nodes of that type.

    >>> from vaultmem.model import Link, Note
    >>> a = Note(id="A", path="A.md", title="A", links=[Link("[[B]]", "B", line=3)])
    >>> g = build_graph({"A": a})
    >>> g.nodes["B"]["type"], g.edges["A", "B"]["kinds"], g.edges["A", "B"]["lines"]
    ('missing', ['body'], [3])
    """
    links = [LinkRow(note.id, link.target, link.resolved or missing_name(link.target).lower(),
                     link.resolved is None, link.ambiguous, edge_kind(link), link.line, link.raw,
                     link.subpath, link.embed) for note in notes.values() for link in note.links]
    roles = {link.node: (other or {}).get(link.node, ATTACHMENT) for link in links
             if not link.missing and link.node not in notes}
    nodes = {note.id: node_attrs(note) for note in notes.values()}
    edges = [EdgeRow(link.source, link.node, link.missing, link.kind, link.line) for link in links]
    return graph_of_rows(GraphRows(nodes, roles, edges, missing_labels(links), {}))


def graph_of_rows(rows: GraphRows) -> nx.DiGraph:
    """The graph the index rows describe (see :func:`build_graph`); nodes at the edge of a
    part of the graph carry their whole-graph ``degree``."""
    nodes, edges = graph_attrs(rows)
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes.items())
    graph.add_edges_from((source, target, attrs) for (source, target), attrs in edges.items())
    return graph


def ego_graph(store: Store, center: str, *, radius: int = 1, also: Iterable[str] = (),
              degrees: bool = True) -> nx.DiGraph:
    """The part of the vault's graph within ``radius`` links of ``center`` (either way), read
    from the index, plus the notes ``also`` (attributes only): what :func:`neighbourhood` gives
    on the whole graph, without building it. With ``degrees`` every node carries its
    ``degree`` in the whole graph, which the part alone cannot tell at its edge."""
    if not store.query("SELECT 1 FROM notes WHERE id = ?", (center,)):
        raise nx.NodeNotFound(f"node {center!r} is not a note of the index")
    return graph_of_rows(part_graph_rows(store, ball(store, center, radius), also,
                                         with_degrees=degrees))


def neighbourhood(graph: nx.DiGraph, node: str, *, depth: int = 1) -> nx.DiGraph:
    """The subgraph within ``depth`` hops of ``node``, in either direction.

    >>> g = nx.DiGraph([("a", "b"), ("b", "c"), ("d", "c")])
    >>> sorted(neighbourhood(g, "a", depth=2).nodes)
    ['a', 'b', 'c']
    """
    if node not in graph:
        raise nx.NodeNotFound(f"node {node!r} is not in the graph")
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    reach = nx.single_source_shortest_path_length(graph.to_undirected(as_view=True), node,
                                                  cutoff=depth)
    return graph.subgraph(sorted(reach)).copy()

