"""Checks over a scanned vault: broken, ambiguous and dangling links, bad files, orphans.

Each finding says how sure it is that the owner would act on it (``confidence``) and why: a
link to a note nobody wrote yet is how many people plan notes, a link that misses a note of a
like name or shows nothing where it embeds is a mistake. ``lint`` leaves out the unsure ones
(below ``SHOWN``) unless asked for everything.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Collection, Iterator

from ..config import PLACEHOLDER
from ..index.graph_rows import note_paths
from ..index.link_rows import (
    Anchors,
    anchors,
    notes_named,
    problem_links,
    problem_sources,
)
from ..index.rows import LinkRow
from ..index.tallies import Tallies, tallies
from ..model import SHOWN, Finding
from ..read.sync import copy_of
from ..vault import Vault
from .habits import habits_apart
from .link_fixes import (
    LIKE_NAME,
    SHOWS_NOTHING,
    as_anchor,
    as_the_vault_knows,
    block_written_as,
    missing_shape,
    with_meant_fixes,
)
from .lint_finding import GUESS, SURE, finding, named_as_template, without_code
from .per_note import findings_per_note
from .remembered import remembered_findings
from .suggestions import Fix, Suggester

KINDS = ("broken-link", "unwritten-link", "ambiguous-link", "missing-heading", "missing-block",
         "orphan", "unlinked-mention")
CHECKED_TOGETHER = 2000  # notes whose links are read and checked at once (bounds the memory)
UNWRITTEN = (0.4, "no note of that name: in many vaults a link to a note to write later")
# A vault whose links almost all resolve (a docs vault kept free of broken links) plans no notes
# by linking them: there a link to no note is a mistake. Judged only on enough links: a small
# vault's one planned note says nothing of its habits.
COMPLETE_SHARE, COMPLETE_LINKS = 0.01, 1000
MISTAKE = 0.6
FILE_KINDS = ("frontmatter", "placeholder", "encoding", "binary", "too-large", "unreadable",
              "parse-error", "conflict-markers", "sync-duplicate", "sync-copy")


def lint(vault: Vault, *, orphans: bool = True, least: float = SHOWN,
         quiet: bool = True, suggest_links: bool = False) -> list[Finding]:
    """Every finding at least ``least`` sure (0: all), sorted by note, line and kind; with
    ``quiet``, not those the owner ignores (``.vaultmem/ignored.txt``); with
    ``suggest_links``, also the unlinked mentions worth a link (:mod:`.link_suggestions`)."""
    from .orphans import orphan_findings  # it builds on this module's findings

    if suggest_links:
        from .link_suggestions import mention_findings

        mentions = findings_per_note(vault, "lint-mentions", lambda notes: mention_findings(
            vault, notes), subpaths=False)
    found = (mentions if suggest_links else []) + remembered_findings(vault, "lint", lambda: [
        *file_problems(vault), *habits_apart(unwritten_judged(as_the_vault_knows(
            vault.store, with_meant_fixes(vault.store, findings_per_note(
                vault, "lint-links", lambda notes: link_findings(vault, notes=notes),
                subpaths=True), vault.note_text)), tallies(vault.store)))[0],
        *orphan_findings(vault)])
    if not orphans:
        found = [f for f in found if f.kind != "orphan"]
    ignored = vault.ignored
    return sorted((f for f in found if f.confidence >= least
                   and not (quiet and ignored.quiets(f.id, f.kind, f.notes))),
                  key=lambda f: (f.notes[0], f.line or 0, f.kind, f.message))


def unwritten_judged(found: list[Finding], counts: Tallies) -> list[Finding]:
    """``found`` with its links to unwritten notes made sure enough to show when the vault
    (``counts``) links almost nothing unwritten: judged over the whole vault, not note by note.
    """
    unsure = [f.kind == "unwritten-link" or (f.kind == "broken-link" and f.confidence < MISTAKE)
              for f in found]
    unwritten = sum(unsure)
    if not unwritten:
        return found
    written = counts.links - counts.embeds
    if written < COMPLETE_LINKS or unwritten > COMPLETE_SHARE * written:
        return found
    reason = (f"only {unwritten} of this vault's {written} links reach no note: here one is "
              "more likely a mistake than a note to write later")
    return [dataclasses.replace(f, confidence=MISTAKE, reason=reason) if doubt else f
            for f, doubt in zip(found, unsure, strict=True)]


def file_problems(vault: Vault) -> Iterator[Finding]:
    """Files that could not be read or parsed cleanly, and sync tools' conflict copies."""
    for problem in vault.index.problems:
        note = problem.path.removesuffix(".md")
        where = problem.path if problem.line is None else f"{problem.path}:{problem.line}"
        template = problem.kind in ("frontmatter", "placeholder") and (
            named_as_template(note) or (problem.kind == "placeholder" and _body_placeholders(
                vault, note)) or any("template" in part.casefold()
                                     for part in note.split("/")[:-1]))
        yield finding(problem.kind, note, problem.line, f"{where}: {problem.message}",
                      "", problem.message, sure=(GUESS, "a template's properties, kept as "
                                                 "it is filled in") if template else (1.0, ""))
    for note_id in (i for i, role in vault.index.other.items() if role == "sync-copy"):
        original = (copy_of(f"{note_id}.md") or "").removesuffix(".md")
        yield finding("sync-copy", note_id, None, f"{note_id}.md: a sync tool's conflict copy "
                      f"of [[{original}]]; it is not read as memory",
                      f"merge what differs into [[{original}]], then delete the copy")


