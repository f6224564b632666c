"""The Relevant section of a context: the passages that answer the question, a note asked
for, or (an agent asked about nothing) the notes the agent links."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from ...index.lookup import facets, linked_from_lines, passages
from ...text import search_terms
from ...vault import Vault
from .answer_passages import FILING_REASON, LABEL_REASON, Answer, answer
from .candidates import NOTE_REASON, ContextItem, neighbour_items, overlap, section_link
from .judged import judged, pointer_items
from .periods import query_periods
from .restated import later_first
from .scored import Scored

NOTE_WEIGHT = 3.0  # a note asked for: its first passage's score (x RELEVANT_SCALE)
NOTE_PASSAGES = 12
PASSAGES_PER_TOKEN = 1 / 15  # passages offered per token of budget (whole ones never fit more)
RELEVANT_SCALE = 10.0  # a passage's score (about 0..2) against the other sections' items


class Asked(NamedTuple):
    """The Relevant items, the notes they link, and how the question was answered (None
    without a question)."""

    items: list[ContextItem]
    linked: set[str]
    answer: Answer | None


def relevant_items(vault: Vault, query: str | None, note: str | None, agent: str | None,
                   budget: int, today: dt.date, *, fill: bool = False) -> Asked:
    """The passages that answer the question (those :mod:`.judged` shows, or with ``fill``
    every one found, the latest of a thing said again first (:mod:`.restated`), and lines
    naming the notes of those left out) and those of the note asked
    for (or the notes an agent links), the notes they link, and how close the answer came."""
    items: list[ContextItem] = []
    linked: set[str] = set()
    found: Answer | None = None
    if note:
        target = vault.note(note)
        items += note_items(vault, target.id, set(search_terms(query or "")))
        linked |= {link.resolved for link in target.links if link.resolved}
    if agent and not query and not note:
        items += neighbour_items(vault, vault.notes[agent], set())
    if query:
        leave_out = frozenset({"MEMORY", "NOW", *([agent] if agent else [])})
        found = answer(vault, query, today=today, leave_out=leave_out,
                       most=max(8, int(budget * PASSAGES_PER_TOKEN)))
        days = frozenset(note_id for note_id, facet in facets(
            vault.store, {s.passage.note for s in found.passages}).items()
            if facet.type == "daily")
        shown, left = judged(found.passages, budget, fill=fill, days=days)
        if not query_periods(query, today):  # "what happened in May" asks of May
            shown = later_first(shown, found.weights, days=days,
                                label_reasons=frozenset({LABEL_REASON, FILING_REASON}))
        vault.index.notes.read(sorted({s.passage.note for s in shown} - days))  # one batch
        items += [passage_item(scored, "" if scored.passage.note in days else
                               _place(vault, scored)) for scored in shown]
        items += pointer_items(left, shown)
        linked |= linked_from_lines(vault.store, [(f.passage.note, f.passage.start,
                                                   f.passage.end) for f in shown])
        found = found._replace(left_out=found.left_out + len(left))
    return Asked(items, linked, found)


def note_items(vault: Vault, note_id: str, terms: set[str]) -> list[ContextItem]:
    """A note asked for: its properties and body passages as Relevant items (at most
    ``NOTE_PASSAGES``), earlier ones and those with the question's words first."""
    found = [p for p in passages(vault.store, [note_id]).get(note_id, []) if p.kind != "heading"]
    date = facets(vault.store, [note_id]).get(note_id)
    scored = [Scored(p, (NOTE_WEIGHT * (1 - index / (len(found) + 1)) + 2 * overlap(p.text, terms))
                     / RELEVANT_SCALE, date.date if date else "", (NOTE_REASON,))
              for index, p in enumerate(found)]
    best = sorted(scored, key=lambda s: (-s.score, s.passage.number))[:NOTE_PASSAGES]
    return [passage_item(s) for s in best]


def _place(vault: Vault, scored: Scored) -> str:
    """Where a passage answering a question is: its note and the section it is in (not for a
    daily note, whose sections are the hours of its day: the date says when)."""
    note = vault.notes.get(scored.passage.note)
    return section_link(note, scored.passage.start) if note else f"[[{scored.passage.note}]]"


def passage_item(scored: Scored, place: str = "") -> ContextItem:
    """A passage as a Relevant item, under its note's heading (``place``, as
    ``[[Robots/Motors#Kraken X60]]``, names the section it is in too: a passage carries its
    place; with the note's date when its id does not hold it), cited by block id or line."""
    passage, day = scored.passage, scored.date[:10]
    cite = f"^{passage.block_id}" if passage.block_id else f"line {passage.start}"
    group = (place or f"[[{passage.note}]]") + (
        f" ({day})" if day and day not in passage.note else "")
    return ContextItem(passage.note, "relevant", passage.text, cite,
                       RELEVANT_SCALE * scored.score, list(range(passage.start, passage.end + 1)),
                       group=group, kind=passage.kind, reasons=list(scored.reasons))
