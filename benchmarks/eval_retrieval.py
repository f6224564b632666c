r"""Retrieval quality of vaultmem's ``search`` and ``related``, next to a plain BM25 baseline.

    XDG_CACHE_HOME=/tmp/evalcache python benchmarks/eval_retrieval.py \
        [--notes 10000] [--queries 200] [--hide 200] [--seed 11] [--failures 12] \
        [--semantic [--model FOLDER] [--weight W]]

With ``--semantic`` both search sections run with semantic recall (the shared model beside the
checkout unless ``--model``; every passage embedded first, vectors kept in the cache folder);
link prediction calls the graph function with keyword text likeness either way.

One run measures:

1. Search on ``sample_vault``: the hand-labelled queries of ``queries/sample_vault.json``
   (``{"kind", "query", "expected": [note ids]}``). Kinds: keyword questions, word forms,
   names and typos, people/project lookups, agent lessons, KPIs, Chinese text (only where the
   vault has Chinese) and "graph" questions whose answer is a note linked from the obvious
   keyword hit (for those, ``expected`` holds only the linked answer note).
2. Search on the synthetic vault ``benchmarks/out/vault-N`` (made once by gen_vault.py, reused
   after) with ``--queries`` labelled queries built from the vault itself, one expected note
   each, kinds taken in turn, notes drawn with ``random.Random(seed)`` from sorted candidates:

   - person typo: a person's name with one slip in a word of 4+ letters (two letters swapped,
     one dropped, one doubled, or a vowel changed; never another person's first or last
     name; the first letter is kept), lower-cased half the time -> the person note;
   - person alias: an unambiguous ``F. Last`` alias, alone or as "who is F. Last" -> the person;
   - decision word form: a decision's verb in another form, words reordered ("Drop Kafka from
     Billing" -> "billing kafka dropped" or "dropping kafka from billing") -> the decision;
   - lesson word form: the same for lessons ("Pin dependencies before merging" -> "pinning
     dependencies before merging") -> the lesson;
   - project owner: "<project> owner", "who owns <project>", ... -> the project note;
   - fact: "<entity>'s <attribute>", "what is the <attribute> of <entity>" -> the fact note
     (only facts whose entity and attribute no other fact shares);
   - KPI: "<metric> for <segment>", ... ("EU Churn Rate") -> the KPI note;
   - note title: a Notes/ title reworded ("Cache Invalidation Checklist" -> "checklist for
     cache invalidation", "How We Handle X" -> "handling x") -> that note (unique basenames);
   - daily date: "what happened on 2023-04-15", ... -> that daily note.

   There is no "distinctive heading" kind: the generator's headings are shared section names
   (Goal, Risks, Open Questions, ...) or the note's own title as ``# Title``, which the title
   kinds already cover.
3. Link prediction on the synthetic vault: ``--hide`` notes (seeded draw from the sorted notes
   with 4+ distinct resolved links to other notes); of each, min(2, max(1, round(30 %))) link
   targets are hidden by removing the edge note->target from one copy of the graph (a link
   back, target->note, stays: it is real evidence), ``related(copy, note)`` is asked, and
   the edges are put back. Both rankings leave out the notes the note still links to (those
   are known, not predicted) before the top 10 are scored. The baseline ranks all notes but
   the note itself by BM25 with the note's own file text as the query, every ``[[...]]`` of
   a hidden target removed.
   gen_vault.py keeps most links inside groups of about 60 notes (a team or topic), so shared
   neighbours carry signal as in a real vault; the same protocol also runs on sample_vault,
   whose links are real (an extra row, all eligible notes). ``related`` gets the text signal
   from ``similar()`` over the same text the baseline uses.

Metrics: recall@5 = |expected in top 5| / min(|expected|, 5); MRR = mean of 1 / rank of the
first expected note within the top 10 (0 when none). Link prediction: hit@10 = hidden targets
in the top 10 / hidden targets; MRR = mean over hidden targets of 1 / rank (0 outside the top
10). ``related`` gets a fixed ``today`` (the day after the newest ``date`` in the vault's
graph) so results do not depend on the day the benchmark runs.

Baseline BM25: ``\w+`` words of the whole file text (frontmatter too), lower-cased, no
stemming, stop words, field weights, fuzzy names or graph; k1 = 1.2, b = 0.75, idf
log(1 + (N - df + 0.5) / (df + 0.5)); each distinct query word counted once; ties by note id.
It covers the same notes as ``vault.notes``.

Timing: median milliseconds per call measured in-process with the vault loaded and warmed by
one call, over every sample-vault query and over the first 100 synthetic queries / samples.

Also printed: per-kind scores, and up to ``--failures`` queries per vault (taking the kinds in
turn) where vaultmem's search missed an expected note in its top 5, with what it ranked first.
"""

