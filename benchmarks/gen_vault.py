r"""Generate a deterministic synthetic Obsidian vault and its ground truth (a parser benchmark).

Usage::

    python benchmarks/gen_vault.py N OUT [--seed 7]

writes N Markdown notes into the folder OUT (created; refused with exit code 2 when it exists
and is not empty) and the ground truth into ``OUT.truth.json`` beside the folder. The same N and
seed give byte-identical output. Also importable: ``generate(n, out, seed=7) -> dict``.

Layout (DESIGN.md types): People/ 8 %, Projects/ 3 %, Decisions/ 10 %, Lessons/ 8 %, Agents/ 1 %,
KPIs/ 1 %, Facts/ 5 %, Daily/YYYY-MM-DD.md 25 % (consecutive dates), Notes/<topic>/ the rest,
Attachments/img-NNNN.png (1 %), .obsidian/app.json and daily-notes.json. Titles are unique by
basename (case-insensitively) except about 0.5 % of N Notes/ pairs sharing a basename in two
topics; links to those always use the vault path, so every link resolves unambiguously.

Counted (in the truth): frontmatter property links (``owner: "[[X]]"``, ``"[[X|a]]"``, block and
flow lists); body links ``[[X]]``, ``[[X|alias]]``, ``[[X#Heading]]``, ``[[X#^b1]]``, ``[[X.md]]``,
``[[x lower]]``, ``[[Folder/X]]`` and their combinations, note embeds ``![[X#H]]``, attachment
embeds ``![[img-0001.png]]`` / ``![[img-0001.png|300]]`` and plain ``[[img-0001.png]]``, links in
tasks, callouts, numbered lists, table cells (``[[X\|alias]]``) and inline field values; about 2 %
broken links (``[[Unwritten ...]]``); frontmatter tags (scalar, flow, block list) and inline
tags (``#topic/sub``, ``#tag-name``, ``#q3_planning``, ``#y2024``, ``#Follow-Up``, ``#Café``);
inline fields ``key:: value`` on their own line (``Next Review`` -> ``next-review``),
``[key:: value]`` and ``(key:: value)`` in sentences and tasks.

Not counted (decoys, in about 30 % of the notes): ``` and ~~~ fences, a ```` fence holding ```,
inline code, ``%%...%%`` inline and multi-line comments, ``<!-- -->`` comments, ``$...$`` and
``$$`` math, ``\[\[Not\]\]``, ``\#nottag``, ``https://example.com/#frag``, ``a#b``, ``#1984``.

Ground truth::

    {"n": N, "seed": S, "notes": {note_id: {
        "links": [[target, line, embed, resolved], ...],   # sorted by (line, target, embed)
        "tags": [lower-case tag, ...],                      # sorted, unique
        "fields": [[key, line], ...]}},                     # inline fields, sorted by (line, key)
     "conflicts": [{"kind": kind, "notes": [note_id, ...]}, ...]}   # planted, see below

``target`` is the link path as written (no ``#subpath``, no ``|alias``), ``line`` the 1-based
file line (the opening ``---`` is line 1), ``resolved`` a note id, ``Attachments/<name>`` or null.

Consistent memory: the vault does not contradict itself by accident. Every value stated about a
note (its own property, a field on a line linking only it, a field about itself, a fact note)
comes from one value per (note, attribute); a field on a line linking 0 or 2+ notes is about
the note it is in. Facts form histories: at most one current fact note per (entity, attribute),
older ones expire (``valid_until`` the day before the next ``valid_from``; fact dates end by
2025-06-30, so expiry dates are well past). Decisions form supersede chains sharing one topic
(older ones ``status: superseded``); other topics are unique. Person aliases (first name,
``F. Last``) are given only when no other note claims them; titles of one type are never 92 %+
alike (as the duplicate detector compares them); agent notes never link expired facts.

Planted conflicts (``max(3, round(N / 500))`` of each kind where the vault has room) are listed in
the truth as ``"conflicts": [{"kind": ..., "notes": [sorted note ids]}]``, with ``notes`` as
``vaultmem conflicts`` reports them: fact-conflict (a daily line ``- [[Person]] timezone:: X``
against the person's property, a fact note against it, or an older fact note left current),
decision-conflict (two approved decisions on one topic), superseded-active (the older of a
chain left approved), duplicate (a note saved twice: one of its type retitled as a typo of it
and given its text), alias-clash (two people given one alias) and expired-used (an agent note
linking an expired fact note). The Notes/ pairs sharing a basename in two topic folders (with
their own text) are two notes, as in real vaults: no duplicate.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import count, pairwise, product
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

LinkRow = tuple[str, int, bool, str | None]
Entry = dict[str, list[Any]]  # one note's truth: links, tags, fields


def words(text: str) -> tuple[str, ...]:
    """Return the words of text as a tuple."""
    return tuple(text.split())


FIRST = words(
    "Ana Ben Carla David Elena Farid Grace Hiro Ines Jonas Kara Liam Maya Noah Olga Pavel Quinn "
    "Rosa Sam Tara Umar Vera Wei Xenia Yusuf Zoe Amir Bianca Chen Dara Emil Fatima Gus Hana Ivan "
    "Julia Kenji Lucy Marco Nina Omar Priya Raj Sofia Tomas Uma Victor Wen Yara Zane Lena Mateo "
    "Aisha Bruno Clara Diego Erik Freya Greta Hugo"
)
LAST = words(
    "Ruiz Tan Okafor Novak Schmidt Costa Haddad Kim Larsen Moreau Nakamura Oliveira Petrov Quist "
    "Rossi Singh Torres Usman Varga Weber Xu Yilmaz Zhou Andersen Brooks Chandra Dubois Evans "
    "Fischer Garcia Hoffman Ito Jensen Kowalski Lopez Meyer Nguyen Ortiz Park Reyes Silva Thomas "
    "Ueda Vogel Walsh Young Abbott Bauer Castro Diaz Ellis Ford Gupta Hayes Iqbal Kaur Lindqvist "
    "Mendes Nolan Osei"
)
CODENAMES = words(
    "Aurora Borealis Cobalt Delta Ember Falcon Granite Harbor Iris Juniper Kestrel Lumen Meridian "
    "Nimbus Onyx Polaris Quartz Rivet Sierra Tundra Umbra Vertex Willow Zephyr Atlas Beacon "
    "Cascade Dune Echo Fjord Glacier Helix Indigo Jasper Kite Lotus Mosaic Nova Orbit Prism"
)
PROJECT_NOUNS = words(
    "Migration Rollout Redesign Platform Pipeline Launch Cleanup Audit Integration Onboarding "
    "Revamp Pilot Refactor Dashboard Sync"
)
TECH = words(
    "Postgres SQLite Redis Kafka NATS GraphQL gRPC REST Terraform Ansible Kubernetes Nomad Rust Go "
    "Python TypeScript React Svelte Tailwind S3 MinIO ClickHouse DuckDB Grafana Prometheus "
    "OpenTelemetry Sentry Celery Temporal Airflow"
)
AREAS = (
    "Billing",
    "Search",
    "Auth",
    "Reporting",
    "Onboarding",
    "Notifications",
    "Analytics",
    "Logging",
    "Deployments",
    "Backups",
    "Caching",
    "Payments",
    "the Mobile App",
    "the Admin Panel",
    "Data Export",
    "Scheduling",
    "Invoicing",
    "Metrics",
    "Feature Flags",
    "Email",
    "the Public API",
    "Uploads",
    "Audit Logs",
    "Permissions",
    "Sync",
)
DECISION_FORMS = ("Use {0} for {1}", "Adopt {0} for {1}", "Move {1} to {0}", "Drop {0} from {1}")
LESSON_VERBS = words("Check Confirm Verify Document Review Snapshot Announce Test Pin Measure")
LESSON_OBJECTS = (
    "timezones",
    "dependencies",
    "the schema",
    "backups",
    "access rights",
    "the changelog",
    "feature flags",
    "rate limits",
    "disk space",
    "error budgets",
    "the rollback plan",
    "config drift",
)
LESSON_EVENTS = (
    "scheduling meetings",
    "deploying",
    "migrating",
    "release day",
    "handing over",
    "closing a ticket",
    "a demo",
    "merging",
    "on-call changes",
    "a vendor call",
)
AGENT_ADJ = words("Careful Daily Night Ops Inbox Research Release Support Finance Docs")
AGENT_ROLES = words(
    "Scout Planner Archivist Reviewer Scribe Triage Curator Steward Analyst Courier"
)
KPI_SEGMENTS = words("Web Mobile EU US Enterprise Partner API Internal Trial Retail")
KPI_METRICS = (
    "Weekly Active Users",
    "Churn Rate",
    "Deploy Frequency",
    "Lead Time",
    "Error Rate",
    "Uptime",
    "Net Promoter Score",
    "Revenue",
    "Ticket Backlog",
    "Response Time",
)
NOTE_FORMS = (
    "Notes on {0} {1}",
    "{0} {1} Overview",
    "Thoughts about {0} {1}",
    "{0} {1} Checklist",
    "Meeting about {0} {1}",
    "{0} {1} Reading List",
    "Questions on {0} {1}",
    "{0} {1} Retro",
    "{0} {1} Draft",
    "How We Handle {0} {1}",
    "{0} {1} Cheat Sheet",
    "Lessons from {0} {1}",
)
SUBJECT_ADJ = words(
    "Cache Release Incident Vendor Budget Hiring Security Privacy Latency Storage Pricing Roadmap "
    "Design Testing Support Travel Research Team Quarterly Customer Mobile Data Network Partner "
    "Legal"
)
SUBJECT_NOUNS = words(
    "Invalidation Planning Reviews Costs Policy Metrics Process Tooling Feedback Strategy "
    "Experiments Guidelines Risks Goals Contracts Interviews Dashboards Handbook Migration Audits"
)
TOPICS = ("engineering", "research", "meetings", "reading", "ideas")
FACT_VALUES = {
    "timezone": ("UTC", "UTC+1", "UTC-5", "UTC+7"),
    "role": ("lead", "engineer", "analyst", "manager"),
    "budget": ("80k", "120k", "250k", "40k"),
    "deadline": ("2026-03-31", "2026-06-30", "2026-09-30", "2026-12-31"),
    "location": ("Lisbon", "Berlin", "Toronto", "Singapore"),
    "language": ("English", "Spanish", "German", "Japanese"),
    "team": ("platform", "data", "mobile", "growth"),
    "vendor": ("Acme", "Globex", "Initech", "Hooli"),
}
FACT_ATTRS = tuple(FACT_VALUES)
POOLS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]] = {
    "person": (("{} {}",), (FIRST, LAST)),
    "project": (("{} {}",), (CODENAMES, PROJECT_NOUNS)),
    "decision": (DECISION_FORMS, (TECH, AREAS)),
    "lesson": (("{} {} before {}",), (LESSON_VERBS, LESSON_OBJECTS, LESSON_EVENTS)),
    "agent": (("{} {}",), (AGENT_ADJ, AGENT_ROLES)),
    "kpi": (("{} {}",), (KPI_SEGMENTS, KPI_METRICS)),
    "note": (NOTE_FORMS, (SUBJECT_ADJ, SUBJECT_NOUNS)),
}
HEADINGS = {
    "person": ("Role", "Working With", "Notes"),
    "project": ("Goal", "Status", "Risks", "Log"),
    "decision": ("Context", "Decision", "Consequences"),
    "lesson": ("Pattern", "Why It Matters", "How To Apply"),
    "agent": ("Role", "Rules", "Handoffs"),
    "kpi": ("Definition", "History"),
    "fact": ("Evidence",),
    "daily": (),
}
NOTE_HEADINGS = ("Summary", "Background", "Details", "Open Questions", "References", "Next Steps")
# kind, folder, share of N, minimum count; Notes/ takes the rest
SHARES = (
    ("person", "People", 0.08, 2),
    ("project", "Projects", 0.03, 1),
    ("decision", "Decisions", 0.10, 2),
    ("lesson", "Lessons", 0.08, 1),
    ("agent", "Agents", 0.01, 2),
    ("kpi", "KPIs", 0.01, 1),
    ("fact", "Facts", 0.05, 1),
    ("daily", "Daily", 0.25, 2),
)
GROUP_SIZE = 60  # notes per group (team or topic)
IN_GROUP = 0.7  # share of links that stay inside the linking note's group
LINK_KINDS = ("person", "project", "decision", "lesson", "note", "fact", "agent", "kpi", "daily")
LINK_WEIGHTS = (30, 14, 14, 8, 20, 4, 3, 2, 5)
FORMS = ("plain", "md", "lower", "path")
FORM_WEIGHTS = (64, 10, 10, 8)
FM_FORM_WEIGHTS = (85, 0, 5, 10)
DECORS = ("", "alias", "heading", "block")
DECOR_WEIGHTS = (55, 20, 15, 10)
ALIASES = ("this", "the plan", "notes", "here", "the write-up", "details", "background")
ROLES = ("engineer", "designer", "product manager", "analyst", "researcher", "support lead")
ORGS = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay")
TZS = ("UTC", "UTC+1", "UTC+2", "UTC-5", "UTC+7", "UTC+9")
FM_TAGS = (
    "team/platform",
    "team/data",
    "Team/Mobile",
    "status/active",
    "area/billing",
    "follow-up",
    "q3_planning",
    "y2024",
    "Review",
    "risk",
)
INLINE_TAGS = (
    "team/platform",
    "Team/Platform",
    "ops/on-call",
    "research/ml",
    "follow-up",
    "Follow-Up",
    "to-read",
    "q3_planning",
    "y2024",
    "meeting",
    "idea",
    "risk",
    "Café",
)
THINGS = (
    "the rollout",
    "the budget",
    "the schema change",
    "the vendor contract",
    "the on-call rota",
    "the migration plan",
    "the quarterly goals",
    "the error budget",
    "the test suite",
    "the release notes",
    "the data model",
    "the support queue",
    "the hiring plan",
    "the pricing page",
    "the backup job",
    "the onboarding flow",
)
FILLER = (
    "We spent most of the session on {x}.",
    "Nobody was sure who owns {x} at the moment.",
    "The team wants a simpler answer for {x} before the next quarter.",
    "Progress on {x} was slower than expected, mostly because of review delays.",
    "I wrote down the open points about {x} so they do not get lost.",
    "Two people asked for a short summary of {x}.",
    "There is still no agreement on {x}, but the options are clearer now.",
    "It would help to measure {x} for a couple of weeks first.",
    "The previous attempt at {x} failed for reasons that are now documented.",
    "We should revisit {x} once the numbers are in.",
    "Most of the friction around {x} comes from unclear ownership.",
    "A small experiment on {x} looks cheap and low risk.",
    "Costs for {x} went up by 12 percent, which is within the expected range.",
)
LINK_SENTENCES = (
    "See {} for the background.",
    "{} raised a concern about the timeline.",
    "This depends on {} being finished first.",
    "We agreed with {} to revisit it next week.",
    "The numbers come from {} and were checked twice.",
    "Compare this with {} before deciding anything.",
    "Ask {} if anything is unclear.",
    "It builds on {} and the earlier notes.",
    "{} already covers most of the edge cases.",
    "Related reading is in {}, especially the second half.",
)
TAG_SENTENCES = ("Filed under {} for now.", "Marked {} and {} for the weekly review.")
FIELD_SENTENCES = (
    "It stays {} until the next review.",
    "We logged the item {} in the tracker.",
    "The estimate is {} for this part.",
)
BRACKET_FIELDS = (
    ("status", ("active", "paused", "blocked", "done")),
    ("priority", ("high", "medium", "low")),
    ("due", ("2026-03-01", "2026-06-15", "2026-09-30")),
    ("confidence", ("0.6", "0.8", "0.9")),
    ("effort", ("2d", "1w", "3h")),
)
LINE_FIELDS = ("owner", "Owner", "reviewer", "related", "due", "Next Review", "priority", "mood")
TASK_VERBS = ("call", "email", "follow up with", "review notes from", "send the draft to", "thank")
ENTRY_TITLES = (
    "Standup",
    "Planning session",
    "Call with vendor",
    "Review",
    "Deep work",
    "Incident follow-up",
    "1:1",
    "Retro",
    "Inbox zero",
)
BROKEN_WORDS = ("Roadmap", "Offsite", "Spec", "Budget Memo", "Hiring Plan", "Postmortem", "Idea")
INLINE_DECOYS = (
    "Write `[[Fake]]` to create a link, and `#notatag` for a tag.",
    "There is a hidden remark %%[[Hidden]] #hiddentag%% in this sentence.",
    "An HTML comment <!-- [[Hidden Comment]] #htmltag --> sits in the middle here.",
    "The formula $[[math]]$ is only math.",
    "Escaped brackets like \\[\\[Not\\]\\] stay plain text.",
    "Escaped \\#nottag is plain text too.",
    "The docs at https://example.com/#frag explain the anchor.",
    "The variable a#b is not a tag.",
    "We reread #1984 in the book club.",
    "Issue #2024 is not a tag either.",
)
DECOY_BLOCKS = (
    ("```python", "# see [[Fake Link]] #faketag", 'url = "[[Fake Link|alias]]"  # #faketag', "```"),
    ("~~~", "[[Fake Tilde]] and ![[fake-image.png]] #fake-tilde", "~~~"),
    ("````markdown", "```", "[[Nested Fake]] #nestedfake", "```", "````"),
    ("%%", "Draft: [[Hidden Draft]] #hiddentag", "%%"),
    ("%% hidden start [[Hidden Start]]", "still hidden #hiddentag %%"),
    ("<!--", "[[Hidden Html]] #htmltag", "-->"),
    ("$$", "[[Math Block]] = x^2 #mathtag", "$$"),
)
FIELD_VALUES = {
    "due": ("2026-04-01", "2026-05-15", "2026-07-01"),
    "Next Review": ("2026-04-10", "2026-06-01", "2026-08-20"),
    "priority": ("high", "medium", "low"),
    "mood": ("focused", "tired", "calm"),
}
DAILY_SETTINGS = '{"folder": "Daily", "format": "YYYY-MM-DD"}\n'
START = date(2020, 1, 1)
MIN_NOTES = 20
BROKEN_RATE = 0.024
DECOY_RATE = 0.3
PNG = b"\x89PNG\r\n\x1a\n"
PROJECT_STATUS = ("active", "paused", "done", "planned")
LESSON_STATUS = ("observing", "active", "confirmed")
NOTE_STATUS = ("draft", "draft", "done", "evergreen")
SINGLE_STATUS = ("proposed", "approved", "approved", "rejected")
# the values a note of a kind may hold for an attribute; DEFAULTS for everything else
DOMAINS: dict[tuple[str, str], tuple[str, ...]] = {
    ("person", "role"): ROLES,
    ("person", "org"): ORGS,
    ("person", "timezone"): TZS,
    ("project", "status"): PROJECT_STATUS,
    ("lesson", "status"): LESSON_STATUS,
    ("note", "status"): NOTE_STATUS,
}
DEFAULTS: dict[str, tuple[str, ...]] = {
    **{key.lower().replace(" ", "-"): values for key, values in FIELD_VALUES.items()},
    **dict(BRACKET_FIELDS),
    **FACT_VALUES,
}
LINK_KEYS = ("owner", "reviewer")  # fields whose value is a link to a person
ONCE_KEYS = ("related",)  # line fields written at most once per note
LAST_FACT = date(2025, 6, 30)  # fact notes start by then, so every expiry date is well past
EXPIRED_RATE = 0.2  # share of current-looking fact notes that carry a (past) valid_until
CHAIN_RATE = 0.15  # share of fact notes recording a newer value of an earlier fact
JOIN_RATE = 0.25  # share of decisions that supersede an earlier one
PLANT_RATE = 1 / 500  # planted conflicts of each kind per note (at least MIN_PLANTS)
MIN_PLANTS = 3
SIMILAR = 92  # titles this alike (rapidfuzz ratio of letters and digits) count as duplicates
SHORT = 5
NUMBERS = re.compile(r"\d+")
DUP_KINDS = ("lesson", "note")  # projects are fact entities: their text is planned
NICKNAMES = ("Doc", "Chief", "Ace", "Coach", "Sunny", "Skipper", "Boss", "Buddy")
CONFLICT_KINDS = (
    "fact-conflict",
    "decision-conflict",
    "superseded-active",
    "duplicate",
    "alias-clash",
    "expired-used",
)
Conflict = dict[str, Any]


@dataclass
class Meta:
    """One planned note: its id (vault path without .md), kind, basename and headings.

    ``props`` holds the one value of each attribute stated about the note (filled when planned
    or when first stated); a fact note has its entity ``ref``, ``attr``, ``until`` (its expiry)
    and ``plant`` ("differ": contradicts the entity, "stale": an older value left current).
    """

    id: str
    kind: str
    title: str
    headings: tuple[str, ...] = ()
    dup: bool = False
    day: date = START
    ref: Meta | None = None
    attr: str = ""
    props: dict[str, Any] = field(default_factory=dict)
    until: date | None = None
    plant: str = ""


@dataclass
class Plan:
    """Every planned note, grouped by kind, plus the attachment file names and conflicts."""

    metas: list[Meta]
    by_kind: dict[str, list[Meta]]
    attachments: list[str]
    group_of: dict[str, int] = field(default_factory=dict)
    by_group: dict[tuple[str, int], list[Meta]] = field(default_factory=dict)
    by_id: dict[str, Meta] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    copies: list[tuple[str, str]] = field(default_factory=list)  # (original, twin given its text)


@dataclass
class Doc:
    """Lines of one note being written, with the truth recorded as the lines grow."""

    lines: list[str] = field(default_factory=list)
    buf: list[str] = field(default_factory=list)
    links: list[LinkRow] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    fields: list[tuple[str, int]] = field(default_factory=list)
    pending: list[tuple[int, str]] = field(default_factory=list)  # (buf index, field key)
    settle: Callable[[Doc], None] | None = None  # fills pending values once the line is known

    @property
    def lineno(self) -> int:
        """Return the 1-based file line of the line being built."""
        return len(self.lines) + 1

    def put(self, text: str) -> None:
        """Append text to the current line."""
        self.buf.append(text)

    def end(self) -> None:
        """Finish the current line (field values that depend on its links filled first)."""
        if self.pending and self.settle:
            self.settle(self)
        self.lines.append("".join(self.buf))
        self.buf.clear()

    def add(self, *lines: str) -> None:
        """Append whole lines (the current line must be empty)."""
        for line in lines:
            self.put(line)
            self.end()

    def text(self) -> str:
        """Return the file content."""
        return "\n".join(self.lines) + "\n"

    def truth(self) -> Entry:
        """Return this note's ground truth entry."""
        links = sorted(self.links, key=lambda r: (r[1], r[0], r[2], r[3] or ""))
        return {
            "links": [list(row) for row in links],
            "tags": sorted(self.tags),
            "fields": [list(row) for row in sorted(self.fields, key=lambda r: (r[1], r[0]))],
        }


