"""Import a council-memory JSON document into vault notes, through the write layer."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from .. import clock
from ..caller import LOCAL, Caller
from ..check.current_facts import value_key
from ..errors import NoteNotFound
from ..model import Json, Note
from ..vault import Vault
from ..write.apply import WriteResult, apply
from ..write.entries import find_duplicate, new_note
from ..write.facts import record_fact
from ..write.journal import append_daily, daily_path, entry_title
from ..write.props import Value
from ..write.sections import append_to_section
from .council import ENTITY_TYPES, stated_facts
from .council_check import DAY, TIME, title_of, validate
from .kpis import record_kpi

FactKey = tuple[str, str, str, str]


@dataclass
class ImportReport:
    """What an import wrote (or would write) and which items it skipped as duplicates."""

    results: list[WriteResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def import_council(vault: Vault, data: object, *, dry_run: bool = False,
                   when: dt.datetime | None = None, caller: Caller = LOCAL) -> ImportReport:
    """Write the document's items as notes for ``caller``; skip those the vault already has
    (validated first). A session entry that says which agent wrote it (``by``) is signed so.

    Order: entity properties, decisions, KPIs, lessons, daily sessions (which bring back their
    inline fields), then the facts still missing (fact notes, fields stated elsewhere).
    """
    doc, when, report = validate(vault, data), when or clock.now(), ImportReport()
    facts: list[Json] = doc.get("facts", [])
    _facts(vault, [f for f in facts if f.get("kind") == "property"], report, dry_run, when,
           caller)
    for index, item in enumerate(doc.get("decisions", [])):
        _note(vault, report, f"decisions[{index}]", "decision", item,
              lambda item=item: _decision(vault, item, dry_run, when, caller))
    for index, item in enumerate(doc.get("kpis", [])):
        _note(vault, report, f"kpis[{index}]", "kpi", item,
              lambda item=item: _kpi(vault, item, dry_run, when, caller))
    for index, item in enumerate(doc.get("lessons", [])):
        _note(vault, report, f"lessons[{index}]", "lesson", item,
              lambda item=item: _lesson(vault, item, dry_run, when, caller))
    for session in doc.get("sessions", []):
        _session(vault, session, report, dry_run, caller)
    _facts(vault, [f for f in facts if f.get("kind") != "property"], report, dry_run, when,
           caller)
    return report


def _note(vault: Vault, report: ImportReport, where: str, kind: str, item: Json,
          write: Any) -> None:
    """Run ``write`` unless a note like the item's title exists (then report it skipped)."""
    existing = find_duplicate(vault, kind, title_of(item))
    if existing is not None:
        report.skipped.append(f"{where} {item['id']}: [[{existing.id}]] exists")
    else:
        report.results += write()


def _decision(vault: Vault, item: Json, dry_run: bool, when: dt.datetime,
              caller: Caller) -> list[WriteResult]:
    """A decision note with its links, related notes and history."""
    by = "proposed_by" if item.get("status") == "proposed" else "decided_by"
    fields: dict[str, Value] = {key: item.get(key) for key in ("status", "topic", "rationale",
                                                               "date")}
    fields["alternatives"] = list(item.get("alternatives") or [])
    links = {by: [item.get("made_by") or ""], "supersedes": [item.get("supersedes") or ""],
             "superseded_by": [item.get("superseded_by") or ""]}
    body = ", ".join(f"[[{r}]]" for r in item.get("related") or [])
    body = f"Related: {body}\n" if body else ""
    history = [f"- {h['date']}: {h['text']}" for h in item.get("history") or []]
    body += "\n## History\n" + "\n".join(history) + "\n" if history else ""
    return [new_note(vault, "decision", title_of(item), fields=fields, links=links,
                     body=body or None, dry_run=dry_run, when=when, caller=caller)]


def _kpi(vault: Vault, item: Json, dry_run: bool, when: dt.datetime,
         caller: Caller) -> list[WriteResult]:
    """A KPI note, then one measurement per dated history row (not in a dry run)."""
    fields = {key: item.get(key) for key in ("value", "target", "unit", "updated")}
    results = [new_note(vault, "kpi", title_of(item), fields=fields, dry_run=dry_run, when=when,
                        caller=caller)]
    for row in [] if dry_run else item.get("history") or []:
        if DAY.fullmatch(str(row.get("date"))):
            day = dt.datetime.fromisoformat(str(row["date"]))
            results.append(record_kpi(vault, results[0].id, str(row.get("value")), when=day,
                                      caller=caller))
    return results


def _lesson(vault: Vault, item: Json, dry_run: bool, when: dt.datetime,
            caller: Caller) -> list[WriteResult]:
    """A lesson note, then its rule under ``## Rule`` (not in a dry run)."""
    fields = {key: item.get(key) for key in ("pattern_key", "count", "status")}
    links = {"agent": [item.get("agent") or ""], "applies_to": [item.get("applies_to") or ""],
             "source": list(item.get("sources") or [])}
    results = [new_note(vault, "lesson", title_of(item), fields=fields, links=links,
                        dry_run=dry_run, when=when, caller=caller)]
    rule = str(item.get("rule") or "").strip()
    if rule and not dry_run:
        results.append(apply(vault, results[0].path,
                             lambda text: append_to_section(text or "", "Rule", rule.splitlines()),
                             action="updated", caller=caller))
    return results


