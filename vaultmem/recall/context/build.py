"""An agent's context: the memory it needs, in sections, sourced, within a token budget.

Every section gets candidates with scores (:mod:`.candidates`). Each first takes its floor, a
share of the budget, best items first; what is left goes to the best remaining items of any
section (weighted by section); an item too big for what is left is trimmed at a line,
sentence or word end. Conflicts touching anything chosen are added last, displacing the
weakest items if needed. Same vault, same arguments: same context.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ...clock import today as clock_today
from ...errors import UsageError
from ...index.lookup import facets as facets_of
from ...model import Json
from ...secrets import redact
from ...text import line_runs, search_terms
from ...vault import Vault
from ..question_bounds import bounded
from ..token_budget import TokenCounter, counter, trim
from .answer_passages import Answer
from .candidates import (
    ContextItem,
    agent_items,
    decision_items,
    kpi_items,
    line_items,
    now_items,
    overlap,
    person_items,
    recent_items,
)
from .relevant_section import relevant_items
from .rendering import SECTIONS, item_line, reasons_shown, render
from .unanswered import far_note, unused_note

RECENT_DAYS = 3
MIN_TRIMMED = 40
MIN_ROOM = 12  # tokens: less than this left holds no useful item
CONFLICT_KINDS = ("fact-conflict", "decision-conflict", "superseded-active", "expired-used")


@dataclass
class Context:
    """A built context: the Markdown text and the items it holds."""

    agent: str | None
    query: str | None
    budget: int
    tokens: int
    text: str
    items: list[ContextItem] = field(default_factory=list)

    def sources(self) -> list[str]:
        """Where the items come from, each naming its note, sorted: links as cited, and the
        lines cited of each note together (``[[Daily/2026-11-27]] lines 9, 14-16``)."""
        linked = {item.source() for item in self.items if not item.cite.startswith("line ")}
        lines: dict[str, set[int]] = {}
        for item in self.items:
            if item.cite.startswith("line "):
                lines.setdefault(item.id, set()).update(item.lines or [int(item.cite[5:])])
        return sorted(linked | {f"[[{note}]] {line_runs(sorted(found))}"
                               for note, found in lines.items()})

    def explained(self) -> str:
        """The text, then why each item is in, in the order shown (outside the budget)."""
        return self.text + reasons_shown(self.items)

    def to_dict(self) -> Json:
        """The ``context --json`` shape."""
        return {"agent": self.agent, "query": self.query, "budget": self.budget,
                "tokens": self.tokens, "text": self.text,
                "items": [item.to_dict() for item in self.items]}


def build_context(vault: Vault, *, agent: str | None = None, query: str | None = None,
                  note: str | None = None, budget: int = 2000,
                  today: dt.date | None = None, fill: bool = False) -> Context:
    """The context for ``agent`` (a note name) about ``query`` and/or ``note``; ``fill``:
    every passage found for the question as far as the budget goes, not only those judged
    worth showing (:mod:`.judged`)."""
    count = counter()
    bounded(query)
    agent_note = vault.note(agent, kind="agent") if agent else None
    terms = set(search_terms(query or ""))
    candidates, found = _candidates(vault, agent_note.id if agent_note else None, query, note,
                                    terms, budget, today or clock_today(), fill)
    header = _header(agent_note.title if agent_note else None, query)
    closing = far_note(found)
    room = budget - count(header) - (count(closing) if closing else 0)
    if room < 20:
        raise UsageError(f"--budget {budget} is too small; give at least {budget - room + 20}")
    chosen = _with_conflicts(vault, _choose(candidates, room, count, asked=bool(query)), room,
                             count, today)
    text = render(header, chosen) if chosen else header + _nothing(query, terms, closing)
    if closing and chosen:  # an empty context says why itself (_nothing)
        text += "\n" + closing
    text += "\n" + left if (left := unused_note(found, budget, text, count)) else ""
    return Context(agent_note.id if agent_note else None, query, budget, count(text), text,
                   chosen)


def _header(agent: str | None, query: str | None) -> str:
    """The context's first lines (a secret in the question is not repeated)."""
    title = f"# Context for {agent}" if agent else "# Context"
    return redact(title + (f"\n\nQuestion: {query}" if query else "")) + "\n"


