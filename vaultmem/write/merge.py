"""Merge one note into another, nothing lost: KEEP gets OLD's aliases, tags and list properties
joined (never replaced), OLD's title as an alias, ``merged_from``, and OLD's body under a heading
of its title; a property both hold with other values keeps KEEP's and gets OLD's as an inline
field under that heading, so the note states both until someone settles it (``conflicts``
shows it). Every link to OLD then reaches KEEP, showing what it showed, its anchors following
the headings and blocks that moved (a block id KEEP already has is renamed). OLD goes to the
vault's ``.trash/`` or, with ``redirect``, stays as a note that says where it went. One
transaction of the History (:mod:`.transaction`), checked before anything is written: every
link of every changed note reaches what it reached, OLD's note being KEEP.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import RenameRefused
from ..model import Heading, Note
from ..read.parse import parse_note
from ..read.resolve import Resolver
from ..vault import Vault
from .apply import diff_of
from .note_file import read_text
from .props import KEY, Value, fence_span, newline_of, set_property, yaml_value
from .relink import Relink, relinked, rewritten
from .rename import files_data, links_to, pinned, relinked_change
from .transaction import FileChange, Record, commit, in_scope
from .trash_record import RECORD, TRASH, entries, with_entry

MAX_LEVEL = 6  # of a Markdown heading
LISTED = ("aliases", "tags")  # joined even when one note writes them as a single value


@dataclass(frozen=True)
class Merged:
    """A merge as planned (and made, unless a dry run): the notes, each note's change, how
    many links were written again, the properties both held with other values, the record."""

    keep: str
    old: str
    changes: tuple[FileChange, ...]
    links: int
    disagreeing: tuple[str, ...]
    record: Record | None = None

    def diff(self) -> str:
        """Every change as a unified diff, OLD's move last."""
        moves = "".join(f"rename {c.path} -> {c.moved_to}\n" for c in self.changes if c.moved_to)
        return "".join(diff_of(c.final, c.before, c.after) for c in self.changes
                       if c.after != c.before) + moves

    def to_dict(self) -> dict[str, Any]:
        """The merge as JSON: notes, links written again, properties held both ways, each
        note changed, the record."""
        return {"keep": self.keep, "old": self.old, "links": self.links,
                "disagreeing": list(self.disagreeing), "files": files_data(self.changes),
                "written": self.record is not None,
                "record": self.record.name if self.record else None, "diff": self.diff()}


def merge(vault: Vault, keep: str, old: str, *, redirect: bool = False,
          under: str | None = None, dry_run: bool = False, caller: Caller = LOCAL) -> Merged:
    """Merge note ``old`` into note ``keep`` (see the module docstring; ``under``: the heading
    of KEEP whose section gets OLD's, else the end of the note); ``caller`` must be free to
    write every note it touches."""
    planned = plan_merge(vault, keep, old, redirect=redirect, under=under)
    in_scope(caller, list(planned.changes))
    if dry_run:
        return planned
    record = commit(vault.root, list(planned.changes), what=f"merge {planned.old} into "
                    f"{planned.keep}")
    return dataclasses.replace(planned, record=record)


def plan_merge(vault: Vault, keep: str, old: str, *, redirect: bool = False,
               under: str | None = None) -> Merged:
    """The changes :func:`merge` makes; RenameRefused when a link would break or KEEP has
    no heading ``under``."""
    kept, gone = vault.note(keep), vault.note(old)
    if kept.id == gone.id:
        raise RenameRefused(f"{kept.id} cannot be merged into itself; nothing was changed")
    place = _place(kept, under)
    renamed_ids = _renamed_blocks(kept, gone)
    after = vault.index.resolver.moved(gone.id, None if not redirect else gone.id)
    style = vault.config.new_link_format
    found = links_to(vault, gone.id)
    edits: dict[str, list[Relink]] = {}
    for source, link in found:
        written_in = kept.id if source == gone.id else source
        anchor = _anchor(link.subpath, renamed_ids)
        target = after.link_text(written_in, kept.id, style)[2:-2]
        edits.setdefault(source, []).append(
            Relink(link.line, link.raw, relinked(link, target, anchor=anchor)))
    keep_before = read_text(vault.root, kept.path) or ""  # read once: the swap checks this
    keep_text = rewritten(keep_before, edits.pop(kept.id, []))
    old_text = read_text(vault.root, gone.path) or ""
    moved = [*edits.pop(gone.id, []), *pinned(vault, gone.id, kept.id, after, skip=gone.id)]
    moved_body = rewritten(old_text, moved)  # OLD's links as they must read in KEEP
    merged, disagreeing = _merged(keep_text, kept, gone, moved_body, renamed_ids, place, vault)
    changes = [FileChange(kept.path, keep_before, merged)]
    changes += [relinked_change(vault, source, relinks)
                for source, relinks in sorted(edits.items())]
    changes += _old_change(vault, gone, kept, old_text, redirect)
    _check(vault, changes, kept, gone, after)
    return Merged(kept.id, gone.id, tuple(changes), len(found), tuple(disagreeing))