# --- planning ---------------------------------------------------------------------------------


def conflict(kind: str, *notes: str) -> Conflict:
    """A planted conflict as the truth lists it (note ids sorted, as the detector reports)."""
    return {"kind": kind, "notes": sorted(notes)}


def title_key(title: str) -> str:
    """Return a title reduced to lower-case letters and digits (as duplicates are compared)."""
    return "".join(c for c in title.casefold() if c.isalnum())


def alike(a: str, b: str) -> bool:
    """True when two similar keys count as duplicates: not short, not differing only in numbers."""
    if min(len(a), len(b)) < SHORT and a != b:
        return False
    return a == b or NUMBERS.sub("#", a) != NUMBERS.sub("#", b)


class Near:
    """Title keys grouped as the duplicate detector groups them (type, first three characters)."""

    def __init__(self) -> None:
        """Start with no titles."""
        self.blocks: dict[tuple[str, str], list[str]] = defaultdict(list)

    def hits(self, kind: str, title: str) -> list[str]:
        """Return the keys of known titles of kind that title would be a duplicate of."""
        key = title_key(title)
        block = self.blocks.get((kind, key[:3]), [])
        found = process.extract(key, block, scorer=fuzz.ratio, score_cutoff=SIMILAR, limit=None)
        return [other for other, _, _ in found if alike(key, other)]

    def add(self, kind: str, title: str) -> None:
        """Record a title of kind."""
        key = title_key(title)
        self.blocks[(kind, key[:3])].append(key)

    def remove(self, kind: str, title: str) -> None:
        """Forget a title of kind."""
        key = title_key(title)
        self.blocks[(kind, key[:3])].remove(key)