from __future__ import annotations

import argparse
import datetime as dt
import heapq
import json
import math
import random
import re
import statistics
import sys
import time
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_vault import NOTE_FORMS, generate, truth_path  # noqa: E402

from vaultmem.model import Note  # noqa: E402
from vaultmem.recall.meaning import embed_vault  # noqa: E402
from vaultmem.recall.related.notes import related  # noqa: E402
from vaultmem.recall.related.similar_notes import similar  # noqa: E402
from vaultmem.recall.search import search  # noqa: E402
from vaultmem.semantic_config import Semantic  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

OUT = HERE / "out"
MODEL = HERE.parents[1] / "shared" / "models" / "all-MiniLM-L6-v2-onnx-int8"
SEMANTIC = Semantic()  # --semantic: the search sections use this model, all passages embedded
SAMPLE = HERE.parent / "sample_vault"
LABELS = HERE / "queries" / "sample_vault.json"
K1, B = 1.2, 0.75
TOP, CUTOFF, TIMED = 10, 5, 100
WORD = re.compile(r"\w+")
VOWELS = "aeiou"
DECISION = re.compile(r"^(?:(Use|Adopt) (\S+) (for) (.+)|(Drop) (\S+) (from) (.+)|"
                      r"(Move) (.+) (to) (\S+))$")
DECISION_VERBS = {"Use": ("using", "used"), "Adopt": ("adopting", "adopted"),
                  "Move": ("moving", "moved"), "Drop": ("dropping", "dropped")}
LESSON = re.compile(r"^(\w+) (.+) before (.+)$")
LESSON_VERBS = {"Check": ("checking", "checked"), "Confirm": ("confirming", "confirmed"),
                "Verify": ("verifying", "verified"), "Document": ("documenting", "documented"),
                "Review": ("reviewing", "reviewed"), "Snapshot": ("snapshotting", "snapshotted"),
                "Announce": ("announcing", "announced"), "Test": ("testing", "tested"),
                "Pin": ("pinning", "pinned"), "Measure": ("measuring", "measured")}
NOTE_PHRASES = {"Notes on {0} {1}": "notes about {s}", "{0} {1} Overview": "overview of {s}",
                "Thoughts about {0} {1}": "{s} thoughts", "{0} {1} Checklist": "checklist for {s}",
                "Meeting about {0} {1}": "{s} meetings", "{0} {1} Reading List": "reading list {s}",
                "Questions on {0} {1}": "{s} questions", "{0} {1} Retro": "retro on {s}",
                "{0} {1} Draft": "{s} drafts", "How We Handle {0} {1}": "handling {s}",
                "{0} {1} Cheat Sheet": "cheat sheet for {s}",
                "Lessons from {0} {1}": "{s} lessons"}

Ranker = Callable[[str], list[str]]


@dataclass(frozen=True)
class Query:
    """One labelled query: its text, the notes a person expects near the top, and its kind."""

    text: str
    expected: tuple[str, ...]
    kind: str


@dataclass
class Outcome:
    """One method over one query set: what it returned, its scores and its call times."""

    method: str
    found: list[list[str]] = field(default_factory=list)
    recalls: list[float] = field(default_factory=list)
    ranks: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Sample:
    """A note whose links to ``hidden`` are hidden for link prediction."""

    note: str
    hidden: tuple[str, ...]


# --- the baseline -----------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-cased ``\\w+`` words, nothing else."""
    return WORD.findall(text.lower())


