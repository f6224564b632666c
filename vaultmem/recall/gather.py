"""Candidate items for each section of an agent's context, each with a score and a source."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from ..index.lookup import facts, facts_named, latest_of_type, notes_of_type
from ..model import Json, Note
from ..secrets import redact
from ..text import tokens
from ..vault import Vault

LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[.\]\s+)?")
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

    def to_dict(self) -> Json:
        """The ``context --json`` item shape."""
        data = asdict(self)
        data.pop("text")
        return data


def note_lines(vault: Vault, note_id: str) -> list[str]:
    """The note's file lines (as cached with its search document)."""
    return vault.note_text(note_id).splitlines()


def cite(note: Note, line: int) -> str:
    """``[[id#Heading]]`` for the heading above ``line`` (``[[id#^block]]`` for a block)."""
    block = next((b.id for b in note.block_ids if b.line == line), None)
    if block:
        return f"[[{note.id}#^{block}]]"
    above = [h for h in note.headings if h.line <= line and h.level > 1]
    return f"[[{note.id}#{redact(above[-1].text)}]]" if above else f"[[{note.id}]]"


def overlap(text: str, query: set[str]) -> float:
    """The share of the query's terms found in ``text``."""
    return len(query & set(tokens(text))) / len(query) if query else 0.0


def _body_lines(vault: Vault, note: Note) -> list[tuple[int, str]]:
    """(first file line, text) of the body's paragraphs and list items (headings left out).

    Lines of one paragraph join into one; each list item is its own piece.
    """
    lines = note_lines(vault, note.id)
    pieces: list[tuple[int, str]] = []
    joinable = False
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if number <= _body_start(lines) or not text or text.startswith(("#", "|-", "---")) \
                or text in ("```", "~~~"):
            joinable = False
            continue
        if joinable and not LIST_MARK.match(raw) and not text.startswith("|"):
            pieces[-1] = (pieces[-1][0], pieces[-1][1] + " " + text)
        else:
            pieces.append((number, text))
        joinable = True
    return pieces


def _body_start(lines: list[str]) -> int:
    """The last line of the frontmatter (0 when there is none)."""
    if lines and lines[0].strip() == "---":
        return next((i + 1 for i, line in enumerate(lines[1:], start=1)
                     if line.strip() == "---"), 0)
    return 0


def line_items(vault: Vault, note_id: str, section: str, query: set[str],
               weight: float = 1.0) -> list[ContextItem]:
    """Every body line of a note as an item, earlier lines and query matches first."""
    if note_id not in vault.notes:
        return []
    note = vault.notes[note_id]
    body = _body_lines(vault, note)
    return [ContextItem(note.id, section, LIST_MARK.sub("", text), cite(note, number),
                        weight * (1 - index / (len(body) + 1)) + 2 * overlap(text, query),
                        [number])
            for index, (number, text) in enumerate(body)]


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
        first = next((t for _, t in _body_lines(vault, other)), "")
        text = f"{other.title} ({other.type})" + (f": {LIST_MARK.sub('', first)}" if first else "")
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


def agent_items(vault: Vault, agent: Note, query: set[str]) -> list[ContextItem]:
    """The agent's profile and rules, and its confirmed or active lessons."""
    role = agent.frontmatter.get("role")
    items = [ContextItem(agent.id, "agent", f"{agent.title}: {role}", f"[[{agent.id}]]", 5.0,
                         [2])] if role else []
    items += line_items(vault, agent.id, "agent", query, weight=2.0)
    for lesson_id in backlinkers(vault, agent):
        lesson = vault.notes[lesson_id]
        status = lesson.frontmatter.get("status")
        if lesson.type == "lesson" and status in LIVE:
            rule = next((t for _, t in _body_lines(vault, lesson) if not t.startswith(">")), "")
            items.append(ContextItem(lesson.id, "agent", f"Lesson ({status}): {lesson.title}"
                                     + (f" — {LIST_MARK.sub('', rule)}" if rule else ""),
                                     f"[[{lesson.id}]]", 4.0 + (status == "confirmed")
                                     + 2 * overlap(lesson.title + rule, query), [1]))
    return items


def decision_items(vault: Vault, query: set[str], near: set[str]) -> list[ContextItem]:
    """Approved decisions nobody supersedes, newest first; those near the agent or query up."""
    superseded = {fact.entity for _, fact in facts_named(vault.store, "supersedes")}
    live = {note_id: meta for note_id, meta in notes_of_type(vault.store, "decision").items()
            if meta.status in LIVE and note_id not in superseded
            and note_id.rsplit("/", 1)[-1] not in superseded}
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


def _paragraph(lines: list[str], after: int) -> str:
    """The first paragraph (or list item) below 0-based line ``after``, joined into one."""
    out: list[str] = []
    for raw in lines[after:]:
        text = raw.strip()
        if text.startswith("#") or (out and (not text or LIST_MARK.match(raw))):
            break
        if text:
            out.append(LIST_MARK.sub("", text))
    return " ".join(out)


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
        trend = [m.group(2) for line in note_lines(vault, note_id)
                 if (m := TABLE_ROW.match(line.strip()))]
        text = (f"{note_id.rsplit('/', 1)[-1]}: {props.get('value', '?')}"
                f" (target {props.get('target', '?')} {props.get('unit', '')})".rstrip()
                + (f", trend {trend[0]} → {trend[-1]}" if len(trend) > 1 else ""))
        lines = sorted({f.line for f in brief if f.attribute in ("value", "target", "unit")})
        items.append(ContextItem(note_id, "kpis", text.replace(" )", ")"), f"[[{note_id}]]",
                                 1 + 2 * (note_id in near) + 2 * overlap(text, query), lines))
    return items


def property_lines(vault: Vault, note_id: str, keys: tuple[str, ...]) -> list[int]:
    """The file lines of a note's properties ``keys`` (from the index's facts)."""
    stated = facts(vault.store, [note_id]).get(note_id, [])
    return sorted({f.line for f in stated if f.attribute in keys and f.kind == "property"})


PERSON_KEYS = ("role", "org", "timezone")


def person_item(vault: Vault, note_id: str, score: float) -> ContextItem:
    """A person in one line: name, role, organisation, timezone."""
    note = vault.notes[note_id]
    fm = note.frontmatter
    facts = ", ".join(str(fm[k]) for k in PERSON_KEYS if fm.get(k))
    return ContextItem(note.id, "people", note.title + (f": {facts}" if facts else ""),
                       f"[[{note.id}]]", score, property_lines(vault, note_id, PERSON_KEYS))


def recent_items(vault: Vault, days: int, query: set[str]) -> list[ContextItem]:
    """Entries of the last ``days`` daily notes: time, title and first line."""
    dailies = latest_of_type(vault.store, "daily", days)
    items = []
    for rank, (date, note_id) in enumerate(dailies):
        note = vault.notes[note_id]
        lines = note_lines(vault, note_id)
        for heading in (h for h in note.headings if h.level == 3 and ENTRY.match(h.text)):
            first = redact(_paragraph(lines, heading.line))  # before joining to the title
            text = f"{date} {redact(heading.text)}" + (f": {first}" if first else "")
            items.append(ContextItem(note.id, "recent", redact(text),
                                     f"[[{note.id}#{redact(heading.text)}]]",
                                     1 - rank / (days + 1) + heading.line / 10_000
                                     + 2 * overlap(text, query), [heading.line]))
    return items