def claim(title: str, kind: str, used: set[str], near: Near) -> bool:
    """Record title when it is unused and not near-identical to another of kind; say if so."""
    if title.lower() in used or near.hits(kind, title):
        return False
    used.add(title.lower())
    near.add(kind, title)
    return True


def take_titles(candidates: Iterable[str], k: int, used: set[str], kind: str) -> list[str]:
    """Return the first k candidates that are unused and not near-identical to an earlier one."""
    local, titles = Near(), list[str]()
    for title in candidates:
        if len(titles) == k:
            break
        if title.lower() not in used and not local.hits(kind, title):
            titles.append(title)
            local.add(kind, title)
    return titles


def make_titles(
    rng: random.Random, pool: list[str], k: int, used: set[str], near: Near, kind: str
) -> list[str]:
    """Draw k titles of kind from a shuffled pool, none near-identical to another; when the pool
    cannot give k, every title is numbered ("X 1", "X 2" differ only in a number)."""
    pool = list(pool)
    rng.shuffle(pool)
    titles = take_titles(pool, k, used, kind)
    if len(titles) < k:
        titles = take_titles((f"{t} {i}" for i in count(1) for t in pool), k, used, kind)
    for title in titles:
        used.add(title.lower())
        near.add(kind, title)
    return titles


def title_pool(kind: str) -> list[str]:
    """Return every candidate title of a kind, in a fixed order."""
    forms, lists = POOLS[kind]
    return [form.format(*parts) for form, parts in product(forms, product(*lists))]


def type_counts(n: int) -> dict[str, int]:
    """Return how many notes of each kind a vault of n notes holds."""
    counts = {kind: max(low, round(n * share)) for kind, _, share, low in SHARES}
    counts["note"] = n - sum(counts.values())
    return counts


def random_day(rng: random.Random, days: int) -> date:
    """Return a date within the span of the daily notes."""
    return START + timedelta(days=rng.randrange(days))