class BM25:
    """Plain Okapi BM25 over whole texts; each term's per-note weights are computed up front."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.ids = sorted(texts)
        self.number = {doc_id: number for number, doc_id in enumerate(self.ids)}
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        lengths: list[int] = []
        for number, doc_id in enumerate(self.ids):
            counts = Counter(words(texts[doc_id]))
            lengths.append(sum(counts.values()))
            for term, count in counts.items():
                postings[term].append((number, count))
        average = sum(lengths) / max(1, len(lengths))
        self.weights = {term: self._weights(rows, lengths, average)
                        for term, rows in postings.items()}

    def _weights(self, rows: list[tuple[int, int]], lengths: list[int],
                 average: float) -> tuple[array[int], array[float]]:
        """(note numbers, BM25 weight of the term in each) for one term."""
        idf = math.log(1 + (len(self.ids) - len(rows) + 0.5) / (len(rows) + 0.5))
        numbers = array("i", (n for n, _ in rows))
        weights = array("d", (idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[n] / average))
                              for n, tf in rows))
        return numbers, weights

    def rank(self, text: str, limit: int = TOP, exclude: str | None = None) -> list[str]:
        """The ``limit`` best notes for ``text``, best first, ties by id; ``exclude`` left out."""
        scores: dict[int, float] = defaultdict(float)
        for term in dict.fromkeys(words(text)):
            found = self.weights.get(term)
            if found is not None:
                for number, weight in zip(*found, strict=True):
                    scores[number] += weight
        skip = self.number.get(exclude or "", -1)
        best = heapq.nsmallest(limit + 1, scores.items(), key=lambda item: (-item[1], item[0]))
        return [self.ids[number] for number, _ in best if number != skip][:limit]


def texts_of(vault: Vault) -> dict[str, str]:
    """The full file text of every note of ``vault``."""
    return {note_id: (vault.root / note.path).read_text(encoding="utf-8")
            for note_id, note in vault.notes.items()}


# --- metrics and running ------------------------------------------------------------------------


def recall_at(found: list[str], expected: Iterable[str], k: int = CUTOFF) -> float:
    """Share of the expected notes (at most ``k`` of them count) in the top ``k``."""
    wanted = set(expected)
    return len(wanted & set(found[:k])) / min(len(wanted), k)


def reciprocal_rank(found: list[str], expected: Iterable[str]) -> float:
    """1 / rank of the first expected note within the top 10, else 0."""
    wanted = set(expected)
    return next((1 / rank for rank, doc in enumerate(found[:TOP], 1) if doc in wanted), 0.0)


def run_search(method: str, rank: Ranker, queries: list[Query]) -> Outcome:
    """Ask every query (after one warm-up call) and score the answers."""
    rank(queries[0].text)
    outcome = Outcome(method)
    for query in queries:
        start = time.perf_counter()
        found = rank(query.text)
        outcome.times.append(time.perf_counter() - start)
        outcome.found.append(found)
        outcome.recalls.append(recall_at(found, query.expected))
        outcome.ranks.append(reciprocal_rank(found, query.expected))
    return outcome


def search_outcomes(vault: Vault, bm25: BM25, queries: list[Query]) -> list[Outcome]:
    """vaultmem's search and the baseline over the same queries."""
    methods: dict[str, Ranker] = {
        "vaultmem search": lambda text: [hit.id for hit in search(vault, text, limit=TOP)],
        "BM25 baseline": lambda text: bm25.rank(text, TOP),
    }
    return [run_search(method, rank, queries) for method, rank in methods.items()]


