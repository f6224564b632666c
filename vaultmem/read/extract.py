"""Facts and history as a note states them, taken when the note is parsed (no vault access).

A fact is (entity, attribute, value): a note's own scalar properties are facts about itself; a
``type: fact`` note states one fact about its ``entity``; a Dataview field is about the one
entity its line links (``- [[Lucy Tan]] timezone:: UTC+7``), else about the note itself.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from ..model import Note
from .fences import key_line, split

HOUSEKEEPING = frozenset({
    "type", "tags", "tag", "aliases", "alias", "version", "updated", "created", "date",
    "cssclasses", "cssclass", "permalink", "publish", "generated_by", "title",
    "superseded_by", "supersedes", "source", "sources", "confidence", "valid_from", "valid_until",
    "expires", "first_seen", "excalidraw-plugin",
})
FILE = re.compile(r"\.(?!md$)[a-z0-9]{2,5}$", re.IGNORECASE)  # Figure.png, Doc.pdf
HISTORY = re.compile(r"^- v\d+ \((?:until )?(\d{4}-\d{2}-\d{2})\): ([\w.-]+) = ")


class RawFact(NamedTuple):
    """A fact as a note states it, entity not yet resolved (the index keeps it as a plain
    tuple: ``RawFact._make(stored)``)."""

    attribute: str
    value: Any
    line: int
    kind: str  # property | field | fact-note | relation (supersedes, superseded_by)
    entity: str  # the entity's link target, "" for the note itself
    valid_from: str
    valid_until: str
    confidence: float | None
    asserted: str  # the date the note says it, "" unknown


def asserted(note: Note) -> str:
    """When a note says what it says: daily date, else ``updated`` or ``date`` ("" unknown)."""
    for value in (note.date, note.frontmatter.get("updated"), note.frontmatter.get("date")):
        if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
            return value[:10]
    return ""


def _target(value: object) -> str:
    """The link target of a ``"[[X]]"`` property value, else ""."""
    if isinstance(value, str) and value.startswith("[[") and value.endswith("]]"):
        return value[2:-2].split("|")[0].split("#")[0].strip()
    return ""


def _text(value: object) -> str:
    """A property value as text ("" when missing)."""
    return str(value) if isinstance(value, str | int | float) and value != "" else ""


def _fact_note(note: Note, when: str, lines: list[str]) -> list[RawFact]:
    """The one fact a ``type: fact`` note states."""
    fm = note.frontmatter
    entity, attribute, value = _target(fm.get("entity")), fm.get("attribute"), fm.get("value")
    if not entity or not isinstance(attribute, str) or not _scalar(value):
        return []
    confidence = fm.get("confidence")
    return [RawFact(attribute.strip(), value, key_line(lines, "value"), "fact-note", entity,
                    _text(fm.get("valid_from")),
                    _text(fm.get("valid_until")) or _text(fm.get("expires")),
                    _confidence(confidence), _text(fm.get("valid_from"))[:10] or when)]


def _scalar(value: object) -> bool:
    """Text, a number or a boolean (lists and mappings are not single facts)."""
    return isinstance(value, str | int | float | bool) and value != ""


def raw_facts(note: Note, text: str = "") -> list[RawFact]:
    """Every fact the note states, in file order (``text``: the note, for property lines)."""
    when = asserted(note)
    lines = split(text.removeprefix("\ufeff"))[0] or []
    if note.type == "fact":
        return _fact_note(note, when, lines) + relations(note)
    facts: list[RawFact] = [
        RawFact(key, value, key_line(lines, key), "property", "", "", "", None, when)
        for key, value in note.frontmatter.items()
        if key.lower() not in HOUSEKEEPING and _scalar(value)
    ]
    facts += [RawFact(f.key, f.value, f.line, "field", _entity_of(note, f.line), "", "", None,
                      when) for f in note.fields]
    return facts + relations(note)


def relations(note: Note) -> list[RawFact]:
    """``supersedes`` / ``superseded_by`` links, as facts of kind ``relation``."""
    return [RawFact(link.key, link.target, link.line, "relation", link.target, "", "", None, "")
            for link in note.links
            if link.kind == "property" and link.key in ("supersedes", "superseded_by")
            and link.target]


def _entity_of(note: Note, line: int) -> str:
    """The one note a field's line links (links inside field values, embeds and links to
    files other than notes do not count; ``[[Lucy]]`` and ``[[lucy.md]]`` are one)."""
    targets = {_note_key(link.target): link.target for link in note.links
               if link.line == line and link.kind == "body" and not link.embed and link.target
               and not FILE.search(link.target)}
    return next(iter(targets.values())) if len(targets) == 1 else ""


def _note_key(target: str) -> str:
    """A link target as compared before resolution."""
    lowered = target.strip().casefold()
    return lowered[:-3] if lowered.endswith(".md") else lowered


def history(body: str) -> list[tuple[str, str]]:
    """(attribute, date) of each ``- vN (DATE): attribute = value`` line of the note."""
    found = []
    for line in body.splitlines():
        match = HISTORY.match(line)
        if match:
            found.append((match.group(2), match.group(1)))
    return found


def _confidence(value: object) -> float | None:
    """A finite number, else None (a 400-digit integer does not fit a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