def _session(vault: Vault, session: Json, report: ImportReport, dry_run: bool,
             caller: Caller) -> None:
    """Each entry appended to the day's note, unless that note has its heading already."""
    day = dt.date.fromisoformat(session["date"])
    note = vault.notes.get(daily_path(vault, day)[:-3])
    have = {h.text for h in note.headings} if note else set()
    for entry in session["entries"]:
        hour, minute = TIME.fullmatch(str(entry.get("time") or "0:00")).groups()  # type: ignore[union-attr]
        when = dt.datetime.combine(day, dt.time(int(hour), int(minute)))
        text = str(entry.get("text") or entry.get("title"))
        title = str(entry.get("title") or "") or None
        if f"{when:%H:%M} — {title or entry_title(text)}" in have:
            report.skipped.append(f"sessions {day}: entry {when:%H:%M} {title!r} exists")
            continue
        signed = caller.signed_by(str(entry["by"])) if entry.get("by") else caller
        report.results.append(append_daily(vault, text, title=title, when=when, dry_run=dry_run,
                                           caller=signed))


def _known(vault: Vault) -> set[FactKey]:
    """The key of every fact the vault states now."""
    resolver = vault.index.resolver
    return {(entity, raw.attribute.casefold(), value_key(raw.value, note_id, resolver),
             raw.valid_from) for note_id, _, entity, raw in stated_facts(vault)}


def _key(vault: Vault, fact: Json) -> FactKey:
    """The key of a fact to import: (entity, attribute, value as compared, valid_from)."""
    entity = str(fact["entity"])
    found, _ = vault.index.resolver.resolve(entity, "")
    value = value_key(fact["value"], entity, vault.index.resolver)
    return (found or entity, str(fact["attribute"]).casefold(), value,
            str(fact.get("valid_from") or ""))


def _facts(vault: Vault, facts: list[Json], report: ImportReport, dry_run: bool,
           when: dt.datetime, caller: Caller) -> None:
    """Write the facts the vault does not state yet, grouped by entity."""
    known, groups = _known(vault), defaultdict(list)
    undated = {key[:3] for key in known}  # a fact note made from the template gets a date
    for fact in facts:
        key = _key(vault, fact)
        if key in known or (not key[3] and key[:3] in undated):
            report.skipped.append(f"facts {fact.get('id') or fact['entity']}: already stated")
        else:
            groups[str(fact["entity"])].append(fact)
    for entity, group in groups.items():
        notes = [f for f in group if f.get("kind") == "fact-note" or f.get("valid_from")]
        for fact in notes:
            report.results.append(_fact_note(vault, fact, dry_run, when, caller))
        rest = [f for f in group if f not in notes]
        if rest:
            report.results += _on_entity(vault, entity, rest, dry_run, when, caller)


def _on_entity(vault: Vault, entity: str, facts: list[Json], dry_run: bool,
               when: dt.datetime, caller: Caller) -> list[WriteResult]:
    """Facts set on the entity note: recorded on it, or a new note holding them all."""
    note = _existing(vault, entity)
    if note is not None:
        return [record_fact(vault, note.id, f["attribute"], str(f["value"]), when=when,
                            dry_run=dry_run, caller=caller) for f in facts]
    folder, _, title = entity.rpartition("/")
    kind = next((k for k in ENTITY_TYPES if vault.config.folders.get(k) == folder), None)
    if kind is None:
        return [_fact_note(vault, fact, dry_run, when, caller) for fact in facts]
    fields = {str(f["attribute"]): f["value"] for f in facts}
    return [new_note(vault, kind, title, fields=fields, dry_run=dry_run, when=when,
                     caller=caller)]


def _existing(vault: Vault, entity: str) -> Note | None:
    """The entity's note, if the vault has it."""
    try:
        return vault.note(entity)
    except NoteNotFound:
        return None


def _fact_note(vault: Vault, fact: Json, dry_run: bool, when: dt.datetime,
               caller: Caller) -> WriteResult:
    """A ``type: fact`` note stating the fact (numbered when its title is taken)."""
    entity, attribute = str(fact["entity"]), str(fact["attribute"])
    fact_id = str(fact.get("id") or "")
    base = fact_id.rsplit("/", 1)[-1] if fact.get("kind") == "fact-note" and fact_id \
        else f"{entity.rsplit('/', 1)[-1]} - {attribute}"
    taken = {note.title.casefold() for note in vault.notes.values()}
    title, number = base, 1
    while title.casefold() in taken:
        number += 1
        title = f"{base} {number}"
    fields = {key: fact.get(key) for key in ("valid_from", "valid_until", "confidence")}
    fields.update(attribute=attribute, value=fact["value"])
    source = str(fact.get("source") or "")
    links = {"entity": [entity], "source": [source] if source and source != fact_id else []}
    return new_note(vault, "fact", title, fields=fields, links=links, force=True,
                    dry_run=dry_run, when=when, caller=caller)