def _renamed_blocks(kept: Note, gone: Note) -> dict[str, str]:
    """OLD's block ids KEEP already has, each with the id it gets (``id-2``, ...)."""
    taken = {block.id for block in kept.block_ids} | {block.id for block in gone.block_ids}
    renamed: dict[str, str] = {}
    for block in gone.block_ids:
        if block.id in {b.id for b in kept.block_ids}:
            number = 2
            while f"{block.id}-{number}" in taken:
                number += 1
            renamed[block.id] = f"{block.id}-{number}"
            taken.add(renamed[block.id])
    return renamed


def _anchor(subpath: str, renamed: dict[str, str]) -> str:
    """A link's anchor into OLD as it reads in KEEP (a renamed block id followed)."""
    if subpath.startswith("#^") and subpath[2:] in renamed:
        return f"#^{renamed[subpath[2:]]}"
    return subpath


def _place(kept: Note, under: str | None) -> Heading | None:
    """KEEP's heading named ``under`` (None: OLD's section goes at the end)."""
    if under is None:
        return None
    found = next((h for h in kept.headings if h.text.strip().lower() == under.strip().lower()),
                 None)
    if found is None or found.level >= MAX_LEVEL:
        raise RenameRefused(f"{kept.id} has no heading {under!r} that can hold another; nothing "
                            "was changed: name one of its headings, or leave --under out")
    return found


def _merged(keep_text: str, kept: Note, gone: Note, old_text: str, renamed: dict[str, str],
            place: Heading | None, vault: Vault) -> tuple[str, list[str]]:
    """KEEP's new text, and the properties both notes hold with other values (or that KEEP's
    properties cannot hold as they are: they join the section as inline fields too)."""
    text, disagreeing, fields = keep_text, [], []
    mine = {key.lower(): (key, value) for key, value in kept.frontmatter.items()}
    for key, value in gone.frontmatter.items():
        if key.lower() in ("alias", "aliases", "merged_from"):
            continue  # joined below
        spelling, held = mine.get(key.lower(), (key, None))
        if not _writable(spelling, value):
            fields.append(f"{key}:: {_inline(value)}")
        elif key.lower() in mine and _joinable(key, held, value):
            joined = _joined(_listed(held), _listed(value))
            if joined != _listed(held):
                text = set_property(text, spelling, joined)
        elif key.lower() not in mine:
            text = set_property(text, key, value)
        elif held != value:
            disagreeing.append(spelling)
            fields.append(f"{key}:: {_inline(value)}")
    text = _joined_names(text, kept, gone)
    depth = place.level if place else 1
    body = _body(old_text, gone, renamed, depth)
    nl = newline_of(keep_text)
    section = nl.join(["#" * (depth + 1) + f" {gone.title}", "", *fields,
                       *([""] if fields else []), body]).rstrip("\r\n")
    if place is None:
        return text.rstrip("\r\n") + nl + nl + section + nl, disagreeing
    return _inserted(text, section, place, kept, vault), disagreeing


def _inserted(text: str, section: str, place: Heading, kept: Note, vault: Vault) -> str:
    """``text`` with ``section`` at the end of the section of heading ``place`` (found again
    in ``text``, whose properties may have grown)."""
    headings = parse_note(kept.path, text.encode("utf-8"), vault.config).headings
    at = next(h for h in headings if (h.text, h.level) == (place.text, place.level))
    end = next((h.line - 1 for h in headings if h.line > at.line and h.level <= at.level),
               None)
    nl = newline_of(text)
    lines = text.split(nl)
    if end is None:
        return text.rstrip("\r\n") + nl + nl + section + nl
    while end > at.line and not lines[end - 1].strip():
        end -= 1  # the blank lines before the next heading stay before it
    gap = [""] if lines[end].strip() else []
    return nl.join([*lines[:end], "", section, *gap, *lines[end:]])


def _joined_names(text: str, kept: Note, gone: Note) -> str:
    """KEEP's text with OLD's aliases and title among its aliases, in the spelling the note
    uses (``alias`` or ``aliases``), and OLD (and what it was merged from) in ``merged_from``."""
    key = "alias" if "alias" in kept.frontmatter and "aliases" not in kept.frontmatter \
        else "aliases"
    text = set_property(text, key, _joined(list(kept.aliases), [*gone.aliases, gone.title]))
    return set_property(text, "merged_from", _joined(
        _listed(kept.frontmatter.get("merged_from")),
        [*_listed(gone.frontmatter.get("merged_from")), gone.id]))


