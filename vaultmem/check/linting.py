"""Checks over a scanned vault: broken, ambiguous and dangling links, bad files, orphans."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator

from ..index.graph_rows import Anchors, anchors, note_nodes, problem_links
from ..index.lookup import every_alias, source_ids
from ..index.rows import LinkRow
from ..index.tallies import unlinked
from ..model import Finding
from ..read.sync import copy_of
from ..similar_names import NameIndex
from ..vault import Vault

KINDS = ("broken-link", "ambiguous-link", "missing-heading", "missing-block", "orphan")
TYPO = 85  # a title this alike, as whole names, is the one the link meant (measured on corpora)
FILE_KINDS = ("frontmatter", "placeholder", "encoding", "binary", "too-large", "unreadable",
              "parse-error", "conflict-markers", "sync-duplicate", "sync-copy")


def finding(kind: str, note: str, line: int | None, message: str, suggestion: str,
            *extra: str) -> Finding:
    """A finding with an id that stays the same while the problem does."""
    digest = hashlib.sha1("\x1f".join([kind, note, str(line), *extra]).encode()).hexdigest()
    return Finding(f"{kind}:{digest[:8]}", kind, [note], message, suggestion, line)


def lint(vault: Vault, *, orphans: bool = True) -> list[Finding]:
    """Every finding, sorted by note, line and kind."""
    found = list(file_problems(vault)) + list(link_findings(vault))
    if orphans:
        found += orphan_findings(vault)
    return sorted(found, key=lambda f: (f.notes[0], f.line or 0, f.kind, f.message))


def file_problems(vault: Vault) -> Iterator[Finding]:
    """Files that could not be read or parsed cleanly, and sync tools' conflict copies."""
    for problem in vault.index.problems:
        note = problem.path.removesuffix(".md")
        yield finding(problem.kind, note, problem.line, f"{problem.path}: {problem.message}",
                      "", problem.message)
    for note_id in (i for i, role in vault.index.other.items() if role == "sync-copy"):
        original = (copy_of(f"{note_id}.md") or "").removesuffix(".md")
        yield finding("sync-copy", note_id, None, f"{note_id}.md: a sync tool's conflict copy "
                      f"of [[{original}]]; it is not read as memory",
                      f"merge what differs into [[{original}]], then delete the copy")


def link_findings(vault: Vault, *, suggest: bool = True,
                  subpaths: bool = True) -> Iterator[Finding]:
    """Broken links, ambiguous links, and (``subpaths``) links to headings or blocks that do
    not exist; only such links are read from the index, suggestions looked up if asked."""
    links = problem_links(vault.index.store, subpaths=subpaths)
    nodes = note_nodes(vault.store, {link.source for link in links})
    paths = {note_id: node["path"] for note_id, node in nodes.items()}
    named = anchors(vault.store, {link.node for link in links if link.subpath})
    hints = Suggester(vault) if suggest else None
    for link in links:
        yield from _check_link(paths[link.source], link, named, hints)


def _check_link(path: str, link: LinkRow, named: dict[str, Anchors],
                hints: Suggester | None) -> Iterator[Finding]:
    """The findings for one link of the note at ``path``."""
    where = f"{path}:{link.line}"
    if link.missing:
        hint = hints.suggest(link.target, link.source) if hints else ""
        yield finding("broken-link", link.source, link.line,
                      f"{where}: {link.raw} does not resolve", hint, link.raw)
        return
    if link.ambiguous and not _in_own_folder(link):
        yield finding("ambiguous-link", link.source, link.line,
                      f"{where}: {link.raw} matches several files; it goes to {link.node}",
                      f"write the full path: [[{link.node}]]", link.raw)
    if link.subpath and link.node in named:
        yield from _check_subpath(link, named[link.node], where)


def _in_own_folder(link: LinkRow) -> bool:
    """True when a link that several files match reaches the one in the linking note's own
    folder: Obsidian picks it every time, as its writer meant (only a link left to the
    shortest-path rule may reach another note than meant)."""
    return link.node.rpartition("/")[0] == link.source.rpartition("/")[0]


def _check_subpath(link: LinkRow, target: Anchors, where: str) -> Iterator[Finding]:
    """``#Heading`` / ``#^block`` must exist in the target note ``link.node``."""
    if link.subpath.startswith("#^"):
        if link.subpath[2:] not in target.blocks:
            yield finding("missing-block", link.source, link.line,
                          f"{where}: {link.raw}: no block ^{link.subpath[2:]} in {link.node}",
                          "add the block id to the target or fix the link", link.raw)
        return
    headings = _heading_keys(tuple(target.headings))
    wanted = [part for part in link.subpath.split("#") if part.strip()]
    missing = [part for part in wanted if _heading_key(part) not in headings]
    if missing:
        from rapidfuzz import fuzz, process  # only a broken heading link needs it

        best = process.extractOne(missing[-1], target.headings, scorer=fuzz.WRatio,
                                  score_cutoff=70)
        hint = f"did you mean [[{link.node}#{best[0]}]]?" if best else "fix the heading name"
        yield finding("missing-heading", link.source, link.line,
                      f"{where}: {link.raw}: no heading {missing[-1]!r} in {link.node}",
                      hint, link.raw)


@functools.lru_cache(maxsize=1024)
def _heading_keys(headings: tuple[str, ...]) -> frozenset[str]:
    """The keys of a note's headings (many links name headings of the same note)."""
    return frozenset(_heading_key(text) for text in headings)


def _heading_key(text: str) -> str:
    """Headings compare case-insensitively, ignoring characters links cannot hold."""
    return re.sub(r"[\s#|^:\[\]]+", " ", text).strip().lower()


class Suggester:
    """Fixes for broken links: an alias that matches exactly, else the closest titles."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.closest: dict[str, list[str]] = {}  # many links share a broken target

    @functools.cached_property
    def aliases(self) -> dict[str, tuple[str, str]]:
        """(id, title) of the note each lower-cased alias names (the first alias of a note wins
        over its later ones, the later note over earlier ones)."""
        return {alias.lower(): (note_id, note_id.rsplit("/", 1)[-1]) for note_id, aliases
                in every_alias(self.vault.store).items() for alias in reversed(aliases)}

    @functools.cached_property
    def titles(self) -> NameIndex:
        """Every source note's title (its file name), for fuzzy lookup."""
        return NameIndex({note_id: [note_id.rsplit("/", 1)[-1]]
                          for note_id in source_ids(self.vault.store)})

    def suggest(self, target: str, source: str = "") -> str:
        """How to fix a link to ``target`` in note ``source`` (never suggested itself)."""
        name = target.rsplit("/", 1)[-1].removesuffix(".md").lower()
        aliased = self.aliases.get(name)
        if aliased is not None:
            return f"{target!r} is an alias of [[{aliased[0]}]]: write [[{aliased[1]}|{target}]]"
        if name not in self.closest:
            self.closest[name] = self.titles.closest(name, limit=3, cutoff=TYPO, whole=True)
        hits = [note_id for note_id in self.closest[name] if note_id != source][:2]
        if hits:
            return "did you mean " + " or ".join(f"[[{note_id}]]" for note_id in hits) + "?"
        return "create the note or fix the link"


def orphan_findings(vault: Vault) -> list[Finding]:
    """Notes with no links in or out (same-note links do not count)."""
    found = unlinked(vault.index.store)
    return [finding("orphan", note_id, None, f"{node['path']}: no links in or out",
                    "link it from a related note, or archive it")
            for note_id, node in sorted(note_nodes(vault.store, set(found)).items())]