def _nothing(query: str | None, terms: set[str], closing: str) -> str:
    """What a context without any item says, so an agent does not read it as cut off:
    ``closing`` when no passage came close to the question."""
    if query and not terms:
        return "\nThe question has no words to search the vault for.\n"
    if closing:
        return "\n" + closing
    return "\nNothing in the vault matches " + ("the question.\n" if query else "this request.\n")


def _candidates(vault: Vault, agent: str | None, query: str | None, note: str | None,
                terms: set[str], budget: int, today: dt.date, fill: bool
                ) -> tuple[list[ContextItem], Answer | None]:
    """Every candidate item of every section (secrets are redacted when an item is chosen).
    With a question, a decision, KPI, person, lesson or recent entry is one only when it
    holds a word of the question, or the agent or a passage shown for it links it (or holds
    it): the others say nothing of it."""
    near: set[str] = set()
    items = line_items(vault, "MEMORY", "core", terms) + now_items(vault, terms)
    if agent:
        agent_note = vault.notes[agent]
        near |= {link.resolved for link in agent_note.links if link.resolved}
        items += agent_items(vault, agent_note, terms, asked=bool(query))
    relevant, linked, found = relevant_items(vault, query, note, agent, budget, today,
                                             fill=fill)
    near |= linked | {item.id for item in relevant if item.kind != "pointer"}
    around = decision_items(vault, terms, near) + kpi_items(vault, terms, near)
    around += _people(vault, near, agent) + recent_items(vault, RECENT_DAYS, terms)
    if query:
        around = [i for i in around if i.id in near or overlap(i.text, terms) > 0]
    return items + relevant + around, found


def _people(vault: Vault, near: set[str], agent: str | None) -> list[ContextItem]:
    """The people linked from the agent, the hits and the notes around them."""
    people = sorted(note_id for note_id, facets in facets_of(vault.store, near).items()
                    if facets.type == "person")
    return person_items(vault, people, 2.0)


def _cost(item: ContextItem, count: TokenCounter) -> int:
    """Tokens of an item as rendered."""
    return count(item_line(item) + "\n")


def _headings(item: ContextItem, chosen: list[ContextItem], count: TokenCounter) -> int:
    """Tokens of the headings ``item`` adds: its section's and its group's, when new."""
    title = next(t for k, t, _, _ in SECTIONS if k == item.section)
    section = 0 if any(i.section == item.section for i in chosen) else count(f"\n## {title}\n")
    group = 0 if not item.group or any(i.group == item.group and i.section == item.section
                                       for i in chosen) else count(f"### {item.group}\n")
    return section + group


def _choose(items: list[ContextItem], budget: int, count: TokenCounter, *,
            asked: bool) -> list[ContextItem]:
    """Floors first, then the best of the rest; an item that does not fit is trimmed (a
    passage is left out instead: it is shown whole or not at all), one whose lines are
    already shown is left out. With a question (``asked``), recent activity has no floor: it
    competes with the rest by its relevance.

    Secrets are redacted from an item before its size is counted, so the budget holds.
    """
    by_section = {key: sorted((i for i in items if i.section == key),
                              key=lambda i: (-i.score, i.id, i.lines))
                  for key, *_ in SECTIONS}
    chosen: list[ContextItem] = []
    used = 0
    for key, _, floor, _ in SECTIONS:
        share = 0 if asked and key == "recent" else int(budget * floor)
        for item in by_section[key]:
            if _shown(item, chosen):
                continue
            _redact(item)
            cost = _cost(item, count) + _headings(item, chosen, count)
            if cost > share or used + cost > budget:
                if item.group:
                    continue  # a smaller passage may still fit the floor
                break
            chosen.append(item)
            used, share = used + cost, share - cost
    weights = {key: weight for key, _, _, weight in SECTIONS}
    taken = {id(item) for item in chosen}
    rest = sorted((i for i in items if id(i) not in taken),
                  key=lambda i: (-i.score * weights[i.section], i.id, i.lines))
    for item in rest:
        if budget - used < MIN_ROOM:
            break
        if _shown(item, chosen):
            continue
        _redact(item)
        used += _take(item, chosen, budget - used, count)
    return chosen


