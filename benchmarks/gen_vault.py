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
        "fields": [[key, line], ...]}}}                     # inline fields, sorted by (line, key)

``target`` is the link path as written (no ``#subpath``, no ``|alias``), ``line`` the 1-based
file line (the opening ``---`` is line 1), ``resolved`` a note id, ``Attachments/<name>`` or null.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import product
from pathlib import Path
from typing import Any

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
LINK_FIELDS = ("owner", "Owner", "reviewer", "related")
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


@dataclass
class Meta:
    """One planned note: its id (vault path without .md), kind, basename and headings."""

    id: str
    kind: str
    title: str
    headings: tuple[str, ...] = ()
    dup: bool = False
    day: date = START
    ref: Meta | None = None
    attr: str = ""


@dataclass
class Plan:
    """Every planned note, grouped by kind, plus the attachment file names."""

    metas: list[Meta]
    by_kind: dict[str, list[Meta]]
    attachments: list[str]
    group_of: dict[str, int] = field(default_factory=dict)
    by_group: dict[tuple[str, int], list[Meta]] = field(default_factory=dict)


@dataclass
class Doc:
    """Lines of one note being written, with the truth recorded as the lines grow."""

    lines: list[str] = field(default_factory=list)
    buf: list[str] = field(default_factory=list)
    links: list[LinkRow] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    fields: list[tuple[str, int]] = field(default_factory=list)

    @property
    def lineno(self) -> int:
        """Return the 1-based file line of the line being built."""
        return len(self.lines) + 1

    def put(self, text: str) -> None:
        """Append text to the current line."""
        self.buf.append(text)

    def end(self) -> None:
        """Finish the current line."""
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


def unique(title: str, used: set[str]) -> str:
    """Return title, or title with a number, unused case-insensitively; mark it used."""
    cand, i = title, 1
    while cand.lower() in used:
        i += 1
        cand = f"{title} {i}"
    used.add(cand.lower())
    return cand


def make_titles(rng: random.Random, pool: list[str], k: int, used: set[str]) -> list[str]:
    """Draw k unique titles from a shuffled pool (numbered once the pool runs out)."""
    pool = list(pool)
    rng.shuffle(pool)
    return [unique(pool[i % len(pool)], used) for i in range(k)]


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


def simple_metas(rng: random.Random, counts: dict[str, int], used: set[str]) -> list[Meta]:
    """Plan the notes of the fixed-folder kinds (all but facts and Notes/)."""
    metas = []
    for kind, folder, _, _ in SHARES:
        if kind == "daily":
            titles = [(START + timedelta(days=i)).isoformat() for i in range(counts[kind])]
            used.update(titles)
        elif kind != "fact":
            titles = make_titles(rng, title_pool(kind), counts[kind], used)
        else:
            continue
        for i, title in enumerate(titles):
            day = START + timedelta(days=i) if kind == "daily" else random_day(rng, counts["daily"])
            metas.append(Meta(f"{folder}/{title}", kind, title, HEADINGS[kind], day=day))
    return metas


def fact_metas(
    rng: random.Random, k: int, entities: list[Meta], days: int, used: set[str]
) -> list[Meta]:
    """Plan k fact notes about people and projects (titled '<entity> <attribute>')."""
    metas = []
    for _ in range(k):
        entity = rng.choice(entities)
        attr = rng.choice(FACT_ATTRS)
        title = unique(f"{entity.title} {attr}", used)
        day = random_day(rng, days)
        headings = HEADINGS["fact"]
        metas.append(
            Meta(f"Facts/{title}", "fact", title, headings, day=day, ref=entity, attr=attr)
        )
    return metas


def note_metas(rng: random.Random, m: int, pairs: int, days: int, used: set[str]) -> list[Meta]:
    """Plan m Notes/<topic>/ notes; the last `pairs` reuse a basename of another topic."""
    metas = []
    for title in make_titles(rng, title_pool("note"), m - pairs, used):
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


def plan_vault(rng: random.Random, n: int) -> Plan:
    """Plan every note of a vault of n notes."""
    counts = type_counts(n)
    used: set[str] = set()
    metas = simple_metas(rng, counts, used)
    entities = [m for m in metas if m.kind in ("person", "project")]
    metas += fact_metas(rng, counts["fact"], entities, counts["daily"], used)
    pairs = min(max(1, round(n * 0.005)), counts["note"] // 2)
    metas += note_metas(rng, counts["note"], pairs, counts["daily"], used)
    by_kind: dict[str, list[Meta]] = {kind: [] for kind in LINK_KINDS}
    for meta in metas:
        by_kind[meta.kind].append(meta)
    attachments = [f"img-{i:04d}.png" for i in range(1, max(1, round(n * 0.01)) + 1)]
    plan = Plan(metas, by_kind, attachments)
    groups = max(1, len(metas) // GROUP_SIZE)
    for index, meta in enumerate(metas):
        plan.group_of[meta.id] = index % groups
        plan.by_group.setdefault((meta.kind, index % groups), []).append(meta)
    return plan


# --- writing ----------------------------------------------------------------------------------


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

    def note(self, meta: Meta) -> Doc:
        """Write one note; daily and plain notes sometimes have no frontmatter."""
        self.meta, self.blocks, self.decoys = meta, 0, 0
        self.decoy = self.rng.random() < DECOY_RATE
        doc = Doc()
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
        self, doc: Doc, meta: Meta, *, embed: bool = False, fm: bool = False, table: bool = False
    ) -> None:
        """Write a wikilink to meta (in the body now and then a broken one) and record it."""
        resolved: str | None = meta.id
        if not fm and self.rng.random() < BROKEN_RATE:
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

    # --- inline pieces ---

    def tag(self, doc: Doc) -> None:
        """Write an inline tag and record it."""
        name = self.rng.choice(INLINE_TAGS)
        doc.put(f"#{name}")
        doc.tags.add(name.lower())

    def bracket_field(self, doc: Doc) -> None:
        """Write a '[key:: value]' or '(key:: value)' field and record it."""
        key, values = self.rng.choice(BRACKET_FIELDS)
        left, right = ("[", "]") if self.rng.random() < 0.7 else ("(", ")")
        doc.put(f"{left}{key}:: {self.rng.choice(values)}{right}")
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
        """Write 'key:: value' lines, link values for owner/reviewer/related."""
        rng = self.rng
        for key in rng.sample(LINE_FIELDS, rng.randint(1, 3)):
            doc.fields.append((key.lower().replace(" ", "-"), doc.lineno))
            doc.put(f"{key}:: ")
            if key == "related":
                self.link(doc, self.pick_any())
                doc.put(", ")
                self.link(doc, self.pick_any())
            elif key in LINK_FIELDS:
                self.link(doc, self.pick("person"))
            else:
                doc.put(FIELD_VALUES[key][rng.randrange(3)])
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

    def daily_body(self, doc: Doc, meta: Meta) -> None:
        """Write a daily note: entries '### HH:MM — Title' with paragraphs and extras."""
        rng = self.rng
        doc.add(f"# {meta.title}", "")
        for minute in sorted(rng.sample(range(7 * 60, 20 * 60, 5), rng.randint(2, 4))):
            doc.add(f"### {minute // 60:02d}:{minute % 60:02d} — {rng.choice(ENTRY_TITLES)}", "")
            self.para(doc)
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
        first, last = meta.title.split(" ", 1)
        doc.add("aliases:", f"  - {first}", f"  - {first[0]}. {last}")
        doc.add(
            f"role: {rng.choice(ROLES)}", f"org: {rng.choice(ORGS)}", f"timezone: {rng.choice(TZS)}"
        )
        if rng.random() < 0.4:
            self.prop(doc, "manager", self.pick("person"))

    def fm_project(self, doc: Doc, meta: Meta) -> None:
        """Write a project's status, owner, goal and members."""
        rng = self.rng
        doc.add(f"status: {rng.choice(('active', 'paused', 'done', 'planned'))}")
        self.prop(doc, "owner", self.pick("person"))
        doc.add(f"goal: Ship {rng.choice(THINGS)} by {meta.day + timedelta(days=90)}")
        self.prop_list(doc, "members", [self.pick("person") for _ in range(rng.randint(1, 4))])

    def fm_decision(self, doc: Doc, meta: Meta) -> None:
        """Write a decision's date, status, topic, links and alternatives."""
        rng = self.rng
        status = rng.choice(("proposed", "approved", "approved", "rejected", "superseded"))
        doc.add(f"date: {meta.day}", f"status: {status}", f"topic: {rng.choice(AREAS).lower()}")
        self.prop(doc, "decided_by", self.pick("person"))
        if rng.random() < 0.3:
            self.prop(doc, "supersedes", self.pick("decision"))
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
        doc.add(f"status: {rng.choice(('observing', 'active', 'confirmed'))}")
        self.prop(doc, "applies_to", self.pick("project"))
        self.prop(doc, "source", self.pick("daily"))

    def fm_agent(self, doc: Doc, meta: Meta) -> None:
        """Write an agent's role and owner."""
        doc.add(
            f"role: {meta.title.split()[-1].lower()} for the {meta.title.split()[0].lower()} desk"
        )
        self.prop(doc, "owner", self.pick("person"))

    def fm_kpi(self, doc: Doc, meta: Meta) -> None:
        """Write a KPI's value, target, unit, update date and owner."""
        rng = self.rng
        doc.add(f"value: {rng.randint(10, 99)}", f"target: {rng.randint(50, 120)}")
        doc.add(f"unit: {rng.choice(('percent', 'count', 'ms', 'eur'))}", f"updated: {meta.day}")
        self.prop(doc, "owner", self.pick("person"))

    def fm_fact(self, doc: Doc, meta: Meta) -> None:
        """Write a fact's entity, attribute, value, validity, source and confidence."""
        rng = self.rng
        self.prop(doc, "entity", meta.ref or self.pick("person"))
        doc.add(f"attribute: {meta.attr}", f"value: {rng.choice(FACT_VALUES[meta.attr])}")
        doc.add(f"valid_from: {meta.day}")
        if rng.random() < 0.3:
            doc.add(f"valid_until: {meta.day + timedelta(days=rng.randint(30, 400))}")
        self.prop(doc, "source", self.pick(rng.choice(("daily", "decision"))))
        doc.add(f"confidence: {rng.choice(('0.6', '0.8', '0.9', '1.0'))}")

    def fm_daily(self, doc: Doc, meta: Meta) -> None:
        """Write a daily note's date."""
        doc.add(f"date: {meta.day}")

    def fm_note(self, doc: Doc, meta: Meta) -> None:
        """Write a plain note's status, review date and, sometimes, related links."""
        doc.add(f"status: {self.rng.choice(('draft', 'draft', 'done', 'evergreen'))}")
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
    return head + ",\n".join(rows) + "\n}}\n"


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
    notes = {note_id: docs[note_id].truth() for note_id in sorted(docs)}
    verify(plan, notes)
    write_files(out, plan, docs)
    truth = {"n": n, "seed": seed, "notes": notes}
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
