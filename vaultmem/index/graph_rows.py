"""The index rows a link graph is built from: the whole vault's, or those around some notes.

A part of the graph comes with each node's degree in the whole graph, which the part alone
cannot tell for the nodes at its edge.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable
from operator import attrgetter
from typing import Any, NamedTuple

from ..read.record import GENERATED
from .degrees import COUNTED
from .rows import LinkRow, missing_name
from .sql import IN_ARRAY, array
from .store import Store

EDGE_COLUMNS = "source, node, missing, kind, line"
MEMO_MOST = 50_000  # node attributes a memo keeps before it starts again

NodeMemo = dict[str, dict[str, Any] | None]  # node id -> attributes (None: not a source note)


class EdgeRow(NamedTuple):
    """One stored link, as much of it as its graph edge reads."""

    source: str  # the linking note's id
    node: str  # the node it reaches (when ``missing``, the name it lacks, lower-cased)
    missing: bool
    kind: str  # edge kind: body, embed, property:<key> or field:<key>
    line: int


class GraphRows(NamedTuple):
    """Nodes and links of (part of) the graph, as stored."""

    notes: dict[str, dict[str, Any]]  # source note id -> node attributes
    roles: dict[str, str]  # other linked file (attachment, template, ...) -> its role
    links: list[EdgeRow]  # every link of the notes in ``notes``, in order
    labels: dict[str, str]  # missing name (lower-cased) -> the spelling the node is named by
    degrees: dict[str, int]  # node -> neighbours in the whole graph (parts only)


def whole_graph_rows(store: Store) -> GraphRows:
    """Every source note, its links, and the files they reach."""
    notes = note_nodes(store)
    # in stored order, then by source (a stable sort): far quicker than SQLite sorting the view
    links = sorted(_edges(store, f"SELECT {EDGE_COLUMNS} FROM links ORDER BY rowid"),
                   key=attrgetter("source"))
    return GraphRows(notes, _roles(store, {r.node for r in links if not r.missing} - notes.keys()),
                     links, _labels_of_missing(store), {})


def ball(store: Store, center: str, radius: int) -> set[str]:
    """The nodes within ``radius`` links of ``center``, either way (``center`` included)."""
    seen, ring = {center}, {center}
    for _ in range(radius):
        ring = neighbours(store, ring) - seen
        seen |= ring
    return seen


def neighbours(store: Store, nodes: set[str]) -> set[str]:
    """Nodes linked with any of ``nodes``, either way (same-note links do not count)."""
    return {row[0] for row in store.query(
        f"SELECT node FROM links WHERE source IN {IN_ARRAY} AND node != source "
        f"UNION SELECT source FROM links WHERE node IN {IN_ARRAY} AND node != source",
        (array(nodes), array(nodes)))}


def part_graph_rows(store: Store, nodes: set[str], also: Iterable[str] = (), *,
                    with_degrees: bool = True) -> GraphRows:
    """The rows of the subgraph on ``nodes`` (plus the notes ``also``, with their attributes
    but without their links), with every node's degree in the whole graph if asked."""
    everything = nodes | set(also)
    notes = _note_attrs(store, everything)
    links = _links_between(store, nodes)
    other = {link.node for link in links if not link.missing} | (nodes - notes.keys())
    labels = _labels_of_missing(store, {link.node for link in links if link.missing})
    roles = _roles(store, other - notes.keys() - labels.keys())
    return GraphRows(notes, roles, links, labels,
                     degrees(store, everything) if with_degrees else {})


def star_rows(store: Store, center: str, also: Iterable[str] = (), *,
              known: NodeMemo | None = None) -> GraphRows:
    """The rows of every link of ``center`` and of each node linked with it, either way (all
    that scoring by shared neighbours reads; not the links among the nodes farther out), plus
    the notes ``also`` (attributes only), with every node's degree in the whole graph; node
    attributes already in ``known`` are not read again (and those read are added to it)."""
    middles = neighbours(store, {center}) | {center}
    links = _links_touching(store, middles)
    everything = {link.source for link in links} | {link.node for link in links} | middles
    everything |= set(also)
    notes = _note_attrs(store, everything) if known is None else _remembered_attrs(
        store, everything, known)
    labels = _labels_of_missing(store, {link.node for link in links if link.missing})
    other = {link.node for link in links if not link.missing} | (middles - notes.keys())
    roles = _roles(store, other - notes.keys() - labels.keys())
    return GraphRows(notes, roles, links, labels, degrees(store, everything))


def _remembered_attrs(store: Store, ids: set[str], known: NodeMemo) -> dict[str, dict[str, Any]]:
    """:func:`_note_attrs` read through ``known`` (None: not a source note)."""
    unknown = ids - known.keys()
    if len(known) + len(unknown) > MEMO_MOST:  # a long-running process keeps a bounded memo
        known.clear()
        unknown = ids
    read = _note_attrs(store, unknown)
    known.update({node: read.get(node) for node in unknown})
    return {node: attrs for node in ids if (attrs := known.get(node)) is not None}


