"""Rename or move a note as Obsidian does when it updates internal links: the file moves and
every link to it is written again, in the vault's link format (``newLinkFormat``), showing what
it showed (:mod:`.relink`). Links that meant another note stay as they are; a link the new name
would take from another note (a bare ``[[New]]`` meaning ``Other/New``) is written with that
note's path, so that it keeps meaning it. Before anything is written, every link of every
changed note is resolved as the vault will be: one that would reach another note than it meant
stops the rename. The change is one transaction of the History (:mod:`.transaction`).
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..caller import LOCAL, Caller
from ..errors import RenameRefused
from ..index.link_rows import sources_naming
from ..model import Link
from ..read.parse import parse_note
from ..read.resolve import Resolver
from ..vault import Vault
from .apply import diff_of
from .generated import MARK as GENERATED
from .note_file import read_text
from .paths import checked_parts
from .relink import Relink, relinked, rewritten
from .transaction import FileChange, Record, commit, in_scope


@dataclass(frozen=True)
class Renamed:
    """A rename as planned (and made, unless a dry run): the note's old and new ids, each
    note's change, how many links were written again, the History record (None: dry run)."""

    old: str
    new: str
    changes: tuple[FileChange, ...]
    links: int
    record: Record | None = None

    def diff(self) -> str:
        """Every change as a unified diff, the move first."""
        moved = f"rename {self.old}.md -> {self.new}.md\n"
        return moved + "".join(diff_of(c.final, c.before, c.after) for c in self.changes
                               if c.after != c.before)

    def to_dict(self) -> dict[str, Any]:
        """The rename as JSON: ids, links written again, each note changed, the record."""
        return {"old": self.old, "new": self.new, "links": self.links,
                "files": files_data(self.changes), "written": self.record is not None,
                "record": self.record.name if self.record else None, "diff": self.diff()}


def files_data(changes: tuple[FileChange, ...]) -> list[dict[str, Any]]:
    """Each note a change touches: where it was, where it goes, whether its text changes."""
    return [{"path": c.path, "moved_to": c.moved_to, "changed": c.before != c.after}
            for c in changes]


Follows = Callable[[str, str], list[tuple[str, str]]]  # (old id, new id) -> generated moves


def rename(vault: Vault, note: str, new: str, *, dry_run: bool = False,
           caller: Caller = LOCAL, follows: Follows | None = None) -> Renamed:
    """Move ``note`` to ``new`` (a name in its folder, a path, or a folder ending in ``/``)
    and write every link to it again; nothing is written with ``dry_run``. ``caller`` must be
    free to write every note it touches. ``follows`` names the generated notes that move with
    it (an agent's context note: vaultmem wrote it, under the agent's name)."""
    planned = plan_rename(vault, note, new, follows=follows)
    in_scope(caller, list(planned.changes))
    if dry_run:
        return planned
    record = commit(vault.root, list(planned.changes),
                    what=f"rename {planned.old} -> {planned.new}")
    return dataclasses.replace(planned, record=record)


def plan_rename(vault: Vault, note: str, new: str, *,
                follows: Follows | None = None) -> Renamed:
    """The changes :func:`rename` makes; RenameRefused when the new path is taken or a link
    would reach another note than it meant."""
    old = vault.note(note).id
    new_id = _new_id(old, new)
    if (vault.root / f"{new_id}.md").exists() or new_id.lower() in _ids_folded(vault, old):
        raise RenameRefused(f"{new_id}.md already exists; nothing was changed: choose another "
                            "name, or merge the two notes")
    after = vault.index.resolver.moved(old, new_id)
    edits = _link_edits(vault, old, new_id, after)
    moves = {f"{old}.md": f"{new_id}.md", **_generated_moves(vault, follows, old, new_id)}
    changes = [relinked_change(vault, source, found, moves.get(vault.notes[source].path))
               for source, found in edits.items()]
    for path, target in moves.items():
        if path[:-3] not in edits:
            text = read_text(vault.root, path) or ""
            changes.append(FileChange(path, text, text, target))
    for change in changes:
        _check(vault, change, old, new_id, after)
    ordered = sorted(changes, key=lambda c: (c.moved_to is not None, c.path))
    return Renamed(old, new_id, tuple(ordered), sum(len(found) for found in edits.values()))


