"""Facts of the whole vault, from the cached index: which hold now, and values compared fairly."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..index.doc import Meta
from ..model import Fact
from ..read.extract import RawFact
from ..read.resolve import Resolver

INACTIVE = {"superseded", "archived", "deprecated", "rejected", "obsolete"}
LINKS = re.compile(r"\[\[([^\]]+)\]\]")
DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]00:00(?::00)?)?")
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?")


@dataclass
class Ledger:
    """Per note: its metadata; per (entity, attribute): every statement, and entity history.

    ``groups`` holds only the (entity, attribute) pairs stated more than once, the only ones
    that can conflict; ``expired`` the fact notes past ``valid_until``.
    """

    metas: dict[str, Meta] = field(default_factory=dict)
    groups: dict[tuple[str, str], list[Fact]] = field(default_factory=dict)
    reviewed: dict[tuple[str, str], str] = field(default_factory=dict)  # last history date
    relations: list[Fact] = field(default_factory=list)
    fact_notes: list[Fact] = field(default_factory=list)

    def status(self, note_id: str) -> str:
        """A note's status ("" for none, or a note not in the ledger)."""
        meta = self.metas.get(note_id)
        return meta.status if meta else ""


def build_ledger(documents: Iterable[tuple[str, Meta]], resolver: Resolver) -> Ledger:
    """Collect the facts that can conflict (entity links resolved) and every history date.

    Two properties of one note never share a key, so a group worth comparing always holds a
    field or a fact note: those are grouped first, then the entity's own property joins.
    """
    ledger = Ledger()
    raw: dict[tuple[str, str], list[tuple[str, str, RawFact]]] = defaultdict(list)
    resolve = _memo(resolver)
    for note_id, meta in documents:
        ledger.metas[note_id] = meta
        for attribute, date in meta.history:
            key = (note_id, attribute.casefold())
            ledger.reviewed[key] = max(ledger.reviewed.get(key, ""), date)
        for fact in meta.facts:
            if fact.kind == "property":
                continue
            entity = resolve(fact.entity, note_id) if fact.entity else note_id
            if fact.kind == "relation":
                ledger.relations.append(_fact(note_id, entity, fact))
                continue
            raw[(entity, fact.attribute.casefold())].append((note_id, entity, fact))
            if fact.kind == "fact-note":
                ledger.fact_notes.append(_fact(note_id, entity, fact))
    _add_properties(ledger, raw)
    ledger.groups = {key: [_fact(*item) for item in items]
                     for key, items in raw.items() if len(items) > 1}
    return ledger


def _add_properties(ledger: Ledger, raw: dict[tuple[str, str], list[tuple[str, str, RawFact]]]
                    ) -> None:
    """The entity notes' own properties, for the (entity, attribute) pairs stated elsewhere."""
    for (entity, attribute), items in raw.items():
        meta = ledger.metas.get(entity)
        for fact in meta.facts if meta else ():
            if fact.kind == "property" and fact.attribute.casefold() == attribute:
                items.append((entity, entity, fact))


def _memo(resolver: Resolver) -> Callable[[str, str], str]:
    """``resolver.resolve`` remembered; unresolved targets kept as text.

    A plain name that is not ambiguous resolves the same from every folder, so it is
    remembered once; anything else per (target, folder).
    """
    anywhere: dict[str, str] = {}
    seen: dict[tuple[str, str], str] = {}

    def resolve(target: str, source: str) -> str:
        if target in anywhere:
            return anywhere[target]
        key = (target, source.rpartition("/")[0])
        if key not in seen:
            found, ambiguous = resolver.resolve(target, source)
            seen[key] = found or target
            if not ambiguous and "/" not in target and not target.startswith("."):
                anywhere[target] = seen[key]
        return seen[key]

    return resolve


def _fact(note_id: str, entity: str, raw: RawFact) -> Fact:
    """A fact as stated, about ``entity``."""
    return Fact(entity, raw.attribute, raw.value, note_id, raw.line, raw.kind, raw.asserted,
                raw.valid_from, raw.valid_until, raw.confidence)


def holds(fact: Fact, ledger: Ledger, today: dt.date) -> bool:
    """True when the fact is current: not expired, its note not superseded or archived, and
    not stated in passing before the entity note last reviewed that attribute."""
    if fact.valid_until and fact.valid_until[:10] < today.isoformat():
        return False
    if ledger.status(fact.source) in INACTIVE:
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
    >>> value_key("[[A]], [[Lucy Tan]]", "x", r) == value_key("[[Lucy Tan|L]], [[A]]", "x", r)
    True
    >>> value_key("2026-1-2", "x", r) == value_key("2026-01-02T00:00:00", "x", r)
    True
    """
    if isinstance(value, bool):
        return str(value).lower()
    text = " ".join(str(value).split())
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()  # a quoted field value is the same text
    links = LINKS.findall(text)
    if links and not LINKS.sub("", text).strip(" ,;"):  # one link, or a list of links
        keys = []
        for inner in links:
            target = inner.split("|")[0].split("#")[0].strip()
            keys.append(resolver.resolve(target, source)[0] or target.casefold())
        return "links:" + "\x1f".join(sorted(set(keys)))
    if NUMBER.fullmatch(text):
        return repr(float(text))
    date = DATE.fullmatch(text)
    if date:  # 2026-1-2, 2026-01-02 and 2026-01-02T00:00:00 are one day
        return "date:" + "-".join(f"{int(part):02d}" for part in date.groups())
    return text.casefold().rstrip(".")
