"""Candidate items for each section of an agent's context, each with a score and a source."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from ...index.lookup import (
    StoredPassage,
    entities_named,
    facts,
    latest_of_type,
    notes_of_type,
    passages,
)
from ...model import Json, Note
from ...read.extract import RawFact
from ...secrets import redact
from ...text import search_terms
from ...vault import Vault

NOTE_REASON = "a passage of the note asked for"  # a note asked for shows all of it
SENTENCE_END = re.compile("[.!?\u3002\uff01\uff1f][\"')\\]*]*$")
LINK_CHARS = re.compile(r"\[\[|\]\]|%%|[#|^:\[\]]")
TABLE_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*([-+]?\d+(?:\.\d+)?)\s*\|")
ENTRY = re.compile(r"^(\d{1,2}:\d{2})\s+—\s+(.*)$")
LIVE = {"approved", "accepted", "active", "confirmed"}
SHOWN_AT_MOST = 20  # decisions or KPIs read for a context (its section shows a few)


@dataclass
class ContextItem:
    """One piece of context: its text, where it comes from, and how much it is worth."""

    id: str
    section: str
    text: str
    cite: str
    score: float
    lines: list[int] = field(default_factory=list)
    tokens: int = 0
    group: str = ""  # the heading it is shown under within its section ("" for none)
    kind: str = ""  # the passage kind it shows (``code`` is shown fenced), "" for none
    reasons: list[str] = field(default_factory=list)  # why it is in (``context --explain``)

    def source(self) -> str:
        """Where it comes from, naming its note: ``cite`` when it is a link, else the note's
        link with the block or line a passage under its note's heading is cited by.

        >>> ContextItem("Daily/2026-12-01", "relevant", "", "line 15", 1.0).source()
        '[[Daily/2026-12-01]] line 15'
        >>> ContextItem("Chat", "relevant", "", "^t3", 1.0).source()
        '[[Chat#^t3]]'
        """
        if self.cite.startswith("[["):
            return self.cite
        if self.cite.startswith("^"):
            return f"[[{self.id}#{self.cite}]]"
        return f"[[{self.id}]] {self.cite}".rstrip()

    def to_dict(self) -> Json:
        """The ``context --json`` item shape."""
        data = asdict(self)
        data.pop("text")
        return data


def note_lines(vault: Vault, note_id: str) -> list[str]:
    """The note's file lines (as cached with its search document)."""
    return vault.note_text(note_id).splitlines()


def body_passages(vault: Vault, note_id: str) -> list[StoredPassage]:
    """The note's passages that say something: neither its properties nor a lone heading."""
    return [passage for passage in passages(vault.store, [note_id]).get(note_id, [])
            if passage.kind not in ("properties", "heading")]


def cite(note: Note, line: int, block: str | None = None) -> str:
    """``[[id#Heading]]`` for the heading above ``line`` (``[[id#^block]]`` for a block, the
    one given or the one on ``line``), the heading as a link names it."""
    block = block or next((b.id for b in note.block_ids if b.line == line), None)
    if block:
        return f"[[{note.id}#^{block}]]"
    return section_link(note, line)


def section_link(note: Note, line: int) -> str:
    """``[[id#Heading]]`` for the heading (below the first level) above ``line``, the heading
    as a link names it; ``[[id]]`` when none is."""
    above = [h for h in note.headings if h.line <= line and h.level > 1]
    heading = link_heading(redact(above[-1].text)) if above else ""  # a secret as written
    return f"[[{note.id}#{heading}]]" if heading else f"[[{note.id}]]"


def link_heading(text: str) -> str:
    """A heading as a link names it: what a link cannot hold (``[[``, ``]]``, ``#``, ``|``,
    ``^``, ``:``, ``%%``, brackets) made spaces, as Obsidian writes it.

    >>> link_heading("[[Arithmetic Logic Unit]]: ALU #hw")
    'Arithmetic Logic Unit ALU hw'
    """
    return " ".join(LINK_CHARS.sub(" ", text).split())


def overlap(text: str, query: set[str]) -> float:
    """The share of the query's terms found in ``text``."""
    return len(query & _terms(text)) / len(query) if query else 0.0


@functools.lru_cache(maxsize=16_384)
def _terms(text: str) -> frozenset[str]:
    """The search terms of ``text``, remembered: every context weighs the same titles (of
    decisions, KPIs, people) again."""
    return frozenset(search_terms(text))