def simple_metas(
    rng: random.Random, counts: dict[str, int], used: set[str], near: Near
) -> list[Meta]:
    """Plan the notes of the fixed-folder kinds (all but facts and Notes/)."""
    metas = []
    for kind, folder, _, _ in SHARES:
        if kind == "daily":
            titles = [(START + timedelta(days=i)).isoformat() for i in range(counts[kind])]
            used.update(titles)
        elif kind != "fact":
            titles = make_titles(rng, title_pool(kind), counts[kind], used, near, kind)
        else:
            continue
        for i, title in enumerate(titles):
            day = START + timedelta(days=i) if kind == "daily" else random_day(rng, counts["daily"])
            metas.append(Meta(f"{folder}/{title}", kind, title, HEADINGS[kind], day=day))
    return metas


def note_metas(
    rng: random.Random, m: int, pairs: int, days: int, used: set[str], near: Near
) -> list[Meta]:
    """Plan m Notes/<topic>/ notes; the last `pairs` reuse a basename of another topic."""
    metas = []
    for title in make_titles(rng, title_pool("note"), m - pairs, used, near, "note"):
        headings = tuple(rng.sample(NOTE_HEADINGS, rng.randint(2, 4)))
        topic = rng.choice(TOPICS)
        metas.append(
            Meta(f"Notes/{topic}/{title}", "note", title, headings, day=random_day(rng, days))
        )
    for orig in rng.sample(metas, pairs):
        orig.dup = True
        topic = rng.choice([t for t in TOPICS if not orig.id.startswith(f"Notes/{t}/")])
        headings = tuple(rng.sample(NOTE_HEADINGS, 3))
        dup = Meta(f"Notes/{topic}/{orig.title}", "note", orig.title, headings, True, orig.day)
        metas.append(dup)
    return metas


# --- planted duplicates -------------------------------------------------------------------------


def slips(title: str) -> Iterator[str]:
    """Yield one-slip variants of title, never in its first word: the space before a word made
    a hyphen, or in a word of 6+ letters one letter doubled or two neighbours swapped."""
    parts = title.split(" ")
    for w in range(1, len(parts)):
        before, word, after = " ".join(parts[:w]), parts[w], parts[w + 1 :]
        yield " ".join([f"{before}-{word}", *after])
        if len(word) < 6 or not word.isalpha():
            continue
        for i in range(1, len(word)):
            doubled = word[:i] + word[i - 1] + word[i:]
            swapped = word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]
            for slip in (doubled, swapped) if swapped != word else (doubled,):
                yield " ".join([before, slip, *after])


def typo_title(
    rng: random.Random, original: Meta, twin: Meta, used: set[str], near: Near
) -> str | None:
    """A slip of the original's title that the detector pairs with the original and nothing
    else (the twin's current title is about to go); None when no slip qualifies."""
    variants = list(slips(original.title))
    rng.shuffle(variants)
    for variant in variants:
        hits = near.hits(twin.kind, variant)
        if title_key(twin.title) in hits:
            hits.remove(title_key(twin.title))
        if hits == [title_key(original.title)] and variant.lower() not in used:
            return variant
    return None


def retitle(meta: Meta, title: str, used: set[str], near: Near) -> None:
    """Give meta a new title (and id) in the same folder."""
    used.discard(meta.title.lower())
    near.remove(meta.kind, meta.title)
    meta.id, meta.title = f"{meta.id.rsplit('/', 1)[0]}/{title}", title
    used.add(title.lower())
    near.add(meta.kind, title)


def plant_duplicates(
    rng: random.Random, metas: list[Meta], wanted: int, used: set[str], near: Near,
    copies: list[tuple[str, str]],
) -> list[Conflict]:
    """Retitle `wanted` notes (lessons and notes in turn) as a slip of another's title; each
    (original, twin) pair goes into copies, the twin to be written with the original's text."""
    found: list[Conflict] = []
    taken: set[str] = set()
    for attempt in range(wanted * 4):
        kind = DUP_KINDS[attempt % len(DUP_KINDS)]
        free = [m for m in metas if m.kind == kind and not m.dup and m.id not in taken]
        if len(found) == wanted:
            break
        if len(free) < 2:
            continue
        original, twin = rng.sample(free, 2)
        title = typo_title(rng, original, twin, used, near)
        if title:
            retitle(twin, title, used, near)
            taken.update((original.id, twin.id))
            copies.append((original.id, twin.id))
            found.append(conflict("duplicate", original.id, twin.id))
    return found


# --- facts --------------------------------------------------------------------------------------


def field_key(key: str) -> str:
    """Return a field key as Dataview reads it ('Next Review' -> 'next-review')."""
    return key.lower().replace(" ", "-")


def domain(meta: Meta | None, key: str) -> tuple[str, ...]:
    """Return the values a note (None: a link target that is no note) may hold for key."""
    return (DOMAINS.get((meta.kind, key)) if meta else None) or DEFAULTS[key]


FactKey = tuple[str, str]  # (entity id, attribute)


def new_fact(
    rng: random.Random, entities: list[Meta], heads: dict[FactKey, int], used: set[str],
    near: Near,
) -> FactKey:
    """Start the history of a new (entity, attribute) whose title '<entity> <attribute>' is free."""
    for _ in range(1000):
        about, attr = rng.choice(entities), rng.choice(FACT_ATTRS)
        key = (about.id, attr)
        if key not in heads and claim(f"{about.title} {attr}", "fact", used, near):
            heads[key] = 0
            return key
    raise RuntimeError("no room for another fact note")


def fact_chain(
    rng: random.Random, about: Meta, attr: str, size: int, span: int, used: set[str], near: Near
) -> list[Meta]:
    """The `size` fact notes of one (entity, attribute), oldest first: each older one expires
    the day before the next starts ('... as of <date>'), the newest expires now and then."""
    starts = [START + timedelta(days=d) for d in sorted(rng.sample(range(span), size))]
    metas = []
    for i, start in enumerate(starts):
        title = f"{about.title} {attr}"
        if i < size - 1:
            title += f" as of {start}"
            if not claim(title, "fact", used, near):
                raise RuntimeError(f"fact title {title!r} is taken or near another")
            until: date | None = starts[i + 1] - timedelta(days=1)
        else:
            expires = rng.random() < EXPIRED_RATE
            until = start + timedelta(days=rng.randint(30, 180)) if expires else None
        meta = Meta(f"Facts/{title}", "fact", title, HEADINGS["fact"], day=start, ref=about)
        meta.attr, meta.until = attr, until
        metas.append(meta)
    return metas


def fact_metas(
    rng: random.Random, k: int, entities: list[Meta], days: int, used: set[str], near: Near
) -> list[Meta]:
    """Plan k fact notes about people and projects: histories of (entity, attribute) values."""
    sizes: dict[FactKey, int] = {}  # notes per (entity, attribute), in order of first draw
    for _ in range(k):
        if sizes and rng.random() < CHAIN_RATE:
            key = rng.choice(list(sizes))
        else:
            key = new_fact(rng, entities, sizes, used, near)
        sizes[key] += 1
    span = max(1, min(days, (LAST_FACT - START).days + 1))
    by_id = {about.id: about for about in entities}
    return [meta for (about, attr), size in sizes.items()
            for meta in fact_chain(rng, by_id[about], attr, size, span, used, near)]


def entity(fact: Meta) -> Meta:
    """Return the note a fact note is about."""
    if fact.ref is None:
        raise ValueError(f"{fact.id} has no entity")
    return fact.ref


def fact_chains(facts: list[Meta]) -> list[list[Meta]]:
    """The fact notes grouped by (entity, attribute), oldest first."""
    chains: dict[tuple[str, str], list[Meta]] = defaultdict(list)
    for meta in facts:
        chains[(entity(meta).id, meta.attr)].append(meta)
    return list(chains.values())


# --- decisions ----------------------------------------------------------------------------------


def decision_parts() -> dict[str, tuple[str, str]]:
    """Return the (technology, area) of every decision title of the pool."""
    forms, (techs, areas) = POOLS["decision"]
    return {form.format(t, a): (t, a) for form, t, a in product(forms, techs, areas)}


def chain_decisions(
    rng: random.Random, decisions: list[Meta], parts: dict[str, tuple[str, str]]
) -> list[list[Meta]]:
    """Supersede chains, oldest first, each with its head's topic ('<technology> in <area>'):
    decisions on one technology and area share a chain; others now and then join an earlier
    chain of their area (else any chain). `parts`: (technology, area) by decision id."""
    chains: list[list[Meta]] = []
    by_topic: dict[str, list[Meta]] = {}
    for meta in sorted(decisions, key=lambda m: (m.day, m.id)):
        tech, area = parts[meta.id]
        topic = f"{tech} in {area}".lower()
        chain = by_topic.get(topic)
        if chain is None and chains and rng.random() < JOIN_RATE:
            same = [c for c in chains if parts[c[0].id][1] == area]
            chain = rng.choice(same or chains)
        if chain is None:
            chain = by_topic[topic] = []
            chains.append(chain)
            meta.props["topic"] = topic
        chain.append(meta)
    return chains


def settle_chains(rng: random.Random, chains: list[list[Meta]]) -> None:
    """Share each chain's topic; link each decision to the one it supersedes (and, half the
    time, back); all but the newest are superseded, the newest of a chain approved."""
    for chain in chains:
        for older, newer in pairwise(chain):
            newer.props["supersedes"] = older
            if rng.random() < 0.5:
                older.props["superseded_by"] = newer
        for meta in chain:
            meta.props["topic"] = chain[0].props["topic"]
            meta.props["status"] = "superseded"
        chain[-1].props["status"] = "approved" if len(chain) > 1 else rng.choice(SINGLE_STATUS)


