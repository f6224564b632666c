"""Export the structured memory as one council-memory JSON document (reads only)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..model import Json, Note
from ..read.extract import RawFact
from ..secrets import redact_data
from ..text import stamp_line
from ..vault import Vault
from ..write.facts import parse_value
from ..write.sections import section_lines, section_span
from .kpis import kpi_of

FORMAT = "council-json"
VERSION = 1
ENTITY_TYPES = ("agent", "person", "project")  # their own properties are exported as facts
OWN_SECTION = {"decision", "kpi", "lesson", "daily"}  # whose fields are facts, not properties
FACT_HISTORY = re.compile(r"^- v\d+ \((?:until )?(\d{4}-\d{2}-\d{2})\): ([\w.-]+) = (.*)$")
DATED_LINE = re.compile(r"^- (\d{4}-\d{2}-\d{2}):? (.*)$")
ENTRY = re.compile(r"^(\d{1,2}:\d{2})\s*(?:—|\u2013|-)\s*(.*)$")
RULE = re.compile(r"^\*\*(?:candidate )?rule:\*\*\s*(.*)$", re.IGNORECASE)


def export_council(vault: Vault) -> Json:
    """The vault's facts, decisions, KPIs, lessons and daily sessions, each list sorted by id;
    credentials in them are redacted (an export never carries a secret out of the vault)."""
    sections = {"facts": export_facts(vault), "decisions": _of_type(vault, "decision", _decision),
                "kpis": [_kpi(vault, n) for n in vault.notes.values() if n.type == "kpi"],
                "lessons": _of_type(vault, "lesson", _lesson),
                "sessions": _of_type(vault, "daily", _session)}
    data: Json = {"format": FORMAT, "version": VERSION}
    data.update({key: sorted(items, key=lambda item: str(item["id"]))
                 for key, items in sections.items()})
    return dict(redact_data(data, vault.config.secret_patterns))


def _of_type(vault: Vault, kind: str, convert: Any) -> list[Json]:
    """``convert(vault, note)`` of every note of type ``kind``."""
    return [convert(vault, note) for note in vault.notes.values() if note.type == kind]


def stated_facts(vault: Vault) -> Iterator[tuple[str, str, str, RawFact]]:
    """(note id, note type, entity id, raw fact) of every fact the vault states (no relations)."""
    for note_id, meta in vault.facts:
        for raw in meta.facts:
            if raw.kind != "relation":
                entity = resolve(vault, raw.entity, note_id) if raw.entity else note_id
                yield note_id, meta.type, entity, raw


def resolve(vault: Vault, target: str, source: str) -> str:
    """The note id a link target resolves to from ``source``, else the target as written."""
    found, _ = vault.index.resolver.resolve(target, source)
    return found or target


def export_facts(vault: Vault) -> list[Json]:
    """Fact notes, Dataview fields, and the properties of people, projects and agents."""
    status = {note_id: meta.status for note_id, meta in vault.facts}
    return [_fact(vault, note_id, entity, raw, status[note_id] or "active")
            for note_id, kind, entity, raw in stated_facts(vault)
            if raw.kind != "property" or kind in ENTITY_TYPES]


def _fact(vault: Vault, note_id: str, entity: str, raw: RawFact, status: str) -> Json:
    """One fact as council JSON."""
    attribute, kind = raw.attribute, raw.kind
    ids = {"fact-note": note_id, "property": f"{note_id}#{attribute}"}
    source = _link_property(vault.notes[note_id], "source") if kind == "fact-note" else note_id
    return {"id": ids.get(kind, f"{note_id}#L{raw.line}.{attribute}"), "kind": kind,
            "entity": entity, "attribute": attribute,
            "value": parse_value(raw.value) if kind == "field" else raw.value,
            "valid_from": raw.valid_from, "valid_until": raw.valid_until,
            "confidence": raw.confidence, "status": status, "source": source,
            "history": _fact_history(vault, entity, attribute) if kind == "property" else []}


def _fact_history(vault: Vault, note_id: str, attribute: str) -> list[Json]:
    """The ``## History`` lines of ``note_id`` about ``attribute``: [{date, value}]."""
    rows = []
    for line in section_lines(vault.note_text(note_id), "History"):
        match = FACT_HISTORY.match(line)
        if match and match.group(2).casefold() == attribute.casefold():
            rows.append({"date": match.group(1), "value": match.group(3).split(" (")[0]})
    return rows


def _links(note: Note, key: str) -> list[str]:
    """Resolved ids of the property ``key``'s links, in order."""
    return [link.resolved or link.target for link in note.links
            if link.kind == "property" and link.key == key and link.target]


