"""Generate a deterministic synthetic Obsidian vault and its ground truth.

Usage::

    python benchmarks/gen_vault.py N OUT [--seed 7]

writes N Markdown notes into the folder OUT (created; refused with exit code 2 when it exists
and is not empty) and the ground truth into ``OUT.truth.json`` beside the folder. The same N and
seed give byte-identical output. Also importable: ``generate(n, out, seed=7) -> dict``.

The vault follows ``DESIGN.md``: People/, Projects/, Decisions/, Lessons/, Agents/, KPIs/,
Facts/, Daily/YYYY-MM-DD.md, Notes/<topic>/, Attachments/img-NNNN.png, ``.obsidian/`` settings.
Notes hold frontmatter property links, body wikilinks in every form (alias, heading, block,
embed, ``.md`` suffix, lower case, vault path), inline tags, Dataview inline fields, block ids,
tasks, callouts, tables, about 2 % broken links, and (in about 30 % of the notes) decoys that are
neither links nor tags: code, comments, math, escapes, URL fragments, ``a#b``, ``#1984``.

Ground truth::

    {"n": N, "seed": S, "notes": {note_id: {
        "links": [[target, line, embed, resolved], ...],   # sorted
        "tags": [lower-case tag, ...],                      # sorted, unique
        "fields": [[key, line], ...]}}}                     # inline fields, sorted

``target`` is the link path as written (no ``#subpath``, no ``|alias``), ``line`` the 1-based
file line (the opening ``---`` is line 1), ``resolved`` a note id, an attachment path or null.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import product
from pathlib import Path

LinkRow = tuple[str, int, bool, str | None]

FIRST = (
    "Ana Ben Carla David Elena Farid Grace Hiro Ines Jonas Kara Liam Maya Noah Olga Pavel Quinn "
    "Rosa Sam Tara Umar Vera Wei Xenia Yusuf Zoe Amir Bianca Chen Dara Emil Fatima Gus Hana Ivan "
    "Julia Kenji Lucy Marco Nina Omar Priya Raj Sofia Tomas Uma Victor Wen Yara Zane Lena Mateo "
    "Aisha Bruno Clara Diego Erik Freya Greta Hugo"
).split()
LAST = (
    "Ruiz Tan Okafor Novak Schmidt Costa Haddad Kim Larsen Moreau Nakamura Oliveira Petrov Quist "
    "Rossi Singh Torres Usman Varga Weber Xu Yilmaz Zhou Andersen Brooks Chandra Dubois Evans "
    "Fischer Garcia Hoffman Ito Jensen Kowalski Lopez Meyer Nguyen Ortiz Park Reyes Silva Thomas "
    "Ueda Vogel Walsh Young Abbott Bauer Castro Diaz Ellis Ford Gupta Hayes Iqbal Kaur Lindqvist "
    "Mendes Nolan Osei"
).split()
CODENAMES = (
    "Aurora Borealis Cobalt Delta Ember Falcon Granite Harbor Iris Juniper Kestrel Lumen Meridian "
    "Nimbus Onyx Polaris Quartz Rivet Sierra Tundra Umbra Vertex Willow Zephyr Atlas Beacon "
    "Cascade Dune Echo Fjord Glacier Helix Indigo Jasper Kite Lotus Mosaic Nova Orbit Prism"
).split()
PROJECT_NOUNS = (
    "Migration Rollout Redesign Platform Pipeline Launch Cleanup Audit Integration Onboarding "
    "Revamp Pilot Refactor Dashboard Sync"
).split()
TECH = (
    "Postgres SQLite Redis Kafka NATS GraphQL gRPC REST Terraform Ansible Kubernetes Nomad Rust Go "
    "Python TypeScript React Svelte Tailwind S3 MinIO ClickHouse DuckDB Grafana Prometheus "
    "OpenTelemetry Sentry Celery Temporal Airflow"
).split()
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
DECISION_FORMS = ("Use {t} for {a}", "Adopt {t} for {a}", "Move {a} to {t}", "Drop {t} from {a}")
LESSON_VERBS = "Check Confirm Verify Document Review Snapshot Announce Test Pin Measure".split()
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
AGENT_ADJ = "Careful Daily Night Ops Inbox Research Release Support Finance Docs".split()
AGENT_ROLES = "Scout Planner Archivist Reviewer Scribe Triage Curator Steward Analyst Courier".split()
KPI_SEGMENTS = "Web Mobile EU US Enterprise Partner API Internal Trial Retail".split()
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
    "Notes on {s}",
    "{s} Overview",
    "Thoughts about {s}",
    "{s} Checklist",
    "Meeting about {s}",
    "{s} Reading List",
    "Questions on {s}",
    "{s} Retro",
    "{s} Draft",
    "How We Handle {s}",
    "{s} Cheat Sheet",
    "Lessons from {s}",
)
SUBJECT_ADJ = (
    "Cache Release Incident Vendor Budget Hiring Security Privacy Latency Storage Pricing Roadmap "
    "Design Testing Support Travel Research Team Quarterly Customer Mobile Data Network Partner "
    "Legal"
).split()
SUBJECT_NOUNS = (
    "Invalidation Planning Reviews Costs Policy Metrics Process Tooling Feedback Strategy "
    "Experiments Guidelines Risks Goals Contracts Interviews Dashboards Handbook Migration Audits"
).split()
TOPICS = ("engineering", "research", "meetings", "reading", "ideas")
FACT_ATTRS = ("timezone", "role", "budget", "deadline", "location", "language", "team", "vendor")
FACT_VALUES = ("UTC+1", "UTC-5", "lead", "120k", "2026-06-30", "Lisbon", "English", "platform")
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
START = date(2023, 1, 1)
MIN_NOTES = 20
BROKEN_RATE = 0.02
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


@dataclass
class Plan:
    """Every planned note, grouped by kind, plus the attachment file names."""

    metas: list[Meta]
    by_kind: dict[str, list[Meta]]
    attachments: list[str]


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

    def truth(self) -> dict[str, list]:
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
    if kind == "person":
        return [f"{a} {b}" for a, b in product(FIRST, LAST)]
    if kind == "project":
        return [f"{a} {b}" for a, b in product(CODENAMES, PROJECT_NOUNS)]
    if kind == "decision":
        return [f.format(t=t, a=a) for f, t, a in product(DECISION_FORMS, TECH, AREAS)]
    if kind == "lesson":
        pool = product(LESSON_VERBS, LESSON_OBJECTS, LESSON_EVENTS)
        return [f"{v} {o} before {e}" for v, o, e in pool]
    if kind == "agent":
        return [f"{a} {b}" for a, b in product(AGENT_ADJ, AGENT_ROLES)]
    if kind == "kpi":
        return [f"{a} {b}" for a, b in product(KPI_SEGMENTS, KPI_METRICS)]
    subjects = [f"{a} {b}" for a, b in product(SUBJECT_ADJ, SUBJECT_NOUNS)]
    return [f.format(s=s) for f, s in product(NOTE_FORMS, subjects)]


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


def fact_metas(rng: random.Random, k: int, entities: list[Meta], days: int, used: set[str]) -> list[Meta]:
    """Plan k fact notes about people and projects (titled '<entity> <attribute>')."""
    metas = []
    for _ in range(k):
        entity = rng.choice(entities)
        title = unique(f"{entity.title} {rng.choice(FACT_ATTRS)}", used)
        day = random_day(rng, days)
        metas.append(Meta(f"Facts/{title}", "fact", title, HEADINGS["fact"], day=day, ref=entity))
    return metas


def note_metas(rng: random.Random, m: int, pairs: int, days: int, used: set[str]) -> list[Meta]:
    """Plan m Notes/<topic>/ notes; the last `pairs` reuse a basename of another topic."""
    metas = []
    for title in make_titles(rng, title_pool("note"), m - pairs, used):
        headings = tuple(rng.sample(NOTE_HEADINGS, rng.randint(2, 4)))
        topic = rng.choice(TOPICS)
        metas.append(Meta(f"Notes/{topic}/{title}", "note", title, headings, day=random_day(rng, days)))
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
    return Plan(metas, by_kind, attachments)
