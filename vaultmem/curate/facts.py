"""Facts of the whole vault, from the cached index: which hold now, and values compared fairly."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model import Fact
from ..read.resolve import Resolver
from ..recall.doc import Meta
from .extract import RawFact

INACTIVE = {"superseded", "archived", "deprecated", "rejected", "obsolete"}
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?")


@dataclass
class Ledger:
    """Per note: its metadata; per (entity, attribute): every statement, and entity history."""

    metas: dict[str, Meta] = field(default_factory=dict)
    groups: dict[tuple[str, str], list[Fact]] = field(default_factory=lambda: defaultdict(list))
    reviewed: dict[tuple[str, str], str] = field(default_factory=dict)  # last history date
    relations: list[Fact] = field(default_factory=list)


def build_ledger(documents: Iterable[tuple[str, Meta]], resolver: Resolver) -> Ledger:
    """Collect every fact (entity links resolved) and every ``## History`` date."""
    ledger = Ledger()
    for note_id, meta in documents:
        ledger.metas[note_id] = meta
        for attribute, date in meta[6]:
            key = (note_id, attribute.casefold())
            ledger.reviewed[key] = max(ledger.reviewed.get(key, ""), date)
        for raw in meta[5]:
            fact = _fact(note_id, raw, resolver)
            if fact.kind == "relation":
                ledger.relations.append(fact)
            else:
                ledger.groups[(fact.entity, fact.attribute.casefold())].append(fact)
    return ledger


def _fact(note_id: str, raw: RawFact, resolver: Resolver) -> Fact:
    """A fact with its entity resolved (a note states facts about itself by default)."""
    attribute, value, line, kind, target, valid_from, valid_until, confidence, asserted = raw
    entity = note_id
    if target:
        found, _ = resolver.resolve(target, note_id)
        entity = found or target
    return Fact(entity, attribute, value, note_id, line, kind, asserted, valid_from,
                valid_until, confidence)


def holds(fact: Fact, ledger: Ledger, today: dt.date) -> bool:
    """True when the fact is current: not expired, its note not superseded or archived, and
    not stated in passing before the entity note last reviewed that attribute."""
    if fact.valid_until and fact.valid_until[:10] < today.isoformat():
        return False
    if ledger.metas.get(fact.source, ("", ""))[1] in INACTIVE:
        return False
    if fact.kind == "property":
        return True
    reviewed = ledger.reviewed.get((fact.entity, fact.attribute.casefold()), "")
    return not reviewed or (bool(fact.asserted) and fact.asserted > reviewed)


def value_key(value: object, source: str, resolver: Resolver) -> str:
    """A value as compared: case, spacing, numbers, dates and links normalised.

    >>> r = Resolver(["People/Lucy Tan"], [])
    >>> value_key("[[Lucy Tan]]", "x", r) == value_key("[[People/Lucy Tan|Lucy]]", "x", r)
    True
    >>> value_key("42", "x", r) == value_key(42.0, "x", r), value_key(" UTC+8", "x", r)
    (True, 'utc+8')
    """
    if isinstance(value, bool):
        return str(value).lower()
    text = " ".join(str(value).split())
    if text.startswith("[[") and text.endswith("]]"):
        target = text[2:-2].split("|")[0].split("#")[0].strip()
        found, _ = resolver.resolve(target, source)
        return "link:" + (found or target.casefold())
    if NUMBER.fullmatch(text):
        return repr(float(text))
    return text.casefold().rstrip(".")