def line_items(vault: Vault, note_id: str, section: str, query: set[str],
               weight: float = 1.0) -> list[ContextItem]:
    """Every body passage of a note as an item (on one line, unless code), earlier ones and
    query matches first."""
    if note_id not in vault.notes:
        return []
    note = vault.notes[note_id]
    body = body_passages(vault, note_id)
    return [ContextItem(note.id, section, p.text if p.kind == "code" else " ".join(p.text.split()),
                        cite(note, p.start, p.block_id),
                        weight * (1 - index / (len(body) + 1)) + 2 * overlap(p.text, query),
                        list(range(p.start, p.end + 1)), kind=p.kind)
            for index, p in enumerate(body)]


def first_words(vault: Vault, note_id: str) -> str:
    """A note's first words on one line: its first body passage's lines up to the first that
    ends a sentence (a short section holds more than its first paragraph); "" for none."""
    body = body_passages(vault, note_id)
    lines = body[0].text.split("\n") if body else []
    ends = next((at for at, line in enumerate(lines) if SENTENCE_END.search(line)), len(lines))
    return " ".join(" ".join(lines[: ends + 1]).split())


def neighbour_items(vault: Vault, agent: Note, query: set[str]) -> list[ContextItem]:
    """Without a question: the notes the agent links, each by its title and first line."""
    items = []
    for link in agent.links:
        target = link.resolved
        if target is None or target not in vault.notes or target == agent.id:
            continue
        other = vault.notes[target]
        if other.type == "lesson" and other.frontmatter.get("status") in LIVE:
            continue  # already in the agent's own section
        first = first_words(vault, other.id)
        text = f"{other.title} ({other.type})" + (f": {first}" if first else "")
        items.append(ContextItem(other.id, "relevant", text, f"[[{other.id}]]",
                                 1.5 + 2 * overlap(text, query), []))
    unique = {item.id: item for item in reversed(items)}
    return sorted(unique.values(), key=lambda i: i.id)


def now_items(vault: Vault, query: set[str]) -> list[ContextItem]:
    """NOW.md lines, the current task first."""
    items = line_items(vault, "NOW", "now", query)
    order = {"Current Task": 3, "Blockers": 2, "Priorities": 1.5}
    for item in items:
        heading = item.cite.partition("#")[2].rstrip("]")
        item.score += order.get(heading, 0.5)
        item.text = f"{heading}: {item.text}" if heading else item.text
    return items


def backlinkers(vault: Vault, note: Note) -> list[str]:
    """Source notes that link to ``note`` (from the index's links, no graph needed)."""
    return [other for other in vault.store.linking(note.id)
            if other != note.id and other in vault.notes]


def agent_items(vault: Vault, agent: Note, query: set[str], *,
                asked: bool = False) -> list[ContextItem]:
    """The agent's profile and rules, and its confirmed or active lessons (those holding a
    word of the question, when ``asked`` one)."""
    role = agent.frontmatter.get("role")
    items = [ContextItem(agent.id, "agent", f"{agent.title}: {role}", f"[[{agent.id}]]", 5.0,
                         [2])] if role else []
    items += line_items(vault, agent.id, "agent", query, weight=2.0)
    for lesson_id in backlinkers(vault, agent):
        lesson = vault.notes[lesson_id]
        status = lesson.frontmatter.get("status")
        if lesson.type == "lesson" and status in LIVE:
            rule = first_words(vault, lesson.id)
            if asked and not overlap(lesson.title + " " + rule, query):
                continue
            items.append(ContextItem(lesson.id, "agent", f"Lesson ({status}): {lesson.title}"
                                     + (f" — {rule}" if rule else ""),
                                     f"[[{lesson.id}]]", 4.0 + (status == "confirmed")
                                     + 2 * overlap(lesson.title + rule, query), [1]))
    return items


def decision_items(vault: Vault, query: set[str], near: set[str]) -> list[ContextItem]:
    """Approved decisions nobody supersedes, newest first; those near the agent or query up."""
    superseded = entities_named(vault.store, "supersedes")
    live = {note_id: meta for note_id, meta in notes_of_type(vault.store, "decision",
                                                             statuses=LIVE).items()
            if note_id not in superseded and note_id.rsplit("/", 1)[-1] not in superseded}
    decisions = {i: live[i] for i in _likeliest(live, query, near,
                                                 lambda i: _recency(live[i].date))}
    stated = facts(vault.store, decisions)
    items = []
    for note_id, meta in sorted(decisions.items()):
        brief = stated.get(note_id, [])
        title = note_id.rsplit("/", 1)[-1]
        rationale = next((str(f.value) for f in brief if f.attribute == "rationale"), "")
        text = f"{title} ({meta.date or 'undated'})" + (f": {rationale}" if rationale else "")
        score = 1 + (note_id in near) * 2 + 2 * overlap(text, query) + _recency(meta.date)
        lines = sorted({f.line for f in brief if f.attribute in ("rationale", "topic")})
        items.append(ContextItem(note_id, "decisions", text, f"[[{note_id}]]", score, lines))
    return items