def plant_superseded(rng: random.Random, chains: list[list[Meta]], wanted: int) -> list[Conflict]:
    """Leave the older decision of the newest pair of `wanted` chains approved."""
    found = []
    long_chains = [chain for chain in chains if len(chain) > 1]
    for chain in rng.sample(long_chains, min(wanted, len(long_chains))):
        chain[-2].props["status"] = "approved"
        found.append(conflict("superseded-active", chain[-2].id, chain[-1].id))
    return found


def plant_competing(
    rng: random.Random, chains: list[list[Meta]], areas: dict[str, str], wanted: int
) -> list[Conflict]:
    """Give `wanted` pairs of lone decisions (of one area where possible) one topic, both
    approved, neither superseding the other."""
    by_area: dict[str, list[Meta]] = defaultdict(list)
    for chain in rng.sample(chains, len(chains)):
        if len(chain) == 1:
            by_area[areas[chain[0].id]].append(chain[0])
    pairs = [(group[i], group[i + 1]) for group in by_area.values()
             for i in range(0, len(group) - 1, 2)]
    rest = [group[-1] for group in by_area.values() if len(group) % 2]
    pairs = rng.sample(pairs, len(pairs)) + list(zip(rest[::2], rest[1::2], strict=False))
    for first, second in pairs[:wanted]:
        first.props["status"] = second.props["status"] = "approved"
        second.props["topic"] = first.props["topic"]
    return [conflict("decision-conflict", first.id, second.id) for first, second in pairs[:wanted]]


# --- aliases ------------------------------------------------------------------------------------


def plan_aliases(
    rng: random.Random, people: list[Meta], wanted: int, titles: set[str]
) -> list[Conflict]:
    """Give each person the aliases (first name, 'F. Last') no other note claims, then plant."""
    names = {p.id: [p.title.split(" ")[0], f"{p.title[0]}. {p.title.partition(' ')[2]}"]
             for p in people}
    claims = Counter(alias.casefold() for aliases in names.values() for alias in aliases)
    for person in people:
        person.props["aliases"] = [a for a in names[person.id]
                                   if claims[a.casefold()] == 1 and a.casefold() not in titles]
    return plant_aliases(rng, people, wanted)


def plant_aliases(rng: random.Random, people: list[Meta], wanted: int) -> list[Conflict]:
    """Give `wanted` pairs of people one alias: a first name they share, else a nickname."""
    by_first: dict[str, list[Meta]] = defaultdict(list)
    for person in people:
        by_first[person.title.split(" ")[0]].append(person)
    shared = [(name, group) for name, group in by_first.items() if len(group) > 1]
    pairs = [(name, rng.sample(group, 2)) for name, group in rng.sample(shared, len(shared))]
    pairs = pairs[:wanted]
    taken = {person.id for _, pair in pairs for person in pair}
    free = [person for person in people if person.id not in taken]
    for nickname in NICKNAMES[: max(0, wanted - len(pairs))]:
        if len(free) >= 2:
            pairs.append((nickname, [free.pop(rng.randrange(len(free))) for _ in range(2)]))
    for alias, pair in pairs:
        for person in pair:
            person.props["aliases"].insert(0, alias)
    return [conflict("alias-clash", *(person.id for person in pair)) for _, pair in pairs]


# --- planted facts and citations ----------------------------------------------------------------


def plant_facts(rng: random.Random, plan: Plan, wanted: int) -> list[Conflict]:
    """Plant `wanted` fact conflicts, in turn: a fact note contradicting its person's property,
    an older fact note left current, a daily line contradicting a person's timezone."""
    chains = fact_chains(plan.by_kind["fact"])
    current = [c for c in chains if c[-1].until is None]
    differ = [c for c in current if entity(c[-1]).kind == "person"
              and c[-1].attr in ("role", "timezone")]
    stale = [c for c in current if len(c) > 1 and not any(c is d for d in differ)]
    timed = {entity(c[-1]).id for c in chains if c[-1].attr == "timezone"}
    people = [p for p in plan.by_kind["person"] if p.id not in timed]
    rng.shuffle(differ)
    rng.shuffle(stale)
    found = []
    for turn in range(wanted):
        if turn % 3 == 0 and differ:
            found.append(plant_differ(differ.pop()))
        elif turn % 3 == 1 and stale:
            found.append(plant_stale(stale.pop()))
        elif people:
            person = people.pop(rng.randrange(len(people)))
            found.append(plant_claim(rng.choice(plan.by_kind["daily"]), person))
    return found


def plant_differ(chain: list[Meta]) -> Conflict:
    """The newest fact note of a person's role or timezone states another value."""
    chain[-1].plant = "differ"
    return conflict("fact-conflict", chain[-1].id, entity(chain[-1]).id)


def plant_stale(chain: list[Meta]) -> Conflict:
    """The fact note before the newest never expires, and states another value."""
    chain[-2].until, chain[-2].plant = None, "stale"
    return conflict("fact-conflict", chain[-2].id, chain[-1].id, entity(chain[-1]).id)


def plant_claim(daily: Meta, person: Meta) -> Conflict:
    """A daily note line '- [[Person]] timezone:: X' with another timezone than the person's."""
    daily.props.setdefault("claims", []).append(person)
    return conflict("fact-conflict", daily.id, person.id)


def plant_citations(rng: random.Random, plan: Plan, wanted: int) -> list[Conflict]:
    """Make agent notes (in turn) link one expired fact note each, `wanted` times (expiring
    lone current facts when too few have expired)."""
    lone = [c[0] for c in fact_chains(plan.by_kind["fact"]) if len(c) == 1 and not c[0].until]
    for meta in rng.sample(lone, len(lone)):
        if sum(1 for fact in plan.by_kind["fact"] if fact.until) >= wanted:
            break
        if not meta.plant:
            meta.until = meta.day + timedelta(days=rng.randint(30, 180))
    expired = [meta for meta in plan.by_kind["fact"] if meta.until]
    agents = plan.by_kind["agent"]
    found = []
    for turn, fact in enumerate(rng.sample(expired, min(wanted, len(expired)))):
        agent = agents[turn % len(agents)]
        agent.props.setdefault("cites", []).append(fact)
        found.append(conflict("expired-used", agent.id, fact.id))
    return found


# --- the plan -----------------------------------------------------------------------------------


