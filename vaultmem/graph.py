"""The vault as a networkx DiGraph: one edge per (source, target) with kinds, count and lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from .model import Link, Note

MISSING = "missing"
ATTACHMENT = "attachment"


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
    graph = nx.DiGraph()
    for note in notes.values():
        graph.add_node(note.id, **node_attrs(note))
    missing: dict[str, str] = {}
    for note in notes.values():
        for link in note.links:
            _add_link(graph, note, link, missing, other or {})
    for data in graph.edges.values():
        data["kinds"] = sorted(data["kinds"])
    return graph


def node_attrs(note: Note) -> dict[str, Any]:
    """The attributes a note's node carries."""
    fm = note.frontmatter
    status = fm.get("status")
    return {
        "type": note.type,
        "title": note.title,
        "path": note.path,
        "tags": note.tag_names(),
        "aliases": list(note.aliases),
        "date": note.date or _scalar(fm.get("date")),
        "status": str(status).lower() if isinstance(status, str | int | float) else None,
        "missing": False,
        "self_links": 0,
    }


def _scalar(value: object) -> str | None:
    """A frontmatter value as a string when it is a plain scalar."""
    return str(value) if isinstance(value, str | int | float) else None


def _add_link(graph: nx.DiGraph, note: Note, link: Link, missing: dict[str, str],
              other: Mapping[str, str]) -> None:
    """Add one link's edge (or self-link count) to the graph."""
    if link.resolved == note.id:
        graph.nodes[note.id]["self_links"] += 1
        return
    target = link.resolved or _missing_node(graph, link, missing)
    if target not in graph:
        kind = other.get(target, ATTACHMENT)
        graph.add_node(target, type=kind, title=target.rsplit("/", 1)[-1], path=target,
                       missing=False, self_links=0)
    if not graph.has_edge(note.id, target):
        graph.add_edge(note.id, target, kinds=set(), count=0, lines=[])
    data = graph.edges[note.id, target]
    data["kinds"].add(edge_kind(link))
    data["count"] += 1
    data["lines"].append(link.line)


def _missing_node(graph: nx.DiGraph, link: Link, missing: dict[str, str]) -> str:
    """The node for an unresolved target; case variants share the smallest spelling."""
    name = link.target[:-3] if link.target.lower().endswith(".md") else link.target
    key = name.lower()
    current = missing.get(key)
    if current is None or name < current:
        if current is not None:
            nx.relabel_nodes(graph, {current: name}, copy=False)
        else:
            graph.add_node(name, type=MISSING, title=name, path=None, missing=True, self_links=0)
        missing[key] = name
    return missing[key]


def edge_kind(link: Link) -> str:
    """``body``, ``embed``, ``property:<key>`` or ``field:<key>``."""
    if link.kind in ("property", "field"):
        return f"{link.kind}:{link.key}"
    return "embed" if link.embed else "body"


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

