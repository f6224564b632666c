"""The index rows a link graph is built from: the whole vault's, or those around some notes.

A part of the graph comes with each node's degree in the whole graph, which the part alone
cannot tell for the nodes at its edge.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..read.record import GENERATED
from .degrees import COUNTED
from .rows import LinkRow, missing_name
from .sql import IN_ARRAY, array
from .store import Store

LINK_COLUMNS = "source, target, node, missing, ambiguous, kind, line, raw, subpath, embed"
_BROKEN = "missing OR ambiguous"
_PROBLEM = "missing OR ambiguous OR subpath != ''"


class GraphRows(NamedTuple):
    """Nodes and links of (part of) the graph, as stored."""

    notes: dict[str, dict[str, Any]]  # source note id -> node attributes
    roles: dict[str, str]  # other linked file (attachment, template, ...) -> its role
    links: list[LinkRow]  # every link of the notes in ``notes``, in order
    labels: dict[str, str]  # missing name (lower-cased) -> the spelling the node is named by
    degrees: dict[str, int]  # node -> neighbours in the whole graph (parts only)


def whole_graph_rows(store: Store) -> GraphRows:
    """Every source note, its links, and the files they reach."""
    notes = note_nodes(store)
    links = [_link(row) for row in store.query(
        f"SELECT {LINK_COLUMNS} FROM links ORDER BY source, rowid")]
    return GraphRows(notes, _roles(store, {r.node for r in links if not r.missing} - notes.keys()),
                     links, missing_labels(links), {})


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
    labels = missing_labels(_links_to_missing(store, everything - notes.keys()))
    roles = _roles(store, other - notes.keys() - labels.keys())
    return GraphRows(notes, roles, links, labels,
                     degrees(store, everything) if with_degrees else {})


def star_rows(store: Store, center: str, also: Iterable[str] = ()) -> GraphRows:
    """The rows of every link of ``center`` and of each node linked with it, either way (all
    that scoring by shared neighbours reads; not the links among the nodes farther out), plus
    the notes ``also`` (attributes only), with every node's degree in the whole graph."""
    middles = neighbours(store, {center}) | {center}
    links = _links_touching(store, middles)
    everything = {link.source for link in links} | {link.node for link in links} | middles
    everything |= set(also)
    notes = _note_attrs(store, everything)
    labels = missing_labels(_links_to_missing(store, everything - notes.keys()))
    other = {link.node for link in links if not link.missing} | (middles - notes.keys())
    roles = _roles(store, other - notes.keys() - labels.keys())
    return GraphRows(notes, roles, links, labels, degrees(store, everything))


def _links_touching(store: Store, nodes: set[str]) -> list[LinkRow]:
    """The links from or to any of ``nodes``, note by note, in order."""
    return [_link(row) for row in store.query(
        f"SELECT {LINK_COLUMNS} FROM links WHERE rowid IN (SELECT rowid FROM links WHERE "
        f"source IN {IN_ARRAY} UNION SELECT rowid FROM links WHERE node IN {IN_ARRAY}) "
        "ORDER BY source, rowid", (array(nodes), array(nodes)))]


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


class Reached(NamedTuple):
    """Where one stored link goes, for a note read back from the index."""

    target: str
    resolved: str | None
    ambiguous: bool


def reached_links(store: Store, ids: list[str]) -> dict[str, list[Reached]]:
    """Where the links of each note in ``ids`` go, in order (notes without links left out)."""
    found: dict[str, list[Reached]] = {}
    for source, target, node, missing, ambiguous in store.query(
            f"SELECT source, target, node, missing, ambiguous FROM links WHERE source IN "
            f"{IN_ARRAY} ORDER BY source, rowid", (array(ids),)):
        found.setdefault(source, []).append(
            Reached(target, None if missing else node, bool(ambiguous)))
    return found


