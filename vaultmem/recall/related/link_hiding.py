"""A note's links to another hidden, as a test of ``related``: the one-way links worth hiding,
the note's text with such a link cut out or left as the words a reader sees, and the names
those words then write."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import Link

if TYPE_CHECKING:
    from ...vault import Vault

FEWEST_LINKED = 2  # notes a note links before one of its links is hidden (one left to go on)


def one_way_links(vault: Vault) -> list[tuple[str, str]]:
    """(note, linked note) where the other note does not link back (the link cannot be told
    from its side) and the note links ``FEWEST_LINKED`` notes or more, sorted."""
    out = {note_id: linked_notes(vault, note_id) for note_id in vault.notes}
    return sorted((note_id, target) for note_id, targets in out.items()
                  if len(targets) >= FEWEST_LINKED for target in targets
                  if note_id not in out.get(target, set()))


def linked_notes(vault: Vault, note_id: str) -> set[str]:
    """The other notes ``note_id`` links to."""
    return {link.resolved for link in vault.notes[note_id].links
            if link.resolved is not None and link.resolved in vault.notes
            and link.resolved != note_id}


def hidden_text(vault: Vault, note_id: str, target: str, *, cut: bool) -> tuple[str, set[str]]:
    """The note's text with each link to ``target`` cut out (``cut``) or left as its words,
    and the notes it still links (``target`` among them when a link could not be found)."""
    lines = vault.note_text(note_id).split("\n")
    still = linked_notes(vault, note_id) - {target}
    for link in vault.notes[note_id].links:
        if link.resolved == target and not _replaced(lines, link, "" if cut else shown(link)):
            still.add(target)
    return "\n".join(lines), still


def shown(link: Link) -> str:
    """What a reader sees of a link: its alias or text, else the name it links.

    >>> shown(Link("[[People/Lucy Tan|Lucy]]", "People/Lucy Tan", alias="Lucy"))
    'Lucy'
    >>> shown(Link("[[Projects/DataFlow]]", "Projects/DataFlow"))
    'DataFlow'
    """
    if link.kind == "markdown":
        return link.raw.lstrip("!")[1:].split("](", 1)[0]
    if link.alias:
        return link.alias
    return link.target.rsplit("/", 1)[-1].removesuffix(".md") or link.raw


def names_left(vault: Vault, note_id: str, target: str) -> dict[str, int]:
    """``{target: line}`` when the words a link of the note to ``target`` shows are a name of
    ``target`` (its title or an alias): left as words, the link is a plain mention."""
    from ...check.mentions import names_of

    names = {name.casefold() for name in names_of(vault, target)}
    lines = sorted(link.line for link in vault.notes[note_id].links
                   if link.resolved == target and shown(link).casefold() in names)
    return {target: lines[0]} if lines else {}


def _replaced(lines: list[str], link: Link, words: str) -> bool:
    """Replace ``link`` on its line by ``words`` (a table cell escapes the pipe); False when
    it is not written there."""
    row = link.line - 1
    for form in (link.raw, link.raw.replace("|", "\\|")):
        if 0 <= row < len(lines) and form in lines[row]:
            lines[row] = lines[row].replace(form, words, 1)
            return True
    return False