def _links_touching(store: Store, nodes: set[str]) -> list[EdgeRow]:
    """The links from or to any of ``nodes``, note by note, in order."""
    return _edges(store, f"SELECT {EDGE_COLUMNS} FROM links WHERE rowid IN (SELECT rowid FROM "
                  f"links WHERE source IN {IN_ARRAY} UNION SELECT rowid FROM links WHERE node "
                  f"IN {IN_ARRAY}) ORDER BY source, rowid", (array(nodes), array(nodes)))


def degrees(store: Store, nodes: set[str]) -> dict[str, int]:
    """How many distinct nodes each of ``nodes`` is linked with, either way, in the whole
    graph (same-note links do not count): as stored, or counted for a node marked stale."""
    found = dict.fromkeys(nodes, 0)
    wanted = array(nodes)
    found.update(store.query(f"SELECT node, degree FROM degrees WHERE node IN {IN_ARRAY}",
                             (wanted,)))
    stale = [row[0] for row in store.query(
        f"SELECT node FROM stale_degrees WHERE node IN {IN_ARRAY}", (wanted,))]
    if stale:
        found.update(dict.fromkeys(stale, 0))
        found.update(store.query(COUNTED, (array(stale), array(stale))))
    return found


def tag_members(store: Store, tags: Iterable[str], *, most: int) -> dict[str, list[str]]:
    """The notes carrying each of ``tags`` that is on at most ``most`` notes, sorted."""
    wanted = sorted(set(tags))
    if not wanted:
        return {}
    counts = dict(store.query(f"SELECT tag, COUNT(*) FROM tags WHERE tag IN {IN_ARRAY} "
                              "GROUP BY tag", (array(wanted),)))
    return {tag: [row[0] for row in store.query(
        "SELECT note FROM tags WHERE tag = ? ORDER BY note", (tag,))]
        for tag in wanted if 0 < counts.get(tag, 0) <= most}


def note_nodes(store: Store, ids: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """Node attributes of the source notes (those among ``ids``), by id."""
    if ids is None:
        return {path[:-3]: marshal.loads(blob) for path, blob in store.query(
            f"SELECT path, node FROM notes WHERE NOT flags & {GENERATED} ORDER BY path")}
    return _note_attrs(store, ids)


def note_paths(store: Store, ids: set[str]) -> dict[str, str]:
    """The vault path of each source note among ``ids``, by id (not its other attributes)."""
    return dict(store.query(f"SELECT id, path FROM notes WHERE NOT flags & {GENERATED} AND id "
                            f"IN {IN_ARRAY}", (array(ids),)))


def _note_attrs(store: Store, ids: set[str]) -> dict[str, dict[str, Any]]:
    """Node attributes of the source notes among ``ids``."""
    return {note_id: marshal.loads(blob) for note_id, blob in store.query(
        f"SELECT id, node FROM notes WHERE NOT flags & {GENERATED} AND id IN {IN_ARRAY}",
        (array(ids),))}


def _links_between(store: Store, nodes: set[str]) -> list[EdgeRow]:
    """The links from notes among ``nodes`` to nodes among them, note by note, in order."""
    # "+node": look up by source, then test node; probing every (source, node) pair is slower
    return _edges(store, f"SELECT {EDGE_COLUMNS} FROM links WHERE source IN {IN_ARRAY} AND "
                  f"+node IN {IN_ARRAY} ORDER BY source, rowid", (array(nodes), array(nodes)))


def _edges(store: Store, sql: str, args: tuple[Any, ...] = ()) -> list[EdgeRow]:
    """The :class:`EdgeRow` of each row ``sql`` selects (:data:`EDGE_COLUMNS`)."""
    return [EdgeRow(source, node, bool(missing), kind, line)
            for source, node, missing, kind, line in store.query(sql, args)]


def _labels_of_missing(store: Store, keys: set[str] | None = None) -> dict[str, str]:
    """The node label of each missing name (among ``keys``), from every link to it."""
    rows = store.query("SELECT node, target FROM links WHERE missing") if keys is None else \
        store.query(f"SELECT node, target FROM links WHERE missing AND node IN {IN_ARRAY}",
                    (array(keys),))
    return _smallest_spellings(rows)


def missing_labels(links: Iterable[LinkRow]) -> dict[str, str]:
    """Each missing name's node label: the smallest of the spellings links use."""
    return _smallest_spellings((link.node, link.target) for link in links if link.missing)


def _smallest_spellings(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each missing name's smallest spelling among (node, link target) pairs."""
    labels: dict[str, str] = {}
    for node, target in pairs:
        name = missing_name(target)
        labels[node] = min(labels.get(node, name), name)
    return labels


def _roles(store: Store, ids: set[str]) -> dict[str, str]:
    """The role of each of ``ids`` that is a file of the vault (attachment, template, ...)."""
    return dict(store.query(f"SELECT id, role FROM files WHERE id IN {IN_ARRAY}", (array(ids),)))