def _body_placeholders(vault: Vault, note_id: str) -> bool:
    """True when a note holds template placeholders below its properties too: a template
    never filled in (``# <% tp.file.title %>``), not a note whose properties missed one."""
    text = vault.note_text(note_id)
    body = text.split("\n---", 1)[-1] if text.startswith("---") else text
    return bool(PLACEHOLDER.search(without_code(body)))


def link_findings(vault: Vault, *, suggest: bool = True, subpaths: bool = True,
                  notes: Collection[str] | None = None) -> Iterator[Finding]:
    """Broken links, ambiguous links, and (``subpaths``) links to headings or blocks that do
    not exist, of every note or of ``notes``; only such links are read from the index; titles
    alike looked up if ``suggest`` (aliases and names with other punctuation always are)."""
    store = vault.index.store
    hints = Suggester(vault, fuzzy=suggest)  # the cheap lookups tell a mistake from a plan
    sources = problem_sources(store, subpaths=subpaths) if notes is None else sorted(notes)
    for at in range(0, len(sources), CHECKED_TOGETHER):  # a large vault's links, a part at a time
        links = problem_links(store, subpaths=subpaths,
                              sources=sources[at : at + CHECKED_TOGETHER])
        paths = note_paths(store, {link.source for link in links})
        named = anchors(store, {link.node for link in links if link.subpath})
        keys: dict[str, frozenset[str]] = {}  # each target's heading keys, made once
        written = functools.lru_cache(maxsize=64)(vault.note_text)
        for link in links:
            if link.ambiguous and link.node == link.source:
                own = vault.index.resolver.vault_of(link.source)
                namesakes = [n for n in notes_named(store, link.target)
                             if vault.index.resolver.vault_of(n) == own]
                yield _to_itself(paths[link.source], link, namesakes)
            yield from _check_link(paths[link.source], link, named, hints, keys, written)
    hints.keep()


def _to_itself(path: str, link: LinkRow, namesakes: list[str]) -> Finding:
    """A link naming a file that several notes share and resolving to its own note (the
    one in its folder): written for a namesake elsewhere (``[[catppuccin]]`` in the theme's
    page ``Catppuccin``, for its author's note), as nobody links a note to itself by name."""
    others = [n for n in namesakes if n != link.source]
    return finding("ambiguous-link", link.source, link.line,
                   f"{path}:{link.line}: {link.raw} goes to this note itself, not to "
                   + " or ".join(f"[[{n}]]" for n in others[:3]) + " of the same name",
                   f"write the full path of the note meant: [[{others[0]}]]" if others else
                   "write the full path of the note meant", link.raw, "itself")