def _generated_moves(vault: Vault, follows: Follows | None, old: str,
                     new: str) -> dict[str, str]:
    """The generated notes that move with the renamed one (those there, written by vaultmem,
    whose new place is free)."""
    moves = {}
    for path, target in follows(old, new) if follows else []:
        text = read_text(vault.root, path)
        if text is not None and GENERATED in text.split("\n---", 1)[0] and path != target \
                and not (vault.root / target).exists():
            moves[path] = target
    return moves


def _new_id(old: str, new: str) -> str:
    """The note id ``new`` names: a path, a bare name (in the old note's folder) or a folder
    (``Archive/``: the same name there); RenameRefused for the old id or a bad path."""
    wanted = new.strip().removesuffix(".md").strip("/") if not new.strip().endswith("/") \
        else new.strip().rstrip("/") + "/" + posixpath.basename(old)
    folder = posixpath.dirname(old)
    new_id = wanted if "/" in wanted or not folder else f"{folder}/{wanted}"
    if not wanted or new_id == old:
        raise RenameRefused(f"{new!r} is no new name for {old}; nothing was changed")
    checked_parts(f"{new_id}.md")
    return new_id


def _ids_folded(vault: Vault, old: str) -> set[str]:
    """Every note id but ``old``, lower case (a name differing only in case is taken)."""
    return {note_id.lower() for note_id in vault.notes if note_id != old}


def _link_edits(vault: Vault, old: str, new: str, after: Resolver) -> dict[str, list[Relink]]:
    """By source note, the links to write again: those to ``old``, and those that would
    reach another note once it moves (a bare link the new name takes, a relative link of the
    moved note), written with the path of the note they meant."""
    style = vault.config.new_link_format
    edits: dict[str, list[Relink]] = {}
    for source, link in links_to(vault, old):
        written_in = new if source == old else source
        target = after.link_text(written_in, new, style)[2:-2]
        written = relinked(link, target)
        if written != link.raw:
            edits.setdefault(source, []).append(Relink(link.line, link.raw, written))
    for source in sorted({*sources_naming(vault.store, posixpath.basename(new)), old}):
        written_in = new if source == old else source
        for found in pinned(vault, source, written_in, after, skip=old):
            edits.setdefault(source, []).append(found)
    return edits


def pinned(vault: Vault, source: str, written_in: str, after: Resolver, *,
           skip: str) -> list[Relink]:
    """The links of note ``source`` that, read in note ``written_in`` of the vault as it will
    be (``after``), would reach another note than they do: each written with the path of the
    note it reaches now (links to ``skip``, written again anyway, aside)."""
    return [Relink(link.line, link.raw, relinked(link, link.resolved))
            for link in (vault.notes[source].links if source in vault.notes else [])
            if link.resolved not in (None, skip)
            and after.resolve(link.target, written_in)[0] != link.resolved]


def links_to(vault: Vault, old: str) -> list[tuple[str, Link]]:
    """(source, link) of every link resolving to ``old``, its own links to itself too."""
    own = [(old, link) for link in vault.notes[old].links  # [[#Heading]] works wherever it is
           if link.resolved == old and link.target.strip()]
    return [*vault.backlinks(old), *own]


def relinked_change(vault: Vault, source: str, edits: list[Relink],
                    moved_to: str | None = None) -> FileChange:
    """One note's change: its links written again (and its move, when it moves)."""
    path = vault.notes[source].path
    text = read_text(vault.root, path) or ""
    return FileChange(path, text, rewritten(text, edits), moved_to)


def _check(vault: Vault, change: FileChange, old: str, new: str, after: Resolver) -> None:
    """RenameRefused unless every link of the changed note reaches, in the vault as it will
    be, the note it reached before (``new`` for ``old``; a link that reached none may reach
    one, as a link written before its note is)."""
    source = change.path[:-3]
    if source not in vault.notes:
        return  # a generated note the index leaves out: the next sync writes it again
    before = vault.notes[source].links
    now = parse_note(change.final, change.after.encode("utf-8"), vault.config).links
    meant = [new if link.resolved == old else link.resolved for link in before]
    reached = [after.resolve(link.target, change.final[:-3])[0] for link in now]
    kept = [want is None or want == got for want, got in zip(meant, reached, strict=False)]
    if len(now) != len(before) or not all(kept):  # a link to no note may come to reach one
        wrong = next((link for link, ok in zip(now, kept, strict=False) if not ok),
                     now[0] if now else None)
        where = f" (line {wrong.line}: {wrong.raw})" if wrong else ""
        raise RenameRefused(f"renaming {old} would change what a link of {source} "
                            f"reaches{where}; nothing was changed: fix that link first")