def index_plan(metas: list[Meta], n: int) -> Plan:
    """Return the plan of metas: by kind, by id, and in link groups (teams or topics)."""
    by_kind: dict[str, list[Meta]] = {kind: [] for kind in LINK_KINDS}
    for meta in metas:
        by_kind[meta.kind].append(meta)
    attachments = [f"img-{i:04d}.png" for i in range(1, max(1, round(n * 0.01)) + 1)]
    plan = Plan(metas, by_kind, attachments, by_id={meta.id: meta for meta in metas})
    groups = max(1, len(metas) // GROUP_SIZE)
    for index, meta in enumerate(metas):
        plan.group_of[meta.id] = index % groups
        plan.by_group.setdefault((meta.kind, index % groups), []).append(meta)
    return plan


def index_fresh(plan: Plan) -> None:
    """List the fact notes that never expire as kind 'fresh-fact' (what agent notes may link)."""
    plan.by_kind["fresh-fact"] = []
    for meta in plan.by_kind["fact"]:
        if meta.until is None:
            plan.by_kind["fresh-fact"].append(meta)
            group = plan.group_of[meta.id]
            plan.by_group.setdefault(("fresh-fact", group), []).append(meta)


def plan_conflicts(rng: random.Random, plan: Plan, wanted: int) -> list[Conflict]:
    """Make decisions, aliases and facts consistent, and plant `wanted` conflicts of each kind."""
    pool = decision_parts()
    parts = {m.id: pool.get(m.title) or pool[m.title.rsplit(" ", 1)[0]]
             for m in plan.by_kind["decision"]}
    chains = chain_decisions(rng, plan.by_kind["decision"], parts)
    settle_chains(rng, chains)
    found = plant_superseded(rng, chains, wanted)
    found += plant_competing(rng, chains, {i: area for i, (_, area) in parts.items()}, wanted)
    titles = {meta.title.casefold() for meta in plan.metas}
    found += plan_aliases(rng, plan.by_kind["person"], wanted, titles)
    found += plant_facts(rng, plan, wanted)
    return found + plant_citations(rng, plan, wanted)


def plan_vault(rng: random.Random, n: int) -> Plan:
    """Plan every note of a vault of n notes, and the conflicts planted in it."""
    counts = type_counts(n)
    used: set[str] = set()
    near = Near()
    metas = simple_metas(rng, counts, used, near)
    pairs = min(max(1, round(n * 0.005)), counts["note"] // 2)
    notes = note_metas(rng, counts["note"], pairs, counts["daily"], used, near)
    wanted = max(MIN_PLANTS, round(n * PLANT_RATE))
    copies: list[tuple[str, str]] = []
    found = plant_duplicates(rng, metas + notes, wanted, used, near, copies)
    entities = [m for m in metas if m.kind in ("person", "project")]
    metas += fact_metas(rng, counts["fact"], entities, counts["daily"], used, near)
    plan = index_plan(metas + notes, n)
    found += plan_conflicts(rng, plan, wanted)
    index_fresh(plan)
    plan.conflicts = sorted(found, key=lambda c: (CONFLICT_KINDS.index(c["kind"]), c["notes"]))
    plan.copies = copies
    return plan


# --- writing ----------------------------------------------------------------------------------


FILE_TARGET = re.compile(r"\.(?!md$)[a-z0-9]{2,5}$", re.IGNORECASE)


def _note_key(target: str) -> str:
    """A link target as vaultmem compares it before resolving: no case, no ``.md``."""
    lowered = target.strip().casefold()
    return lowered[:-3] if lowered.endswith(".md") else lowered


class Writer:
    """Write the notes of a plan as Docs, all drawn from one seeded generator."""

    def __init__(self, plan: Plan, rng: random.Random) -> None:
        """Start a writer for plan."""
        self.plan = plan
        self.rng = rng
        self.meta = plan.metas[0]
        self.decoy = False
        self.decoys = 0
        self.blocks = 0
        self.once: set[str] = set()  # ONCE_KEYS written in the current note
        self.loose: dict[str, dict[str, Any]] = {}  # values stated about non-notes (broken links)

    def note(self, meta: Meta) -> Doc:
        """Write one note; daily and plain notes sometimes have no frontmatter."""
        self.meta, self.blocks, self.decoys, self.once = meta, 0, 0, set()
        self.decoy = self.rng.random() < DECOY_RATE
        doc = Doc(settle=self.settle)
        if meta.kind not in ("daily", "note") or self.rng.random() >= 0.15:
            self.frontmatter(doc, meta)
        if meta.kind == "daily":
            self.daily_body(doc, meta)
        else:
            self.body(doc, meta)
        if self.decoy and not self.decoys:
            self.decoy_block(doc)
        while doc.lines and not doc.lines[-1]:
            doc.lines.pop()
        return doc

    # --- links ---

    def pick(self, kind: str) -> Meta:
        """Return a random note of a kind, not the current note when there is another.

        Most links stay inside the current note's group (a team or topic), as in real vaults,
        so shared neighbours mean something and link prediction can be measured.
        """
        if kind == "fact" and self.meta.kind == "agent":  # agents never cite expired facts
            kind = "fresh-fact" if self.plan.by_kind.get("fresh-fact") else "person"
        group = self.plan.group_of.get(self.meta.id, 0)
        local = self.plan.by_group.get((kind, group), [])
        inside = len(local) > 1 and self.rng.random() < IN_GROUP
        pool = local if inside else self.plan.by_kind[kind]
        meta = self.rng.choice(pool)
        while meta is self.meta and len(pool) > 1:
            meta = self.rng.choice(pool)
        return meta

    def pick_any(self) -> Meta:
        """Return a random note, people and notes most likely."""
        return self.pick(self.rng.choices(LINK_KINDS, LINK_WEIGHTS)[0])

    def link(
        self,
        doc: Doc,
        meta: Meta,
        *,
        embed: bool = False,
        fm: bool = False,
        table: bool = False,
        sure: bool = False,
    ) -> None:
        """Write a wikilink to meta (in the body, unless sure, now and then a broken one)."""
        resolved: str | None = meta.id
        if not (fm or sure) and self.rng.random() < BROKEN_RATE:
            target, inner, resolved = self.broken()
        else:
            target, inner = self.render(meta, fm)
        if table:
            inner = inner.replace("|", "\\|")
        doc.put(f"{'!' if embed else ''}[[{inner}]]")
        doc.links.append((target, doc.lineno, embed, resolved))

    def broken(self) -> tuple[str, str, None]:
        """Return (target, inner text, None) of a link to a note that does not exist."""
        target = f"Unwritten {self.rng.choice(BROKEN_WORDS)} {self.rng.randint(1, 999)}"
        return target, target + self.rng.choice(("", "", "|later", "#Plan")), None

    def render(self, meta: Meta, fm: bool) -> tuple[str, str]:
        """Return (target as written, inner text) of a link to meta in a random form."""
        rng = self.rng
        if meta.dup:
            form = "path"
        elif meta.kind == "daily":
            form = "path" if rng.random() < 0.2 else "plain"
        else:
            form = rng.choices(FORMS, FM_FORM_WEIGHTS if fm else FORM_WEIGHTS)[0]
        target = {
            "plain": meta.title,
            "md": f"{meta.title}.md",
            "lower": meta.title.lower(),
            "path": meta.id,
        }[form]
        return target, target + self.decor(meta, fm)

    def decor(self, meta: Meta, fm: bool) -> str:
        """Return a random '|alias', '#Heading' or '#^b1' suffix, or ''."""
        choice = self.rng.choices(DECORS, DECOR_WEIGHTS)[0]
        if choice == "alias":
            first = meta.title.split()[0]
            if meta.kind == "person" and self.rng.random() < 0.6:
                return f"|{first}"
            return f"|{self.rng.choice(ALIASES)}"
        if fm or meta.kind == "daily" or not choice:
            return ""
        return f"#{self.rng.choice(meta.headings)}" if choice == "heading" else "#^b1"

    def attachment(self, doc: Doc) -> None:
        """Write an attachment embed (now and then a plain link, or with a size) and record it."""
        name = self.rng.choice(self.plan.attachments)
        embed = self.rng.random() < 0.9
        size = "|300" if embed and self.rng.random() < 0.3 else ""
        doc.put(f"{'!' if embed else ''}[[{name}{size}]]")
        doc.links.append((name, doc.lineno, embed, f"Attachments/{name}"))

    # --- consistent values ---

    def value(self, entity: str, key: str) -> Any:
        """Return the one value of key for entity (a note id, else a link target), drawn when
        first stated: a person for link keys, else from the attribute's domain."""
        meta = self.plan.by_id.get(entity)
        props = meta.props if meta else self.loose.setdefault(entity, {})
        if key not in props:
            pick = key in LINK_KEYS
            props[key] = self.pick("person") if pick else self.rng.choice(domain(meta, key))
        return props[key]

    def other_value(self, meta: Meta, key: str) -> str:
        """Return a value of key that meta does not hold."""
        held = self.value(meta.id, key)
        return self.rng.choice([value for value in domain(meta, key) if value != held])

    def settle(self, doc: Doc) -> None:
        """Fill the bracketed fields of the line ending: about the one note the line links (its
        written link targets, embeds and links to files aside, compared without case or
        ``.md``, are one), else about the note being written (vaultmem's ``_entity_of``)."""
        line = doc.lineno
        rows = {_note_key(target): (target, resolved) for target, at, embed, resolved in doc.links
                if at == line and not embed and not FILE_TARGET.search(target)}
        subject = self.meta.id
        if len(rows) == 1:
            target, resolved = next(iter(rows.values()))
            subject = resolved or target
        for index, key in doc.pending:
            doc.buf[index] = str(self.value(subject, key))
        doc.pending.clear()

    # --- inline pieces ---

    def tag(self, doc: Doc) -> None:
        """Write an inline tag and record it."""
        name = self.rng.choice(INLINE_TAGS)
        doc.put(f"#{name}")
        doc.tags.add(name.lower())

    def bracket_field(self, doc: Doc) -> None:
        """Write a '[key:: value]' or '(key:: value)' field (value filled at the line's end)."""
        key, _ = self.rng.choice(BRACKET_FIELDS)
        left, right = ("[", "]") if self.rng.random() < 0.7 else ("(", ")")
        doc.put(f"{left}{key}:: ")
        doc.pending.append((len(doc.buf), key))
        doc.put("")
        doc.put(right)
        doc.fields.append((key, doc.lineno))

    def templated(self, doc: Doc, template: str, fill: Callable[[], None]) -> None:
        """Write template, calling fill at each '{}'."""
        for i, piece in enumerate(template.split("{}")):
            if i:
                fill()
            doc.put(piece)

    def sentence(self, doc: Doc, part: str) -> None:
        """Write one sentence: filler, link, tag, field, attachment or decoy."""
        rng = self.rng
        if part == "s":
            doc.put(rng.choice(FILLER).format(x=rng.choice(THINGS)))
        elif part == "l":
            self.templated(doc, rng.choice(LINK_SENTENCES), lambda: self.link(doc, self.pick_any()))
        elif part == "t":
            self.templated(doc, rng.choice(TAG_SENTENCES), lambda: self.tag(doc))
        elif part == "f":
            self.templated(doc, rng.choice(FIELD_SENTENCES), lambda: self.bracket_field(doc))
        elif part == "a":
            self.templated(doc, "The sketch {} shows the flow.", lambda: self.attachment(doc))
        else:
            self.decoys += 1
            doc.put(rng.choice(INLINE_DECOYS))

    # --- blocks ---

    def para(self, doc: Doc) -> None:
        """Write a paragraph (sometimes hard-wrapped) ending in an optional block id."""
        rng = self.rng
        parts = ["s"] * rng.choice((1, 1, 2, 3)) + ["l"] * rng.randint(0, 3)
        parts += [
            part for part, rate in (("t", 0.25), ("f", 0.15), ("a", 0.05)) if rng.random() < rate
        ]
        if self.decoy and rng.random() < 0.5:
            parts.append("d")
        rng.shuffle(parts)
        wrap = rng.random() < 0.3
        for i, part in enumerate(parts):
            if i and wrap and rng.random() < 0.6:
                doc.end()
            elif i:
                doc.put(" ")
            self.sentence(doc, part)
        if self.blocks == 0 or rng.random() < 0.3:
            self.blocks += 1
            doc.put(f" ^b{self.blocks}")
        doc.end()
        doc.add("")

    def tasks(self, doc: Doc) -> None:
        """Write a task list linking people, some tasks with a bracketed field."""
        rng = self.rng
        for _ in range(rng.randint(1, 3)):
            doc.put(f"- [{rng.choice(' x/ ')}] {rng.choice(TASK_VERBS)} ")
            self.link(doc, self.pick("person"))
            doc.put(f" about {rng.choice(THINGS)}")
            if rng.random() < 0.3:
                doc.put(" ")
                self.bracket_field(doc)
            doc.end()
        doc.add("")

    def field_lines(self, doc: Doc) -> None:
        """Write 'key:: value' lines about the note itself, with the values it states anywhere
        (link values for owner/reviewer/related; 'related' once per note)."""
        rng = self.rng
        keys = [key for key in LINE_FIELDS if field_key(key) not in self.once]
        for key in rng.sample(keys, min(len(keys), rng.randint(1, 3))):
            name = field_key(key)
            doc.fields.append((name, doc.lineno))
            doc.put(f"{key}:: ")
            if name in ONCE_KEYS:
                self.once.add(name)
                self.link(doc, self.pick_any())
                doc.put(", ")
                self.link(doc, self.pick_any())
            elif name in LINK_KEYS:
                self.link(doc, self.value(self.meta.id, name), sure=True)
            else:
                doc.put(str(self.value(self.meta.id, name)))
            doc.end()
        doc.add("")

    def callout(self, doc: Doc) -> None:
        """Write a two-line callout with links."""
        doc.put(f"> [!{self.rng.choice(('note', 'tip', 'warning'))}] Heads-up about ")
        self.link(doc, self.pick_any())
        doc.end()
        doc.put("> Check with ")
        self.link(doc, self.pick("person"))
        doc.put(" before changing anything.")
        doc.end()
        doc.add("")

    def embed_note(self, doc: Doc) -> None:
        """Write a note embed on its own line."""
        self.link(doc, self.pick_any(), embed=True)
        doc.end()
        doc.add("")

    def embed_file(self, doc: Doc) -> None:
        """Write an attachment embed on its own line."""
        self.attachment(doc)
        doc.end()
        doc.add("")

    def decoy_block(self, doc: Doc) -> None:
        """Write a multi-line decoy: code fence, comment or math block."""
        self.decoys += 1
        doc.add(*self.rng.choice(DECOY_BLOCKS), "")

    def extras(self, doc: Doc) -> None:
        """Write none to two extra blocks, and a decoy block in decoy notes."""
        rng = self.rng
        makers = (self.tasks, self.field_lines, self.callout, self.embed_note, self.embed_file)
        for maker in rng.sample(makers, rng.choice((0, 1, 1, 2))):
            maker(doc)
        if self.decoy and rng.random() < 0.5:
            self.decoy_block(doc)

    def rules(self, doc: Doc) -> None:
        """Write an agent's numbered rules, each linking a lesson."""
        for i in range(1, self.rng.randint(3, 5) + 1):
            doc.put(f"{i}. Before {self.rng.choice(LESSON_EVENTS)}, apply ")
            self.link(doc, self.pick("lesson"))
            doc.put(".")
            doc.end()
        doc.add("")

    def history(self, doc: Doc) -> None:
        """Write a KPI history table whose owner cells hold links with escaped pipes."""
        doc.add("| Month | Value | Owner |", "| --- | --- | --- |")
        for i in range(self.rng.randint(3, 6)):
            doc.put(f"| 2025-{i + 1:02d} | {self.rng.randint(10, 99)} | ")
            self.link(doc, self.pick("person"), table=True)
            doc.put(" |")
            doc.end()
        doc.add("")

    # --- whole notes ---

    def body(self, doc: Doc, meta: Meta) -> None:
        """Write the body of a non-daily note: title, intro, one section per heading."""
        if self.rng.random() < 0.5:
            doc.add(f"# {meta.title}", "")
        if self.rng.random() < 0.3:
            self.para(doc)
        for heading in meta.headings:
            doc.add(f"## {heading}", "")
            if (meta.kind, heading) == ("agent", "Rules"):
                self.rules(doc)
            elif (meta.kind, heading) == ("kpi", "History"):
                self.history(doc)
            else:
                for _ in range(self.rng.choice((1, 1, 2))):
                    self.para(doc)
            self.extras(doc)
        self.citations(doc, meta)

    def citations(self, doc: Doc, meta: Meta) -> None:
        """Write the planted lines of an agent note that cite an expired fact note."""
        cites = meta.props.get("cites", [])
        for fact in cites:
            doc.put("Keep in mind: ")
            self.link(doc, fact, sure=True)
            doc.put(".")
            doc.end()
        if cites:
            doc.add("")

    def claims(self, doc: Doc, meta: Meta) -> None:
        """Write the planted lines '- [[Person]] timezone:: X' against each person's timezone."""
        people = meta.props.get("claims", [])
        for person in people:
            doc.put("- ")
            self.link(doc, person, sure=True)
            doc.put(f" timezone:: {self.other_value(person, 'timezone')}")
            doc.fields.append(("timezone", doc.lineno))
            doc.end()
        if people:
            doc.add("")

    def daily_body(self, doc: Doc, meta: Meta) -> None:
        """Write a daily note: entries '### HH:MM — Title' with paragraphs and extras."""
        rng = self.rng
        doc.add(f"# {meta.title}", "")
        minutes = sorted(rng.sample(range(7 * 60, 20 * 60, 5), rng.randint(2, 4)))
        for entry, minute in enumerate(minutes):
            doc.add(f"### {minute // 60:02d}:{minute % 60:02d} — {rng.choice(ENTRY_TITLES)}", "")
            self.para(doc)
            if entry == 0:
                self.claims(doc, meta)
            self.extras(doc)

    # --- frontmatter ---

    def frontmatter(self, doc: Doc, meta: Meta) -> None:
        """Write the YAML frontmatter of a note."""
        doc.add("---", f"type: {meta.kind}")
        getattr(self, f"fm_{meta.kind}")(doc, meta)
        doc.add(f"created: {meta.day.isoformat()}")
        self.fm_tags(doc, meta)
        doc.add("---")

    def prop(self, doc: Doc, key: str, meta: Meta) -> None:
        """Write a property holding one quoted link."""
        doc.put(f'{key}: "')
        self.link(doc, meta, fm=True)
        doc.put('"')
        doc.end()

    def prop_list(self, doc: Doc, key: str, metas: list[Meta]) -> None:
        """Write a list property of quoted links, as a flow list or a block list."""
        if self.rng.random() < 0.3:
            doc.put(f"{key}: [")
            for i, meta in enumerate(metas):
                doc.put(', "' if i else '"')
                self.link(doc, meta, fm=True)
                doc.put('"')
            doc.put("]")
            doc.end()
            return
        doc.add(f"{key}:")
        for meta in metas:
            doc.put('  - "')
            self.link(doc, meta, fm=True)
            doc.put('"')
            doc.end()

    def fm_tags(self, doc: Doc, meta: Meta) -> None:
        """Write tags as a scalar, a flow list or a block list, and record them."""
        tags = [meta.kind, *self.rng.sample(FM_TAGS, self.rng.randint(0, 2))]
        style = self.rng.random()
        if len(tags) == 1 and style < 0.3:
            doc.add(f"tags: {tags[0]}")
        elif style < 0.5:
            doc.add(f"tags: [{', '.join(tags)}]")
        else:
            doc.add("tags:", *(f"  - {tag}" for tag in tags))
        doc.tags.update(tag.lower() for tag in tags)

    def fm_person(self, doc: Doc, meta: Meta) -> None:
        """Write a person's aliases, attributes and manager."""
        rng = self.rng
        aliases = meta.props.get("aliases", [])
        if aliases:
            doc.add("aliases:", *(f"  - {alias}" for alias in aliases))
        doc.add(*(f"{key}: {self.value(meta.id, key)}" for key in ("role", "org", "timezone")))
        if rng.random() < 0.4:
            self.prop(doc, "manager", self.pick("person"))

    def fm_project(self, doc: Doc, meta: Meta) -> None:
        """Write a project's status, owner, goal and members."""
        rng = self.rng
        doc.add(f"status: {self.value(meta.id, 'status')}")
        self.prop(doc, "owner", self.value(meta.id, "owner"))
        doc.add(f"goal: Ship {rng.choice(THINGS)} by {meta.day + timedelta(days=90)}")
        self.prop_list(doc, "members", [self.pick("person") for _ in range(rng.randint(1, 4))])

    def fm_decision(self, doc: Doc, meta: Meta) -> None:
        """Write a decision's date, planned status and topic, links and alternatives."""
        rng, props = self.rng, meta.props
        doc.add(f"date: {meta.day}", f"status: {props['status']}", f"topic: {props['topic']}")
        self.prop(doc, "decided_by", self.pick("person"))
        for key in ("supersedes", "superseded_by"):
            if key in props:
                self.prop(doc, key, props[key])
        if rng.random() < 0.5:
            self.prop(doc, "project", self.pick("project"))
        doc.add("rationale: simpler to operate and cheaper at our scale")
        doc.add("alternatives:", f"  - {rng.choice(TECH)}", f"  - {rng.choice(TECH)}")

    def fm_lesson(self, doc: Doc, meta: Meta) -> None:
        """Write a lesson's agent, pattern key, count, status, scope and source."""
        rng = self.rng
        self.prop(doc, "agent", self.pick("agent"))
        doc.add(
            f"pattern_key: {meta.title.lower().replace(' ', '-')}", f"count: {rng.randint(1, 9)}"
        )
        doc.add(f"status: {self.value(meta.id, 'status')}")
        self.prop(doc, "applies_to", self.pick("project"))
        self.prop(doc, "source", self.pick("daily"))

    def fm_agent(self, doc: Doc, meta: Meta) -> None:
        """Write an agent's role and owner."""
        doc.add(
            f"role: {meta.title.split()[-1].lower()} for the {meta.title.split()[0].lower()} desk"
        )
        self.prop(doc, "owner", self.value(meta.id, "owner"))

    def fm_kpi(self, doc: Doc, meta: Meta) -> None:
        """Write a KPI's value, target, unit, update date and owner."""
        rng = self.rng
        doc.add(f"value: {rng.randint(10, 99)}", f"target: {rng.randint(50, 120)}")
        doc.add(f"unit: {rng.choice(('percent', 'count', 'ms', 'eur'))}", f"updated: {meta.day}")
        self.prop(doc, "owner", self.value(meta.id, "owner"))

    def fm_fact(self, doc: Doc, meta: Meta) -> None:
        """Write a fact's entity, attribute, value, validity, source and confidence."""
        rng = self.rng
        self.prop(doc, "entity", entity(meta))
        doc.add(f"attribute: {meta.attr}", f"value: {self.fact_value(meta)}")
        doc.add(f"valid_from: {meta.day}")
        if meta.until:
            doc.add(f"valid_until: {meta.until}")
        self.prop(doc, "source", self.pick(rng.choice(("daily", "decision"))))
        doc.add(f"confidence: {rng.choice(('0.6', '0.8', '0.9', '1.0'))}")

    def fact_value(self, meta: Meta) -> str:
        """Return the value a fact note states: the entity's own when it is current, another
        when planted, any the entity may have held when it has expired."""
        about = entity(meta)
        held = self.value(about.id, meta.attr)
        if meta.plant:
            return self.other_value(about, meta.attr)
        return self.rng.choice(domain(about, meta.attr)) if meta.until else str(held)

    def fm_daily(self, doc: Doc, meta: Meta) -> None:
        """Write a daily note's date."""
        doc.add(f"date: {meta.day}")

    def fm_note(self, doc: Doc, meta: Meta) -> None:
        """Write a plain note's status, review date and, sometimes, related links."""
        doc.add(f"status: {self.value(meta.id, 'status')}")
        doc.add(f"reviewed: {meta.day + timedelta(days=14)}")
        if self.rng.random() < 0.3:
            self.prop_list(doc, "related", [self.pick_any() for _ in range(self.rng.randint(1, 3))])


# --- output -----------------------------------------------------------------------------------


def resolver(plan: Plan) -> Callable[[str], str | None]:
    """Return a resolver implementing the rules independently of how links were written."""
    names: dict[str, list[str]] = {}
    for meta in plan.metas:
        names.setdefault(meta.title.lower(), []).append(meta.id)
    ids = {meta.id for meta in plan.metas}
    files = {name.lower(): f"Attachments/{name}" for name in plan.attachments}

    def resolve(target: str) -> str | None:
        stem = target[:-3] if target.lower().endswith(".md") else target
        if "/" in stem:
            return stem if stem in ids else None
        hits = names.get(stem.lower(), [])
        if len(hits) > 1:
            raise RuntimeError(f"ambiguous link target {target!r}: {hits}")
        return hits[0] if hits else files.get(target.lower())

    return resolve


def verify(plan: Plan, notes: dict[str, Entry]) -> None:
    """Check that every recorded link resolves as the truth says."""
    resolve = resolver(plan)
    for note_id, entry in notes.items():
        for target, line, _, resolved in entry["links"]:
            if resolve(target) != resolved:
                raise RuntimeError(f"{note_id}:{line}: {target!r} does not resolve to {resolved!r}")


def truth_path(out: Path) -> Path:
    """Return the path of the truth file beside the vault folder."""
    out = out.resolve()
    return out.with_name(f"{out.name}.truth.json")


def check_target(out: Path) -> None:
    """Refuse an OUT that exists and is not an empty folder."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(f"{out} exists and is not an empty folder; pass a new OUT")


def write_files(out: Path, plan: Plan, docs: dict[str, Doc]) -> None:
    """Write settings, attachments and notes into out."""
    (out / ".obsidian").mkdir(parents=True, exist_ok=True)
    (out / ".obsidian" / "daily-notes.json").write_text(DAILY_SETTINGS, encoding="utf-8")
    (out / ".obsidian" / "app.json").write_text("{}\n", encoding="utf-8")
    (out / "Attachments").mkdir()
    for i, name in enumerate(plan.attachments, 1):
        (out / "Attachments" / name).write_bytes(PNG + i.to_bytes(2, "big"))
    folders: set[str] = set()
    for meta in plan.metas:
        path = out / f"{meta.id}.md"
        if path.parent.as_posix() not in folders:
            path.parent.mkdir(parents=True, exist_ok=True)
            folders.add(path.parent.as_posix())
        path.write_bytes(docs[meta.id].text().encode("utf-8"))


def dump_truth(truth: dict[str, Any]) -> str:
    """Serialise the truth as JSON with one note per line."""
    rows = [
        f"{json.dumps(note_id, ensure_ascii=False)}: {json.dumps(entry, ensure_ascii=False)}"
        for note_id, entry in truth["notes"].items()
    ]
    head = f'{{"n": {truth["n"]}, "seed": {truth["seed"]}, "notes": {{\n'
    planted = ",\n".join(json.dumps(c, ensure_ascii=False) for c in truth["conflicts"])
    return head + ",\n".join(rows) + '\n},\n"conflicts": [\n' + planted + "\n]}\n"


def generate(n: int, out: Path, seed: int = 7) -> dict[str, Any]:
    """Write a vault of n notes into out and its truth beside it; return the truth dict."""
    if n < MIN_NOTES:
        raise ValueError(f"N must be at least {MIN_NOTES}, got {n}")
    out = Path(out)
    check_target(out)
    rng = random.Random(seed)
    plan = plan_vault(rng, n)
    writer = Writer(plan, rng)
    docs = {meta.id: writer.note(meta) for meta in plan.metas}
    for original, twin in plan.copies:  # a note saved twice under a mistyped name
        docs[twin] = docs[original]
    notes = {note_id: docs[note_id].truth() for note_id in sorted(docs)}
    verify(plan, notes)
    write_files(out, plan, docs)
    truth = {"n": n, "seed": seed, "notes": notes, "conflicts": plan.conflicts}
    truth_path(out).write_bytes(dump_truth(truth).encode("utf-8"))
    return truth


def main(argv: list[str] | None = None) -> int:
    """Run the command line interface; return the exit code."""
    parser = argparse.ArgumentParser(
        description="Write a deterministic synthetic Obsidian vault and OUT.truth.json beside it.",
        epilog="example: python benchmarks/gen_vault.py 10000 /tmp/vault10k --seed 7",
    )
    parser.add_argument(
        "n", metavar="N", type=int, help=f"number of Markdown notes (>= {MIN_NOTES})"
    )
    parser.add_argument(
        "out", metavar="OUT", type=Path, help="vault folder to create (new or empty)"
    )
    parser.add_argument("--seed", type=int, default=7, help="random seed (default: 7)")
    args = parser.parse_args(argv)
    try:
        truth = generate(args.n, args.out, args.seed)
    except (FileExistsError, ValueError) as exc:
        print(f"gen_vault: error: {exc}", file=sys.stderr)
        return 2
    links = sum(len(entry["links"]) for entry in truth["notes"].values())
    print(f"wrote {args.n} notes ({links} links) to {args.out}; truth: {truth_path(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