def _check_link(path: str, link: LinkRow, named: dict[str, Anchors], hints: Suggester,
                keys: dict[str, frozenset[str]], written: Callable[[str], str]
                ) -> Iterator[Finding]:
    """The findings for one link of the note at ``path`` (``keys``: heading keys by note)."""
    where = f"{path}:{link.line}"
    if link.missing:
        fix = hints.fix(link.target, link.source, embed=link.embed)
        elsewhere = (hints.kept_elsewhere(link.target, embed=link.embed)
                     if link.embed or fix.file else "")
        sure = (GUESS, elsewhere) if elsewhere and not fix.found else _broken_sure(link, fix)
        shape = "" if fix.found else missing_shape(link.target)
        if sure is None:
            yield finding("unwritten-link", link.source, link.line,
                          f"{where}: {link.raw} links a note nobody wrote yet", fix.text,
                          link.raw, sure=UNWRITTEN, shape=shape, sources=(f"[[{link.target}]]",))
            return
        yield finding("broken-link", link.source, link.line,
                      f"{where}: {link.raw} does not resolve", fix.text, link.raw, sure=sure,
                      shape=shape, sources=(f"[[{link.target}]]",))
        return
    if link.ambiguous and not _in_own_folder(link):
        yield finding("ambiguous-link", link.source, link.line,
                      f"{where}: {link.raw} matches several files; it goes to {link.node}",
                      f"write the full path: [[{link.node}]]", link.raw)
    if link.subpath and link.node in named:
        yield from _check_subpath(link, named[link.node], where, keys, written)


def _broken_sure(link: LinkRow, fix: Fix) -> tuple[float, str] | None:
    """How sure a link that reaches nothing is a mistake, and why; None when it is a link to
    a note not written yet, as many vaults plan notes (what other notes' links say of it is
    judged over the whole vault after: :func:`.link_fixes.as_the_vault_knows`)."""
    if fix.found and not fix.guess:
        return SURE, LIKE_NAME
    if link.embed:
        return SURE, SHOWS_NOTHING
    if fix.file:
        return SURE, "the file is missing"
    if fix.found:
        return GUESS, "a note of a somewhat like name exists: a typo, or another word"
    return None


def _in_own_folder(link: LinkRow) -> bool:
    """True when a link that several files match reaches the one in the linking note's own
    folder: Obsidian picks it every time, as its writer meant (only a link left to the
    shortest-path rule may reach another note than meant)."""
    return link.node.rpartition("/")[0] == link.source.rpartition("/")[0]


def _check_subpath(link: LinkRow, target: Anchors, where: str,
                   keys: dict[str, frozenset[str]],
                   written: Callable[[str], str]) -> Iterator[Finding]:
    """``#Heading`` / ``#^block`` must exist in the target note ``link.node`` (``written``:
    a note's text by id, read for the blocks it lacks)."""
    wanted = [part for part in link.subpath.split("#") if part.strip()]
    if wanted and wanted[-1].startswith("^"):  # #^id, also ##^id: Obsidian skips empty parts
        if wanted[-1][1:] not in target.blocks:
            shape = block_written_as(written(link.node), wanted[-1][1:])
            yield finding("missing-block", link.source, link.line,
                          f"{where}: {link.raw}: no block {wanted[-1]} in {link.node}"
                          + (f" ({shape})" if shape else ""),
                          "put a space before the ^ in the target" if "no space" in shape
                          else "add the block id to the target or fix the link", link.raw,
                          shape=shape, sources=(f"[[{link.node}]]",))
        return
    headings = keys.get(link.node)
    if headings is None:
        headings = keys[link.node] = frozenset(_heading_key(text) for text in target.headings)
    missing = [part for part in wanted if _heading_key(part) not in headings]
    if missing and not link.raw.lstrip("!").startswith("[["):  # a Markdown link: GitHub's
        slugs = {_slug(text) for text in target.headings}  # anchors (#ribbon-commands) work
        missing = [part for part in missing if _slug(part) not in slugs]  # where it is read
    if missing:
        from rapidfuzz import fuzz, process  # only a broken heading link needs it

        best = process.extractOne(missing[-1], target.headings, scorer=fuzz.WRatio,
                                  score_cutoff=70)
        hint = (f"did you mean [[{link.node}#{as_anchor(best[0])}]]?" if best
                else "fix the heading name")
        yield finding("missing-heading", link.source, link.line,
                      f"{where}: {link.raw}: no heading {missing[-1]!r} in {link.node}",
                      hint, link.raw)


def _heading_key(text: str) -> str:
    """Headings compare case-insensitively, ignoring characters links cannot hold and those
    Obsidian drops from a heading link (``?``, backticks, the ``**`` of bold text)."""
    return re.sub(r"[\s#|^:\[\]]+", " ", re.sub(r"[?`*]", "", text)).strip().lower()


def _slug(text: str) -> str:
    """A heading as GitHub anchors it (lower case, spaces as hyphens, punctuation dropped).

    >>> _slug("Ribbon Commands"), _slug("What's new?")
    ('ribbon-commands', 'whats-new')
    """
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