def _likeliest(ids: Iterable[str], query: set[str], near: set[str],
               bonus: Callable[[str], float]) -> list[str]:
    """The ``SHOWN_AT_MOST`` notes most likely to be chosen, by what is known before reading
    them: near the agent or the question, the question's words in the title, then ``bonus``
    (a section shows a few; reading every decision or KPI would cost the whole vault's)."""
    def likely(note_id: str) -> tuple[float, str]:
        title = note_id.rsplit("/", 1)[-1]
        return -(2 * (note_id in near) + 2 * overlap(title, query) + bonus(note_id)), note_id

    return sorted(sorted(ids, key=likely)[:SHOWN_AT_MOST])


def _recency(date: str) -> float:
    """A small bonus for newer dates (ISO strings compare in time order)."""
    return int(date[:4]) / 10_000 + int(date[5:7] or 0) / 120_000 if date[:4].isdigit() else 0.0


def kpi_items(vault: Vault, query: set[str], near: set[str]) -> list[ContextItem]:
    """KPIs: value against target, with the trend of their history table."""
    kpis = sorted(_likeliest(notes_of_type(vault.store, "kpi"), query, near, lambda i: 0.0))
    stated = facts(vault.store, kpis)
    items = []
    for note_id in kpis:
        brief = [f for f in stated.get(note_id, []) if f.kind == "property"]
        props = {f.attribute: f.value for f in brief}
        if props.get("value") in (None, "") and props.get("target") in (None, ""):
            continue  # "? (target ?)" tells nothing
        trend = [m.group(2) for line in note_lines(vault, note_id)
                 if (m := TABLE_ROW.match(line.strip()))]
        text = (f"{note_id.rsplit('/', 1)[-1]}: {props.get('value', '?')}"
                f" (target {props.get('target', '?')} {props.get('unit', '')})".rstrip()
                + (f", trend {trend[0]} → {trend[-1]}" if len(trend) > 1 else ""))
        lines = sorted({f.line for f in brief if f.attribute in ("value", "target", "unit")})
        items.append(ContextItem(note_id, "kpis", text.replace(" )", ")"), f"[[{note_id}]]",
                                 1 + 2 * (note_id in near) + 2 * overlap(text, query), lines))
    return items


PERSON_KEYS = ("role", "org", "timezone")


def person_items(vault: Vault, people: list[str], score: float) -> list[ContextItem]:
    """Each person in one line: name, role, organisation, timezone (a list's values joined),
    cited by the lines of those properties."""
    vault.index.notes.read(people)  # one batch of reads, not one per person
    stated = facts(vault.store, people)
    return [_person_item(vault.notes[person], stated.get(person, []), score)
            for person in people]


def _person_item(note: Note, stated: list[RawFact], score: float) -> ContextItem:
    """One person's line (``stated``: the facts of the note)."""
    fm = note.frontmatter
    values = [fm[k] if isinstance(fm[k], list) else [fm[k]] for k in PERSON_KEYS if fm.get(k)]
    said = ", ".join(str(v) for listed in values for v in listed
                     if v not in (None, "") and not isinstance(v, dict))
    lines = sorted({f.line for f in stated if f.attribute in PERSON_KEYS and f.kind == "property"})
    return ContextItem(note.id, "people", note.title + (f": {said}" if said else ""),
                       f"[[{note.id}]]", score, lines)


def recent_items(vault: Vault, days: int, query: set[str]) -> list[ContextItem]:
    """Entries of the last ``days`` daily notes: time, title and first line."""
    dailies = latest_of_type(vault.store, "daily", days)
    items = []
    for rank, (date, note_id) in enumerate(dailies):
        note = vault.notes[note_id]
        body = body_passages(vault, note_id)
        for heading in (h for h in note.headings if h.level == 3 and ENTRY.match(h.text)):
            ends = min((h.line for h in note.headings if h.line > heading.line), default=None)
            first = next((" ".join(p.text.split()) for p in body if p.start > heading.line
                          and (ends is None or p.start < ends)), "")
            text = f"{date} {redact(heading.text)}" + (f": {redact(first)}" if first else "")
            items.append(ContextItem(note.id, "recent", redact(text),
                                     f"[[{note.id}#{link_heading(redact(heading.text))}]]",
                                     1 - rank / (days + 1) + heading.line / 10_000
                                     + 2 * overlap(text, query), [heading.line]))
    return items
