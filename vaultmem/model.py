"""Plain data classes for parsed notes; no I/O here."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

Json = dict[str, Any]


@dataclass(slots=True)
class Link:
    """One link as written in a note, and where it resolves to.

    ``kind`` is ``body`` (wikilink), ``markdown`` (``[t](x.md)``), ``property`` (frontmatter) or
    ``field`` (inside a Dataview inline field); ``key`` is the property or field key.
    ``resolved`` is a note id, an attachment path, or None; the resolver fills it in.
    """

    raw: str
    target: str
    subpath: str = ""
    alias: str | None = None
    embed: bool = False
    line: int = 0
    kind: str = "body"
    key: str | None = None
    size: str | None = None
    resolved: str | None = None
    ambiguous: bool = False


@dataclass(slots=True)
class Tag:
    """A tag as written (without ``#``) and its file line."""

    name: str
    line: int


@dataclass(slots=True)
class Field:
    """A Dataview inline field (``key:: value``); ``key`` is the sanitised key."""

    key: str
    raw_key: str
    value: str
    line: int


@dataclass(slots=True)
class Heading:
    """A Markdown heading."""

    text: str
    level: int
    line: int


@dataclass(slots=True)
class BlockId:
    """A block id (``^id``) that ``[[Note#^id]]`` can point at."""

    id: str
    line: int


@dataclass(slots=True)
class Task:
    """A task list item; ``state`` is the character between the brackets."""

    state: str
    text: str
    line: int


@dataclass(slots=True)
class Problem:
    """Something wrong with one file: what, where, and how to fix it."""

    path: str
    kind: str
    message: str
    line: int | None = None


@dataclass(slots=True)
class Note:
    """A parsed Markdown note. ``id`` is the vault path without ``.md``."""

    id: str
    path: str
    title: str
    type: str = "note"
    date: str | None = None
    typed_by: str = "default"  # what gave the type: a property, a folder, a tag (read/types)
    frontmatter: Json = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    block_ids: list[BlockId] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    generated: bool = False
    mtime_ns: int = 0
    size: int = 0

    def to_dict(self) -> Json:
        """The note as JSON-ready data (the ``show --json`` shape)."""
        data = asdict(self)
        for key in ("mtime_ns", "size", "generated"):
            data.pop(key)
        return data

    def tag_names(self) -> list[str]:
        """Unique lower-case tag names, sorted (tags compare case-insensitively)."""
        return sorted({tag.name.lower() for tag in self.tags})


SHOWN = 0.5  # findings less sure than this (see Finding.confidence) are listed only if asked


@dataclass(slots=True)
class Finding:
    """Something a check found: kind, the notes and line involved, and how to fix it.

    Conflicts also name the rule that decided (``rule``) and the note it picked (``winner``,
    None when the user must decide), and list their ``sources`` as ``[[id]]`` with lines.
    ``confidence`` (0..1) says how sure the check is that the owner would act on it, and
    ``reason`` what makes it so. ``shape`` names the way of writing that produced it when
    many notes of a vault may share it (``block ids written `]]^id```): a shape many notes
    share is the vault's habit, not a mistake (:mod:`vaultmem.check.habits`).
    """

    id: str
    kind: str
    notes: list[str]
    message: str
    suggestion: str = ""
    line: int | None = None
    rule: str = ""
    winner: str | None = None
    sources: list[str] = field(default_factory=list)
    confidence: float = 1.0
    reason: str = ""
    shape: str = ""

    def to_dict(self) -> Json:
        """JSON-ready data."""
        return {"id": self.id, "kind": self.kind, "notes": list(self.notes),
                "message": self.message, "suggestion": self.suggestion, "line": self.line,
                "rule": self.rule, "winner": self.winner, "sources": list(self.sources),
                "confidence": self.confidence, "reason": self.reason, "shape": self.shape}


@dataclass(slots=True)
class Fact:
    """One statement (entity, attribute, value), where it is made and how long it holds."""

    entity: str
    attribute: str
    value: object
    source: str
    line: int
    kind: str  # property (the note's own), field (Dataview), fact-note (type: fact)
    asserted: str = ""
    valid_from: str = ""
    valid_until: str = ""
    confidence: float | None = None