def _shown(item: ContextItem, chosen: list[ContextItem]) -> bool:
    """True when a chosen item already shows a line of ``item``'s note that it shows."""
    lines = set(item.lines)
    return bool(lines) and any(c.id == item.id and lines & set(c.lines) for c in chosen)


def _redact(item: ContextItem) -> None:
    """Secrets out of an item's text and source (the text as a whole: a key block spans lines)."""
    item.text = redact(item.text)
    item.cite = redact(item.cite)


def _take(item: ContextItem, chosen: list[ContextItem], room: int, count: TokenCounter) -> int:
    """Add ``item`` (trimmed if needed, unless a passage) when it fits in ``room``; the tokens
    it used."""
    heading = _headings(item, chosen, count)
    cost = _cost(item, count) + heading
    if cost > room:
        if item.group:
            return 0
        overhead = _cost(ContextItem(item.id, item.section, "", item.cite, 0), count) + heading
        limit = room - overhead - item.text.count("\n")  # continuation lines are indented
        item.text = trim(item.text, limit, count) if limit > 0 else ""
        while item.text and _cost(item, count) + heading > room:
            limit -= 1
            item.text = trim(item.text, limit, count) if limit > 0 else ""
        if len(item.text) < MIN_TRIMMED:  # a stub of a sentence helps nobody
            return 0
        item.lines = item.lines[: item.text.count("\n") + 1]  # only the lines still there
        cost = _cost(item, count) + heading
    chosen.append(item)
    return cost


def _with_conflicts(vault: Vault, chosen: list[ContextItem], budget: int, count: TokenCounter,
                    today: dt.date | None) -> list[ContextItem]:
    """Warn about open conflicts touching the chosen notes, dropping the weakest item of the
    section that holds most tokens if needed (small sections keep what their floor gave)."""
    from ...check.conflicts import find_conflicts

    ids = {item.id for item in chosen}
    warnings = [ContextItem(f.notes[0], "conflicts", f.message, f.sources[0].split("]]")[0] + "]]"
                            if f.sources else f"[[{f.notes[0]}]]", 10.0)
                for f in find_conflicts(vault, kinds=CONFLICT_KINDS, today=today, touching=ids)]
    kept = list(chosen)
    for warning in warnings:
        _redact(warning)
        while kept and _total([*kept, warning], count) > budget:
            kept.remove(_weakest(kept, count))
        if _total([*kept, warning], count) <= budget:
            kept.append(warning)
    return kept


def _weakest(items: list[ContextItem], count: TokenCounter) -> ContextItem:
    """The weakest item of the section whose items take most tokens."""
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item.section] = sizes.get(item.section, 0) + _cost(item, count)
    largest = max(sizes, key=lambda section: (sizes[section], section))
    return min((i for i in items if i.section == largest), key=lambda i: (i.score, i.id))


def _total(items: list[ContextItem], count: TokenCounter) -> int:
    """Tokens of the rendered sections (per-piece estimates round up, so never less)."""
    titles = {key: title for key, title, _, _ in SECTIONS}
    headings = sum(count(f"\n## {titles[s]}\n") for s in {i.section for i in items})
    groups = sum(count(f"### {g}\n") for g in {i.group for i in items if i.group})
    return headings + groups + sum(_cost(item, count) for item in items)