def _writable(key: str, value: Any) -> bool:
    """Whether KEEP's properties can hold ``key: value`` as written (a plain key, no map)."""
    return KEY.fullmatch(key) is not None and not isinstance(value, dict)


def _joinable(key: str, mine: Any, theirs: Any) -> bool:
    """Whether two values of ``key`` are joined as lists."""
    return key in LISTED or isinstance(mine, list) or isinstance(theirs, list)


def _listed(value: Any) -> list[Any]:
    """A property value as a list (none: empty)."""
    if value is None or value == "":
        return []
    return list(value) if isinstance(value, list) else [value]


def _joined(first: list[Any], second: list[Any]) -> list[Value]:
    """``first`` then what ``second`` adds, in order, each once."""
    joined: list[Any] = []
    for value in [*first, *second]:
        if value not in joined:
            joined.append(value)
    return joined


def _inline(value: Any) -> str:
    """A property value as an inline field's value reads it."""
    return ", ".join(map(str, value)) if isinstance(value, list) else yaml_value(value)


def _body(text: str, gone: Note, renamed: dict[str, str], depth: int) -> str:
    """OLD's text without its frontmatter and a first heading that only repeats its title, its
    headings ``depth`` levels deeper (under the heading of its title), its clashing block ids
    renamed."""
    lines = _deeper(text.removeprefix("\ufeff").split("\n"), gone, depth)
    span = fence_span([line + "\n" for line in lines])
    lines = lines[span[1] + 1:] if span else lines
    first = next((at for at, line in enumerate(lines) if line.strip()), len(lines))
    if first < len(lines) and lines[first].strip() == "#" * (1 + depth) + f" {gone.title}":
        first += 1  # the title again, as its first heading
    lines = lines[first:]
    while lines and not lines[0].strip():
        lines.pop(0)
    for old_id, new_id in renamed.items():
        lines = [line.replace(f"^{old_id}", f"^{new_id}") if line.rstrip().endswith(
            f"^{old_id}") else line for line in lines]
    return "\n".join(lines).strip("\n")


def _deeper(lines: list[str], gone: Note, depth: int) -> list[str]:
    """``lines`` with each of OLD's ``#`` headings ``depth`` levels deeper (at most
    ``MAX_LEVEL``)."""
    for heading in gone.headings:
        at = heading.line - 1
        marks = "#" * heading.level
        if 0 <= at < len(lines) and lines[at].lstrip().startswith(marks):
            lines[at] = lines[at].replace(marks, "#" * min(MAX_LEVEL, heading.level + depth), 1)
    return lines


def _old_change(vault: Vault, gone: Note, kept: Note, text: str,
                redirect: bool) -> list[FileChange]:
    """OLD to the trash (a free name there, in the trash record so that ``restore`` knows
    it), or made a note saying where it went."""
    if redirect:
        return [FileChange(gone.path, text, f'---\nmerged_into: "[[{kept.id}]]"\n---\n'
                                             f"Merged into [[{kept.id}]].\n")]
    record = vault.root / RECORD
    before = record.read_bytes().decode("utf-8") if record.is_file() else None
    taken = entries(before)
    stem = gone.path[:-3].rsplit("/", 1)[-1]
    name, number = f"{stem}.md", 2  # flat, as Obsidian's own trash is
    while name in taken or (vault.root / TRASH / name).exists():
        name = f"{stem} {number}.md"
        number += 1
    day = clock.today().isoformat()
    return [FileChange(gone.path, text, text, f"{TRASH}/{name}"),
            FileChange(RECORD, before, with_entry(before, name, gone.path, day))]


def _check(vault: Vault, changes: list[FileChange], kept: Note, gone: Note,
           after: Resolver) -> None:
    """RenameRefused unless each changed note's links still reach every note they reached
    (OLD now KEEP; KEEP's text holding OLD's links too)."""
    for change in changes:
        if change.moved_to or change.path in (gone.path, RECORD):
            continue
        before = {link.resolved for link in vault.notes[change.path[:-3]].links}
        if change.path == kept.path:
            before |= {link.resolved for link in gone.links}
        meant = {kept.id if target == gone.id else target for target in before} - {None}
        now = parse_note(change.path, change.after.encode("utf-8"), vault.config).links
        reached = {after.resolve(link.target, change.path[:-3])[0] for link in now} - {None}
        if not meant <= reached:
            lost = sorted(map(str, meant - reached))[:3]
            raise RenameRefused(f"merging {gone.id} into {kept.id} would change what the links "
                                f"of {change.path} reach ({', '.join(lost)}); nothing was "
                                "changed: fix those links first")