def _link_property(note: Note, *keys: str) -> str:
    """The first link of the first of ``keys`` that has one, else ""."""
    return next((found[0] for key in keys if (found := _links(note, key))), "")


def _text(note: Note, key: str) -> str:
    """A property as text ("" when missing)."""
    value = note.frontmatter.get(key)
    return "" if value is None else str(value)


def _dated(vault: Vault, note: Note) -> list[Json]:
    """The ``- DATE: text`` lines of the note's ``## History``: [{date, text}]."""
    return [{"date": m.group(1), "text": m.group(2)}
            for line in section_lines(vault.note_text(note.id), "History")
            if (m := DATED_LINE.match(line))]


def _decision(vault: Vault, note: Note) -> Json:
    """One decision as council JSON."""
    related = sorted({link.resolved or link.target for link in note.links
                      if link.kind == "body" and link.target and link.resolved != note.id})
    alternatives = note.frontmatter.get("alternatives")
    return {"id": note.id, "title": note.title, "date": _text(note, "date"),
            "status": _text(note, "status"), "topic": _text(note, "topic"),
            "rationale": _text(note, "rationale"),
            "made_by": _link_property(note, "decided_by", "proposed_by"), "related": related,
            "supersedes": _link_property(note, "supersedes"),
            "superseded_by": _link_property(note, "superseded_by"),
            "alternatives": [str(a) for a in alternatives] if isinstance(alternatives, list)
            else [], "history": _dated(vault, note)}


def _kpi(vault: Vault, note: Note) -> Json:
    """One KPI as council JSON; history rows as [{date, value}]."""
    kpi = kpi_of(vault, note)
    return {"id": kpi.id, "name": kpi.name, "value": kpi.value, "target": kpi.target,
            "unit": kpi.unit, "updated": kpi.updated,
            "history": [{"date": date, "value": value} for date, value in kpi.history]}


def _lesson(vault: Vault, note: Note) -> Json:
    """One lesson as council JSON."""
    count = note.frontmatter.get("count")
    return {"id": note.id, "title": note.title, "agent": _link_property(note, "agent"),
            "pattern_key": _text(note, "pattern_key"),
            "count": count if isinstance(count, int) else None,
            "status": _text(note, "status"), "applies_to": _link_property(note, "applies_to"),
            "rule": _rule(vault.note_text(note.id)), "sources": _sources(vault, note)}


def _rule(text: str) -> str:
    """The lesson's rule: its ``## Rule`` section, else a ``**Rule:**`` line."""
    lines = section_lines(text, "Rule")
    if lines:
        return "\n".join(lines)
    return next((m.group(1) for line in text.splitlines() if (m := RULE.match(line.strip()))), "")


def _sources(vault: Vault, note: Note) -> list[str]:
    """The ``source(s)`` property links and the links under ``## Sources``, unique, in order."""
    span = section_span(vault.note_text(note.id), "Sources") or (0, 0)
    found = _links(note, "source") + _links(note, "sources")
    found += [link.resolved or link.target for link in note.links
              if link.kind == "body" and span[0] < link.line <= span[1] and link.target]
    return list(dict.fromkeys(found))


def _session(vault: Vault, note: Note) -> Json:
    """One daily note as a session: its dated entries (headings under the title)."""
    day = note.date or note.title
    return {"id": day, "date": day, "entries": _entries(vault, note)}


def _entries(vault: Vault, note: Note) -> list[Json]:
    """Every heading below level 1 with the text up to the next heading: {time, title, text},
    and ``by``, the agent an entry's stamp names (its line is not part of the text)."""
    lines = vault.note_text(note.id).splitlines()
    ends = [h.line for h in note.headings[1:]] + [len(lines) + 1]
    entries = []
    for heading, end in zip(note.headings, ends, strict=True):
        if heading.level > 1:
            match = ENTRY.match(heading.text)
            time, title = match.groups() if match else ("", heading.text)
            by = _stamped(note, lines, heading.line)
            start = heading.line + (1 if by else 0)
            text = "\n".join(lines[start:end - 1]).strip()
            entries.append({"time": time, "title": title, "text": text} |
                           ({"by": by} if by else {}))
    return entries


def _stamped(note: Note, lines: list[str], heading: int) -> str | None:
    """The agent named by the stamp on the line after the heading on line ``heading``."""
    if heading >= len(lines) or stamp_line(lines[heading]) != 1:
        return None
    link = next((link for link in note.links if link.line == heading + 1), None)
    return (link.resolved or link.target) if link is not None else None