def load_labels(path: Path, vault: Vault) -> list[Query]:
    """The hand-labelled queries; every expected id must be a note of ``vault``."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    queries = [Query(row["query"], tuple(row["expected"]), row.get("kind", "")) for row in rows]
    unknown = sorted({e for q in queries for e in q.expected} - set(vault.notes))
    if unknown:
        raise SystemExit(f"{path}: expected notes not in the vault: {unknown}")
    return queries


# --- synthetic queries --------------------------------------------------------------------------


@dataclass
class Context:
    """What the query builders need to know about the synthetic vault."""

    vault: Vault
    by_type: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    name_words: set[str] = field(default_factory=set)
    aliases: Counter[str] = field(default_factory=Counter)  # casefolded alias -> notes
    titles: Counter[str] = field(default_factory=Counter)  # casefolded basename -> notes
    facts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (entity, attribute)


def context_of(vault: Vault) -> Context:
    """Notes by type, every first and last name, and how often aliases, basenames and
    (entity, attribute) pairs of facts occur."""
    ctx = Context(vault)
    for note_id, note in vault.notes.items():
        ctx.by_type[note.type].append(note_id)
        ctx.titles[title(note_id).casefold()] += 1
        ctx.aliases.update(alias.casefold() for alias in note.aliases)
        entity = fact_entity(note)
        if note.type == "fact" and entity:
            ctx.facts[entity, str(note.frontmatter.get("attribute"))] += 1
    ctx.name_words = {word.casefold() for person in ctx.by_type["person"]
                      for word in title(person).split()}
    return ctx


def fact_entity(note: Note) -> str | None:
    """The note a fact is about (its ``entity`` property link)."""
    return next((link.resolved for link in note.links if link.key == "entity"), None)


def title(note_id: str) -> str:
    """The basename of a note id."""
    return note_id.rsplit("/", 1)[-1]


def slip(word: str, rng: random.Random) -> str:
    """``word`` with one typing slip after its first letter: two letters swapped, one dropped,
    one doubled, or a vowel changed (a letter doubled where the slip falls on a consonant)."""
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 1:
        return word[:i] + word[i + 1:]
    if kind == 2:
        return word[:i] + word[i] + word[i:]
    others = [v for v in VOWELS if v != word[i].lower()]
    return word[:i] + rng.choice(others) + word[i + 1:] if word[i].lower() in VOWELS else \
        word[:i] + word[i] + word[i:]


def person_typo(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """A person's name with a slip in one word of 4+ letters."""
    parts = title(note_id).split()
    long = [i for i, part in enumerate(parts) if len(part) >= 4 and part.isalpha()]
    if not long:
        return None
    i = rng.choice(long)
    for _ in range(10):
        wrong = slip(parts[i], rng)
        if wrong != parts[i] and wrong.casefold() not in ctx.name_words:
            text = " ".join([*parts[:i], wrong, *parts[i + 1:]])
            return text.lower() if rng.random() < 0.5 else text
    return None