def problem_links(store: Store, *, subpaths: bool = True,
                  sources: list[str] | None = None) -> list[LinkRow]:
    """Links that resolve to nothing or are ambiguous, and (``subpaths``) those that name a
    heading or block, note by note, in order: the links a check looks at (of the notes
    ``sources`` only, when given)."""
    wanted = _PROBLEM if subpaths else _BROKEN
    if sources is None:
        return [_link(row) for row in store.query(  # each condition is that of a partial index
            f"SELECT {LINK_COLUMNS} FROM links WHERE {wanted} ORDER BY source, rowid")]
    return [_link(row) for row in store.query(
        f"SELECT {LINK_COLUMNS} FROM links WHERE source IN {IN_ARRAY} AND ({wanted}) "
        "ORDER BY source, rowid", (array(sources),))]


def problem_sources(store: Store, *, subpaths: bool = True) -> list[str]:
    """The notes holding a link :func:`problem_links` returns, sorted."""
    wanted = _PROBLEM if subpaths else _BROKEN
    return [row[0] for row in store.query(
        f"SELECT DISTINCT source FROM links WHERE {wanted} ORDER BY source")]


def subpath_sources(store: Store, nodes: Iterable[str]) -> set[str]:
    """The notes with a link to a heading or block of one of ``nodes``."""
    return {row[0] for row in store.query(
        f"SELECT DISTINCT source FROM links WHERE node IN {IN_ARRAY} AND subpath != ''",
        (array(nodes),))}


class Anchors(NamedTuple):
    """What a link's ``#subpath`` can name in a note."""

    headings: list[str]  # in order
    blocks: set[str]


def anchors(store: Store, ids: set[str]) -> dict[str, Anchors]:
    """The headings and block ids of each source note among ``ids``."""
    found = {note_id: Anchors([], set()) for (note_id,) in store.query(
        f"SELECT id FROM notes WHERE NOT flags & {GENERATED} AND id IN {IN_ARRAY}",
        (array(ids),))}
    for note_id, block, text in store.query(
            f"SELECT note, block, text FROM anchors WHERE note IN {IN_ARRAY} ORDER BY rowid",
            (array(found),)):
        if block:
            found[note_id].blocks.add(text)
        else:
            found[note_id].headings.append(text)
    return found


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


def _links_between(store: Store, nodes: set[str]) -> list[LinkRow]:
    """The links from notes among ``nodes`` to nodes among them, note by note, in order."""
    # "+node": look up by source, then test node; probing every (source, node) pair is slower
    return [_link(row) for row in store.query(
        f"SELECT {LINK_COLUMNS} FROM links WHERE source IN {IN_ARRAY} AND +node IN {IN_ARRAY} "
        "ORDER BY source, rowid", (array(nodes), array(nodes)))]


def _links_to_missing(store: Store, keys: set[str]) -> list[LinkRow]:
    """Every link to the missing names among ``keys``."""
    return [_link(row) for row in store.query(
        f"SELECT {LINK_COLUMNS} FROM links WHERE missing AND node IN {IN_ARRAY}",
        (array(keys),))]


def missing_labels(links: Iterable[LinkRow]) -> dict[str, str]:
    """Each missing name's node label: the smallest of the spellings links use."""
    labels: dict[str, str] = {}
    for link in links:
        if link.missing:
            name = missing_name(link.target)
            labels[link.node] = min(labels.get(link.node, name), name)
    return labels


def _roles(store: Store, ids: set[str]) -> dict[str, str]:
    """The role of each of ``ids`` that is a file of the vault (attachment, template, ...)."""
    return dict(store.query(f"SELECT id, role FROM files WHERE id IN {IN_ARRAY}", (array(ids),)))


def _link(row: tuple[Any, ...]) -> LinkRow:
    """A stored link row as a :class:`LinkRow`."""
    return LinkRow(row[0], row[1], row[2], bool(row[3]), bool(row[4]), row[5], row[6], row[7],
                   row[8], bool(row[9]))
