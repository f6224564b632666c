"""Checks over a scanned vault: broken, ambiguous and dangling links, bad files, orphans."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from rapidfuzz import fuzz, process

from ..model import Finding, Link, Note
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


def link_findings(vault: Vault, *, suggest: bool = True) -> Iterator[Finding]:
    """Broken links, ambiguous links, and links to headings or blocks that do not exist."""
    hints = Suggester(vault) if suggest else None
    for note in vault.notes.values():
        for link in note.links:
            yield from _check_link(vault, note, link, hints)


def _check_link(vault: Vault, note: Note, link: Link,
                hints: Suggester | None) -> Iterator[Finding]:
    """The findings for one link."""
    where = f"{note.path}:{link.line}"
    if link.resolved is None:
        hint = hints.suggest(link.target, note.id) if hints else ""
        yield finding("broken-link", note.id, link.line, f"{where}: {link.raw} does not resolve",
                      hint, link.raw)
        return
    if link.ambiguous:
        yield finding("ambiguous-link", note.id, link.line,
                      f"{where}: {link.raw} matches several files; it goes to {link.resolved}",
                      f"write the full path: [[{link.resolved}]]", link.raw)
    target = vault.notes.get(link.resolved)
    if target is not None and link.subpath:
        yield from _check_subpath(note, link, target, where)


def _check_subpath(note: Note, link: Link, target: Note, where: str) -> Iterator[Finding]:
    """``#Heading`` / ``#^block`` must exist in the target note."""
    if link.subpath.startswith("#^"):
        if link.subpath[2:] not in {block.id for block in target.block_ids}:
            yield finding("missing-block", note.id, link.line,
                          f"{where}: {link.raw}: no block ^{link.subpath[2:]} in {target.id}",
                          "add the block id to the target or fix the link", link.raw)
        return
    headings = {_heading_key(h.text) for h in target.headings}
    wanted = [part for part in link.subpath.split("#") if part.strip()]
    missing = [part for part in wanted if _heading_key(part) not in headings]
    if missing:
        choices = [h.text for h in target.headings]
        best = process.extractOne(missing[-1], choices, scorer=fuzz.WRatio, score_cutoff=70)
        hint = f"did you mean [[{target.id}#{best[0]}]]?" if best else "fix the heading name"
        yield finding("missing-heading", note.id, link.line,
                      f"{where}: {link.raw}: no heading {missing[-1]!r} in {target.id}",
                      hint, link.raw)


def _heading_key(text: str) -> str:
    """Headings compare case-insensitively, ignoring characters links cannot hold."""
    return re.sub(r"[\s#|^:\[\]]+", " ", text).strip().lower()


class Suggester:
    """Fixes for broken links: an alias that matches exactly, else the closest titles."""

    def __init__(self, vault: Vault) -> None:
        self.aliases = {alias.lower(): note for note in vault.notes.values()
                        for alias in reversed(note.aliases)}
        self.titles = NameIndex({note.id: [note.title] for note in vault.notes.values()})
        self.closest: dict[str, list[str]] = {}  # many links share a broken target

    def suggest(self, target: str, source: str = "") -> str:
        """How to fix a link to ``target`` in note ``source`` (never suggested itself)."""
        name = target.rsplit("/", 1)[-1].removesuffix(".md").lower()
        note = self.aliases.get(name)
        if note is not None:
            return f"{target!r} is an alias of [[{note.id}]]: write [[{note.title}|{target}]]"
        if name not in self.closest:
            self.closest[name] = self.titles.closest(name, limit=3, cutoff=TYPO, whole=True)
        hits = [note_id for note_id in self.closest[name] if note_id != source][:2]
        if hits:
            return "did you mean " + " or ".join(f"[[{note_id}]]" for note_id in hits) + "?"
        return "create the note or fix the link"


def orphan_findings(vault: Vault) -> list[Finding]:
    """Notes with no links in or out (same-note links do not count)."""
    graph = vault.graph
    return [
        finding("orphan", note_id, None, f"{vault.notes[note_id].path}: no links in or out",
                "link it from a related note, or archive it")
        for note_id in vault.notes
        if graph.degree(note_id) == 0
    ]