def person_alias(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """A person's ``F. Last`` alias when no other note has it."""
    alias = [a for a in ctx.vault.notes[note_id].aliases
             if "." in a and ctx.aliases[a.casefold()] == 1]
    if not alias:
        return None
    return rng.choice(("{}", "who is {}")).format(alias[0])


def decision_form(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """A decision title with its verb in another form, words reordered now and then."""
    match = DECISION.match(title(note_id))
    if not match:
        return None
    verb, first, prep, second = (part for part in match.groups() if part is not None)
    ing, past = DECISION_VERBS[verb]
    tech, area = (second, first) if verb == "Move" else (first, second)
    area = area.lower() if rng.random() < 0.5 else area
    return rng.choice((f"{rng.choice((ing, past))} {first} {prep} {second}",
                       f"{area} {tech} {rng.choice((ing, past))}",
                       f"decision on {ing} {first} {prep} {second}"))


def lesson_form(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """A lesson title with its verb in another form, words reordered now and then."""
    match = LESSON.match(title(note_id))
    if not match or match.group(1) not in LESSON_VERBS:
        return None
    verb, thing, event = match.groups()
    ing, past = LESSON_VERBS[verb]
    return rng.choice((f"{ing} {thing} before {event}", f"{event}: {thing} {past}",
                       f"lesson about {ing} {thing} before {event}"))


def project_owner(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """Who owns a project, asked several ways."""
    name = title(note_id)
    if any(ch.isdigit() for ch in name):
        return None
    name = name.lower() if rng.random() < 0.5 else name
    return rng.choice(("{} owner", "who owns {}", "owner of the {} project")).format(name)


def fact_question(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """An attribute of an entity, when exactly one fact records it."""
    note = ctx.vault.notes[note_id]
    entity, attribute = fact_entity(note), note.frontmatter.get("attribute")
    if entity is None or not isinstance(attribute, str) or ctx.facts[entity, attribute] != 1 \
            or title(note_id) != f"{title(entity)} {attribute}":
        return None
    return rng.choice(("{e}'s {a}", "what is the {a} of {e}", "{a} for {e}")).format(
        e=title(entity), a=attribute)


def kpi_question(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """A KPI "<Segment> <Metric>" asked as metric and segment."""
    segment, _, metric = title(note_id).partition(" ")
    if not metric or any(ch.isdigit() for ch in metric):
        return None
    return rng.choice(("{m} for {s}", "what is the {s} {m}", "{m} {s} this month")).format(
        m=metric.lower(), s=segment)


def note_title(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """A Notes/ title reworded; only for basenames no other note has."""
    name = title(note_id)
    if ctx.titles[name.casefold()] != 1:
        return None
    for form, phrase in NOTE_PHRASES.items():
        pre, _, post = form.partition("{0} {1}")
        if form in NOTE_FORMS and name.startswith(pre) and name.endswith(post) and \
                len(name) > len(pre) + len(post):
            subject = name[len(pre):len(name) - len(post)]
            return phrase.format(s=subject.lower() if rng.random() < 0.5 else subject)
    return None


def daily_date(ctx: Context, note_id: str, rng: random.Random) -> str | None:
    """What happened on the day of a daily note."""
    day = title(note_id)
    return rng.choice(("what happened on {}", "{} daily note", "notes from {}")).format(day)


Builder = Callable[[Context, str, random.Random], str | None]
KINDS: dict[str, tuple[str, Builder]] = {
    "person typo": ("person", person_typo),
    "person alias": ("person", person_alias),
    "decision word form": ("decision", decision_form),
    "lesson word form": ("lesson", lesson_form),
    "project owner": ("project", project_owner),
    "fact": ("fact", fact_question),
    "kpi": ("kpi", kpi_question),
    "note title": ("note", note_title),
    "daily date": ("daily", daily_date),
}


def synthetic_queries(vault: Vault, count: int, seed: int) -> list[Query]:
    """``count`` labelled queries, the kinds taken in turn (see the module docstring)."""
    ctx = context_of(vault)
    rng = random.Random(seed)
    per_kind = {kind: count // len(KINDS) + (i < count % len(KINDS))
                for i, kind in enumerate(KINDS)}
    lists = {kind: kind_queries(ctx, kind, per_kind[kind], rng) for kind in KINDS}
    return [lists[kind][i] for i in range(max(per_kind.values()))
            for kind in KINDS if i < len(lists[kind])]


def kind_queries(ctx: Context, kind: str, count: int, rng: random.Random) -> list[Query]:
    """Up to ``count`` queries of one kind from a seeded shuffle of its candidate notes."""
    note_type, build = KINDS[kind]
    pool = sorted(ctx.by_type[note_type])
    rng.shuffle(pool)
    out: list[Query] = []
    for note_id in pool:
        if len(out) == count:
            break
        text = build(ctx, note_id, rng)
        if text:
            out.append(Query(text, (note_id,), kind))
    return out


# --- link prediction ----------------------------------------------------------------------------


def link_samples(vault: Vault, count: int, seed: int) -> list[Sample]:
    """``count`` notes with 4+ distinct resolved links to other notes, and the targets to hide."""
    targets: dict[str, list[str]] = {}
    for note_id, note in vault.notes.items():
        linked = sorted({link.resolved for link in note.links
                         if link.resolved in vault.notes and link.resolved != note_id})
        if len(linked) >= 4:
            targets[note_id] = linked
    rng = random.Random(seed)
    chosen = sorted(rng.sample(sorted(targets), min(count, len(targets))))
    return [Sample(note_id, tuple(sorted(rng.sample(targets[note_id], hidden_count(
        len(targets[note_id])))))) for note_id in chosen]


def hidden_count(links: int) -> int:
    """How many of ``links`` link targets to hide: about 30 %, one or two."""
    return min(2, max(1, round(0.3 * links)))


def related_without(vault: Vault, graph: nx.DiGraph, sample: Sample, today: dt.date,
                    query: str, limit: int) -> tuple[list[str], float]:
    """``related`` with the hidden edges removed (then restored), and the call's time.

    Its text signal uses the same text as the baseline: the hidden links cut out.
    """
    saved = [(sample.note, target, dict(graph.edges[sample.note, target]))
             for target in sample.hidden]
    graph.remove_edges_from([(source, target) for source, target, _ in saved])
    try:
        start = time.perf_counter()
        text = similar(vault, query, exclude=sample.note)
        found = [r.id for r in related(graph, sample.note, limit=limit, today=today, text=text)]
        return found, time.perf_counter() - start
    finally:
        graph.add_edges_from(saved)


def text_without(vault: Vault, text: str, sample: Sample) -> tuple[str, int]:
    """The note's text with every link to a hidden target cut out; and links not found."""
    raws = sorted({link.raw for link in vault.notes[sample.note].links
                   if link.resolved in sample.hidden})
    forms = {raw: (raw, raw.replace("|", "\\|")) for raw in raws}  # table cells escape |
    missing = sum(not any(form in text for form in forms[raw]) for raw in raws)
    for raw in raws:
        for form in forms[raw]:
            text = text.replace(form, " ")
    return text, missing


def score_hidden(outcome: Outcome, found: list[str], hidden: tuple[str, ...]) -> None:
    """Record hit@10 and reciprocal rank of each hidden target."""
    outcome.found.append(found)
    for target in hidden:
        rank = found.index(target) + 1 if target in found[:TOP] else 0
        outcome.recalls.append(1.0 if rank else 0.0)
        outcome.ranks.append(1 / rank if rank else 0.0)


def predict_links(vault: Vault, bm25: BM25, texts: dict[str, str], samples: list[Sample],
                  today: dt.date) -> tuple[list[Outcome], int]:
    """Link prediction by ``related`` and by the BM25 baseline; and link texts not found."""
    graph = vault.graph.copy()
    mine, base = Outcome("vaultmem related"), Outcome("BM25 (note text as query)")
    if samples:
        related(graph, samples[0].note, limit=TOP, today=today)
    not_found = 0
    for sample in samples:
        query, missing = text_without(vault, texts[sample.note], sample)
        visible = linked(vault, sample.note) - set(sample.hidden)
        found, seconds = related_without(vault, graph, sample, today, query, TOP + len(visible))
        mine.times.append(seconds)
        score_hidden(mine, [f for f in found if f not in visible][:TOP], sample.hidden)
        not_found += missing
        start = time.perf_counter()
        found = bm25.rank(query, TOP + len(visible), exclude=sample.note)
        base.times.append(time.perf_counter() - start)
        score_hidden(base, [f for f in found if f not in visible][:TOP], sample.hidden)
    return [mine, base], not_found


def linked(vault: Vault, note_id: str) -> set[str]:
    """The notes ``note_id`` links to (a prediction of those would be no prediction)."""
    return {link.resolved for link in vault.notes[note_id].links
            if link.resolved is not None and link.resolved != note_id}


def today_of(vault: Vault) -> dt.date:
    """The day after the newest date of the vault's notes."""
    dates = [str(data.get("date") or "")[:10] for _, data in vault.graph.nodes(data=True)]
    newest = max((d for d in dates if re.fullmatch(r"\d{4}-\d{2}-\d{2}", d)), default="2026-01-01")
    return dt.date.fromisoformat(newest) + dt.timedelta(days=1)


# --- reporting ----------------------------------------------------------------------------------


@dataclass
class Report:
    """The lines of each printed section."""

    rows: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    timings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def mean(values: list[float]) -> float:
    """The mean, 0 for no values."""
    return sum(values) / len(values) if values else 0.0


def timing_row(operation: str, where: str, times: list[float]) -> str:
    """A timing table row: calls and median milliseconds."""
    median = f"{statistics.median(times) * 1000:.1f}" if times else "-"
    return f"| {operation} | {where} | {len(times)} | {median} |"


def rank_of(found: list[str], expected: tuple[str, ...]) -> str:
    """Rank of the first expected note in ``found``, or ">10"."""
    return next((str(i) for i, doc in enumerate(found[:TOP], 1) if doc in expected), ">10")


def kind_rows(evaluation: str, queries: list[Query], outcomes: list[Outcome]) -> list[str]:
    """Per-kind recall@5 and MRR of both methods."""
    rows = []
    for kind in dict.fromkeys(q.kind for q in queries):
        picked = [i for i, q in enumerate(queries) if q.kind == kind]
        cells = [f"{mean([o.recalls[i] for i in picked]):.3f} | "
                 f"{mean([o.ranks[i] for i in picked]):.3f}" for o in outcomes]
        rows.append(f"| {evaluation} | {kind} | {len(picked)} | {' | '.join(cells)} |")
    return rows


def failure_lines(queries: list[Query], outcomes: list[Outcome], limit: int) -> list[str]:
    """Queries where vaultmem missed an expected note in its top 5, one kind after another."""
    mine, base = outcomes
    misses = [i for i in range(len(queries)) if mine.recalls[i] < 1.0]
    seen: Counter[str] = Counter()
    order = []
    for i in misses:
        seen[queries[i].kind] += 1
        order.append((seen[queries[i].kind], i))
    lines = []
    for _, i in sorted(order)[:limit]:
        query, found = queries[i], mine.found[i]
        lines.append(f'- "{query.text}" ({query.kind}): expected {", ".join(query.expected)} '
                     f"(vaultmem rank {rank_of(found, query.expected)}, BM25 rank "
                     f"{rank_of(base.found[i], query.expected)}); vaultmem top 3: "
                     f"{', '.join(found[:3]) or '(nothing)'}")
    return lines


def add_search(report: Report, evaluation: str, where: str, queries: list[Query],
               outcomes: list[Outcome], failures: int) -> None:
    """Add one search evaluation to every section of the report."""
    for outcome in outcomes:
        report.rows.append(f"| {evaluation} | {outcome.method} | {len(queries)} | "
                           f"{mean(outcome.recalls):.3f} | {mean(outcome.ranks):.3f} |")
        report.timings.append(timing_row(outcome.method, where, outcome.times[:TIMED]))
    report.kinds += kind_rows(evaluation, queries, outcomes)
    misses = sum(r < 1.0 for r in outcomes[0].recalls)
    report.failures.append(f"\n{evaluation}: {misses} of {len(queries)} queries miss an "
                           "expected note in vaultmem's top 5" + (":" if misses else "."))
    report.failures += failure_lines(queries, outcomes, failures)


# --- the two vaults -----------------------------------------------------------------------------


def ensure_vault(notes: int) -> Path:
    """The synthetic vault of ``notes`` notes (generated once, like bench_index.py)."""
    root = OUT / f"vault-{notes}"
    if not truth_path(root).is_file():
        generate(notes, root)
    return root


def open_vault(root: Path) -> Vault:
    """The vault at ``root``, with semantic recall and every passage embedded under
    ``--semantic``."""
    vault = Vault(root)
    if SEMANTIC.on:
        vault.config.semantic = SEMANTIC
        embed_vault(vault)
    return vault


def sample_section(report: Report, failures: int) -> tuple[Vault, BM25, dict[str, str]]:
    """Search quality on sample_vault with the hand-labelled queries; the vault and baseline."""
    vault = open_vault(SAMPLE)
    queries = load_labels(LABELS, vault)
    texts = texts_of(vault)
    bm25 = BM25(texts)
    outcomes = search_outcomes(vault, bm25, queries)
    add_search(report, "search: sample_vault (hand-labelled)", "sample_vault", queries, outcomes,
               failures)
    return vault, bm25, texts


def open_synthetic(report: Report, notes: int) -> tuple[Vault, BM25, dict[str, str]]:
    """The synthetic vault fully loaded (notes, search index, graph) and its BM25 index."""
    root = ensure_vault(notes)
    start = time.perf_counter()
    vault = open_vault(root)
    _ = vault.notes, vault.graph
    loaded = time.perf_counter() - start
    texts = texts_of(vault)
    bm25 = BM25(texts)
    built = time.perf_counter() - start - loaded
    report.notes.append(f"synthetic vault {root.name}: loading notes, search index and graph took "
                        f"{loaded:.1f} s; reading the files and the baseline's index {built:.1f} s")
    return vault, bm25, texts


def synthetic_section(report: Report, args: argparse.Namespace) -> None:
    """Search quality and link prediction on the synthetic vault."""
    vault, bm25, texts = open_synthetic(report, args.notes)
    where = f"vault-{args.notes}"
    queries = synthetic_queries(vault, args.queries, args.seed)
    outcomes = search_outcomes(vault, bm25, queries)
    add_search(report, f"search: synthetic {args.notes} notes (generated)", where, queries,
               outcomes, args.failures)
    link_section(report, f"synthetic {args.notes} notes", where, (vault, bm25, texts), args)


def link_section(report: Report, evaluation: str, where: str,
                 loaded: tuple[Vault, BM25, dict[str, str]], args: argparse.Namespace) -> None:
    """Link prediction on one vault, added to the table, the timings and the notes."""
    vault, bm25, texts = loaded
    samples = link_samples(vault, args.hide, args.seed)
    today = today_of(vault)
    predicted, not_found = predict_links(vault, bm25, texts, samples, today)
    hidden = sum(len(s.hidden) for s in samples)
    for outcome in predicted:
        report.rows.append(f"| link prediction: {evaluation} | {outcome.method} | "
                           f"{len(samples)} notes, {hidden} hidden links | "
                           f"{mean(outcome.recalls):.3f} | {mean(outcome.ranks):.3f} |")
        report.timings.append(timing_row(outcome.method, where, outcome.times[:TIMED]))
    back = sum(vault.graph.has_edge(t, s.note) for s in samples for t in s.hidden)
    report.notes.append(f"link prediction on {where}: {back} of {hidden} hidden targets link back "
                        f"to their note (kept as evidence); related(today={today}); "
                        f"{not_found} hidden link texts not found in the note text")



def print_report(report: Report, args: argparse.Namespace, seconds: float) -> None:
    """Print every section as Markdown."""
    print(f"# Retrieval evaluation (seed {args.seed}, {args.notes} synthetic notes)\n")
    print("| evaluation | method | queries | recall@5 (or hit@10) | MRR |")
    print("| --- | --- | --- | ---: | ---: |")
    print("\n".join(report.rows))
    print("\n## By query kind\n")
    print("| evaluation | kind | queries | vaultmem recall@5 | vaultmem MRR | BM25 recall@5 "
          "| BM25 MRR |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(report.kinds))
    print(f"\n## Timing (median per call, in-process, warmed; first {TIMED} calls at most)\n")
    print("| operation | vault | calls | median ms |\n| --- | --- | ---: | ---: |")
    print("\n".join(report.timings))
    print("\n## Queries vaultmem's search missed")
    print("\n".join(report.failures))
    print("\n## Notes\n")
    print("\n".join(f"- {line}" for line in report.notes))
    print(f"- total runtime {seconds:.1f} s")


def main() -> int:
    """Run every evaluation and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000, help="synthetic vault size")
    parser.add_argument("--queries", type=int, default=200, help="synthetic search queries")
    parser.add_argument("--hide", type=int, default=200, help="notes for link prediction")
    parser.add_argument("--seed", type=int, default=11, help="seed of queries and samples")
    parser.add_argument("--failures", type=int, default=12, help="missed queries to list")
    parser.add_argument("--semantic", action="store_true",
                        help="search with semantic recall (the shared model, or --model)")
    parser.add_argument("--model", type=Path, default=MODEL, help="model folder for --semantic")
    parser.add_argument("--weight", type=float, default=Semantic().search_weight,
                        help="meaning's weight in search for --semantic (search_weight)")
    args = parser.parse_args()
    if args.semantic:
        global SEMANTIC
        SEMANTIC = Semantic(str(args.model), args.model.resolve(), search_weight=args.weight)
    start = time.perf_counter()
    report = Report()
    sample = sample_section(report, args.failures)
    synthetic_section(report, args)
    link_section(report, "sample_vault (extra: real links)", "sample_vault", sample, args)
    print_report(report, args, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
