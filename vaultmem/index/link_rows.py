"""The stored links a check or a note read back looks at: where each goes, those that may be
broken, and the headings and block ids a link's ``#subpath`` can name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from ..read.record import GENERATED
from ..read.resolve import link_name
from .rows import ATTACHMENT, LinkRow
from .sql import IN_ARRAY, array
from .store import Store

LINK_COLUMNS = "source, target, node, missing, ambiguous, kind, line, raw, subpath, embed"
_BROKEN = "missing OR ambiguous"
_PROBLEM = "missing OR ambiguous OR subpath != ''"


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


class Backlink(NamedTuple):
    """A link from another source note to a note: where it is, as written."""

    source: str
    line: int
    raw: str


def backlinks_of(store: Store, note_id: str) -> list[Backlink]:
    """Every link from another source note that resolves to ``note_id``, by note, in order
    (read from the link rows: no linking note is read whole)."""
    return [Backlink(*row) for row in store.query(
        "SELECT l.source, l.line, l.raw FROM links AS l JOIN files AS f ON f.id = l.source "
        "WHERE l.node = ? AND NOT l.missing AND l.source != ? AND f.role = 'source' "
        "ORDER BY l.source, l.rowid", (note_id, note_id))]  # each link's source looked up


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


def ambiguous_links(store: Store, sources: list[str]) -> list[LinkRow]:
    """The links of the notes ``sources`` that several files' names match."""
    return [_link(row) for row in store.query(
        f"SELECT {LINK_COLUMNS} FROM links WHERE source IN {IN_ARRAY} AND ambiguous "
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


def notes_named(store: Store, target: str) -> list[str]:
    """Ids of the notes a link to ``target`` may reach by its file name (attachments aside),
    sorted: the candidates among which resolution picks one."""
    return [row[0] for row in store.query(
        "SELECT id FROM files WHERE name = ? AND role != ? ORDER BY id",
        (link_name(target), ATTACHMENT))]


def linked_by_name(store: Store, name: str) -> bool:
    """True when some link is written to the name ``name`` (a file name or an alias; resolved
    or not, case aside)."""
    return bool(store.query("SELECT 1 FROM link_store WHERE name = ? LIMIT 1",
                            (link_name(name),)))


def sources_naming(store: Store, name: str) -> list[str]:
    """Ids of the notes with a link written to the file name ``name`` (resolved or not),
    sorted: those whose links a new note of that name may take."""
    return [row[0] for row in store.query(
        "SELECT DISTINCT source FROM links WHERE name = ? ORDER BY source", (link_name(name),))]


def sources_naming_any(store: Store, names: Iterable[str]) -> set[str]:
    """Ids of the notes with a link written to one of ``names`` (file names, or note ids and
    paths, named by their last part), resolved or not."""
    wanted = array(link_name(name.rpartition("/")[2]) for name in names)
    return {row[0] for row in store.query(
        f"SELECT DISTINCT source FROM links WHERE name IN {IN_ARRAY}", (wanted,))}


def linked_into(store: Store, folder: str) -> bool:
    """True when a note outside ``folder`` links a note inside it (the vault reaches it)."""
    inside = f"{folder}/"
    return bool(store.query(
        "SELECT 1 FROM links WHERE substr(node, 1, ?) = ? AND substr(source, 1, ?) != ? "
        "AND NOT missing LIMIT 1", (len(inside), inside, len(inside), inside)))


def source_count(store: Store, folder: str) -> int:
    """How many source notes ``folder`` holds, its subfolders' too."""
    inside = f"{folder}/"
    count: int = store.query("SELECT COUNT(*) FROM files WHERE role = 'source' AND "
                             "substr(id, 1, ?) = ?", (len(inside), inside))[0][0]
    return count


def linkers(store: Store, name: str) -> int:
    """How many notes link the name ``name`` (a file name, resolved or not) by a link, not an
    embed: those that point to it rather than show it."""
    count: int = store.query("SELECT COUNT(DISTINCT source_no) FROM link_store WHERE name = ? "
                             "AND NOT embed", (link_name(name),))[0][0]
    return count


class NameUses(NamedTuple):
    """How a vault's links write one file name several notes share: how many name it alone
    (``bare``), and by the note each reaches, how many write a path to it (``by_path``)."""

    bare: int
    by_path: dict[str, int]


def name_uses(store: Store, name: str) -> NameUses:
    """How the vault's links write the file name ``name`` (lower case, as stored)."""
    rows = store.query("SELECT node, instr(target, '/') > 0, COUNT(*) FROM links "
                       "WHERE name = ? AND NOT missing GROUP BY 1, 2", (name,))
    return NameUses(sum(count for _, path, count in rows if not path),
                    {node: count for node, path, count in rows if path})


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


def _link(row: tuple[Any, ...]) -> LinkRow:
    """A stored link row as a :class:`LinkRow`."""
    return LinkRow(row[0], row[1], row[2], bool(row[3]), bool(row[4]), row[5], row[6], row[7],
                   row[8], bool(row[9]))
