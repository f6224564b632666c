"""Graph output formats: text, node-link JSON, GraphML, GEXF and Obsidian-ready mermaid."""

from __future__ import annotations

import io
import json

import networkx as nx

MERMAID_SHAPES = {"missing": ('(["', '"])'), "attachment": ('[/"', '"/]')}


def export_graph(graph: nx.DiGraph, fmt: str) -> str:
    """``graph`` written in ``fmt`` (text, json, graphml, gexf, mermaid), ending in a newline."""
    if fmt == "json":
        data = nx.node_link_data(graph, edges="edges")
        return json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n"
    if fmt in ("graphml", "gexf"):
        buffer = io.BytesIO()
        writer = nx.write_graphml if fmt == "graphml" else nx.write_gexf
        writer(flat_copy(graph), buffer)
        return buffer.getvalue().decode("utf-8") + "\n"
    if fmt == "mermaid":
        return mermaid(graph)
    return graph_text(graph) + "\n"


def flat_copy(graph: nx.DiGraph) -> nx.DiGraph:
    """A copy whose attributes are scalars (GraphML/GEXF refuse lists and None)."""
    flat = nx.DiGraph()
    for node, data in graph.nodes(data=True):
        flat.add_node(node, **{k: _scalar(v) for k, v in data.items()})
    for source, target, data in graph.edges(data=True):
        flat.add_edge(source, target, **{k: _scalar(v) for k, v in data.items()})
    return flat


def _scalar(value: object) -> str | int | float | bool:
    """Lists joined with commas, None as an empty string."""
    if isinstance(value, list | tuple | set):
        return ",".join(str(item) for item in value)
    if value is None:
        return ""
    return value if isinstance(value, str | int | float | bool) else str(value)


def mermaid(graph: nx.DiGraph) -> str:
    """A fenced mermaid flowchart that renders when pasted into an Obsidian note.

    >>> print(mermaid(nx.DiGraph([("A", "B")])), end="")
    ```mermaid
    flowchart LR
      n0["A"]
      n1["B"]
      n0 --> n1
    ```
    """
    ids = {node: f"n{i}" for i, node in enumerate(sorted(graph.nodes))}
    rows = ["```mermaid", "flowchart LR"]
    for node in sorted(graph.nodes):
        kind = graph.nodes[node].get("type", "")
        left, right = MERMAID_SHAPES.get(kind, ('["', '"]'))
        label = str(graph.nodes[node].get("title") or node)
        rows.append(f"  {ids[node]}{left}{_escape(label)}{right}")
    for source, target in sorted(graph.edges):
        rows.append(f"  {ids[source]} --> {ids[target]}")
    rows.append("```")
    return "\n".join(rows) + "\n"


def _escape(label: str) -> str:
    """Mermaid label text: quotes and brackets as HTML entities."""
    return "".join({'"': "#quot;", "[": "#91;", "]": "#93;"}.get(c, c) for c in label)


def graph_text(graph: nx.DiGraph) -> str:
    """Nodes and edges, one per line, sorted."""
    rows = [f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges"]
    for source, target, data in sorted(graph.edges(data=True)):
        rows.append(f"{source} -> {target}  ({', '.join(data['kinds'])}; x{data['count']})")
    return "\n".join(rows)
