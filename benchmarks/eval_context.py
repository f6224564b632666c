r"""Context quality of vaultmem's ``build_context``, next to the best BM25 lines and passages.

    XDG_CACHE_HOME=/tmp/ctxevalcache python benchmarks/eval_context.py \
        [--sessions 30] [--seed 3] [--conversations 5] [--words people] [--failures 10] \
        [--semantic [--weights 0.5] [--model PATH]]

Measured: for each question, are ALL its evidence lines inside the context built for it?
The share of such questions is printed for budgets 500, 1000 and 2000 tokens, on three groups:

- ``sample_vault`` with the hand-labelled questions of ``queries/context_sample_vault.json``
  (``{"question", "kind", "agent", "evidence": [{"note", "line"}]}``; ``agent`` is the agent
  whose context it is, or null);
- the real vaults of ``shared/corpora`` beside the checkout (skipped when absent), with the
  questions of ``queries/context_corpora.json`` (the same fields and ``vault``, the folder),
  written and labelled by reading the notes; pooled as one group;
- ``--conversations`` conversation-log vaults made by ``gen_conversations.py`` (``--sessions``
  sessions between two people, one daily note per day with a session, one ``- [[Speaker]]: text
  ^id`` item per turn), with seeds ``--seed``, ``--seed`` + 1, ... (same exchanges and questions,
  other days, other placements and other chit-chat around them), each in
  ``benchmarks/out/conversations-<sessions>-seed<seed>``, rewritten on every run, with the
  questions it returns; ``--words people`` types their turns as people do (a fact over two
  turns, typos, casual case: see ``people_words.py``), in ``...-seed<seed>-people``. Their
  results are pooled; the main table also shows each vault.

Every question has a kind: ``single-hop``, ``multi-hop``, ``temporal`` or ``open`` (see
``gen_conversations.py``; in ``sample_vault``, labelled by hand).

vaultmem: ``build_context(vault, agent=..., query=question, budget=budget)``, with ``today``
fixed to the day after the newest note date when the function takes it, so runs do not depend
on the calendar. An evidence (note, line) is inside when an item of ``ctx.items`` has
``id == note`` and ``line in item.lines``, or when the evidence line's stripped text, without
its list marker (``- ``, ``1. ``, ``- [ ] ``) and a trailing ``^block-id``, appears verbatim in
``ctx.text``.

Two baselines in the same run, both plain Okapi BM25 (``\w+`` lower-case words, no stemming or
stop words, k1 = 1.2, b = 0.75, idf log(1 + (N - df + 0.5) / (df + 0.5)), each distinct question
word counted once) over documents of every note in ``vault.notes``:

- BM25 lines: every non-empty file line is a document;
- BM25 passages: every passage vaultmem's splitter makes (``split_passages`` on what
  ``parse_with_body`` saw, as the index does; none of a note marked ``generated_by: vaultmem``)
  is a document, its text as the splitter gives it (markup and ``^id`` removed). Frontmatter is
  no passage, so an evidence line among a note's properties is never inside for this baseline.

Documents with a positive score are packed best first (ties by note id, then first line) as
``- <text> ([[note]])``, one per line, until the next one would take the text over the budget
by vaultmem's ``estimate_tokens``; an evidence line is inside when a packed document's line span
(first to last file line) contains it.

Also printed: the shares per kind of question at every budget; the median milliseconds per
``build_context`` call for each vault or pooled group (after one warm-up call per vault, the
slowest of which is reported separately); the shares at budget 1000 by the age of the newest
daily evidence note; where vaultmem's missing evidence lines were at budget 1000 (their note
not in the context; or in it, the line 1-2 lines after a line it held, 1-2 before, or further
away); and up to ``--failures`` questions vaultmem missed at budget 1000 (the vault groups
in turn; in a group first those the passage baseline had, its vaults in turn), with the missing
lines, whether the baselines had them, and what the context held instead (each item's section,
note, lines and the start of its text).
With ``--semantic``, every question is also asked of vaultmem with semantic recall, once per
weight of ``--weights`` (a comma list, 0.5 by default): a second ``Vault`` on the same root per
weight, its ``config.semantic`` set in memory to ``Semantic(<model>, <model>, weight=w)`` (no file
written; the plain vault's config is left as it is), its passages all embedded first with
``embed_vault`` (vectors cached in the cache folder, so later runs reuse them; its seconds and
passage texts are printed once per vault). ``--model`` is the model folder, by default
``shared/models/all-MiniLM-L6-v2-onnx-int8`` beside the checkout. Build_context then adds ``w``
times the meaning score to the keyword score of each passage (``own_scores._fused``). Each
"vaultmem + meaning (w=...)" method gets its own column in the main, by-kind and by-age tables and
its own build_context times (every call embeds its question afresh, the vault's cached question
vectors being forgotten before it, as for a new question). Also printed: per group and kind, the
hybrid's share minus plain vaultmem's at every budget, and the questions each hybrid had and plain
vaultmem missed (gained) or the reverse (lost) at budget 1000. The missing-line breakdown and the
missed questions stay those of plain vaultmem. Without ``--semantic`` the report is as before.
Same code, same arguments: same numbers (timings aside).
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_conversations import KINDS, WORDS, generate_conversations  # noqa: E402

from vaultmem.index.vector_sync import Embedded  # noqa: E402
from vaultmem.read.parse import parse_with_body  # noqa: E402
from vaultmem.read.passages import split_passages  # noqa: E402
from vaultmem.recall.context.build import build_context  # noqa: E402
from vaultmem.recall.meaning import embed_vault  # noqa: E402
from vaultmem.semantic_config import Semantic  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

try:
    from vaultmem.recall.context.build import estimate_tokens  # type: ignore[attr-defined]
except ImportError:  # the API names it in context; it lives in budget
    from vaultmem.recall.token_budget import estimate_tokens

SAMPLE = HERE.parent / "sample_vault"
LABELS = HERE / "queries" / "context_sample_vault.json"
CORPORA = Path(__file__).resolve().parents[2] / "shared/corpora"
CORPORA_LABELS = HERE / "queries" / "context_corpora.json"  # questions labelled by reading them
OUT = HERE / "out"
MODEL = Path(__file__).resolve().parents[2] / "shared/models/all-MiniLM-L6-v2-onnx-int8"
BUDGETS = (500, 1000, 2000)
FOCUS = 1000  # the budget of the age and missing-line breakdowns and the missed questions
K1, B = 1.2, 0.75
WORD = re.compile(r"\w+")
LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[.\]\s+)?")
BLOCK_ID = re.compile(r"\s+\^[A-Za-z0-9-]+$")
PLAIN = "vaultmem"  # build_context as the vault is configured (semantic recall off)
BASELINES = ("lines", "passages")
HEADS = {PLAIN: "vaultmem", "lines": "BM25 lines", "passages": "BM25 passages"}

Evidence = tuple[str, int]


class Doc(NamedTuple):
    """A baseline document: a note's text from its first to its last file line."""

    note: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Case:
    """One question: its text, kind, the agent asking, and the (note, line) pairs answering it."""

    question: str
    kind: str
    agent: str | None
    evidence: tuple[Evidence, ...]


@dataclass
class Suite:
    """One vault with its questions, its file lines and its two baselines."""

    name: str
    group: str  # the name its results are pooled under
    vault: Vault
    cases: list[Case]
    lines: dict[str, list[str]]
    by_line: BM25
    by_passage: BM25
    today: dt.date | None
    variants: dict[str, Vault] = field(default_factory=dict)  # vaultmem methods, plain first


@dataclass
class Result:
    """One question at one budget: inside or not for each method, and plain vaultmem's
    context."""

    suite: Suite
    case: Case
    budget: int
    inside: dict[str, bool]
    missing: list[Evidence]
    context: Any = None


@dataclass
class Timing:
    """build_context call times of one vault, in seconds."""

    first: float = 0.0
    calls: list[float] = field(default_factory=list)


# --- the baselines ------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-cased ``\\w+`` words, nothing else."""
    return WORD.findall(text.lower())


class BM25:
    """Plain Okapi BM25 over ``docs``, packed best first into a budget."""

    def __init__(self, docs: list[Doc]) -> None:
        self.docs = sorted(docs, key=lambda doc: (doc.note, doc.start))
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: list[int] = []
        for index, doc in enumerate(self.docs):
            counts = Counter(words(doc.text))
            self.lengths.append(sum(counts.values()))
            for term, count in counts.items():
                self.postings[term].append((index, count))
        self.average = sum(self.lengths) / max(1, len(self.lengths))

    def scores(self, query: str) -> dict[int, float]:
        """BM25 score of every document sharing a word with ``query``."""
        scores: dict[int, float] = defaultdict(float)
        total = len(self.docs)
        for term in dict.fromkeys(words(query)):
            rows = self.postings.get(term, [])
            idf = math.log(1 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
            for index, tf in rows:
                norm = K1 * (1 - B + B * self.lengths[index] / self.average)
                scores[index] += idf * tf * (K1 + 1) / (tf + norm)
        return scores

    def pack(self, query: str, budget: int) -> list[Doc]:
        """The documents packed for ``query`` within ``budget`` tokens, best first."""
        scores = self.scores(query)
        ranked = sorted((index for index, score in scores.items() if score > 0),
                        key=lambda index: (-scores[index], index))  # docs are in (note, start)
        parts: list[str] = []
        packed: list[Doc] = []
        for index in ranked:
            doc = self.docs[index]
            part = f"- {doc.text} ([[{doc.note}]])"
            if estimate_tokens("\n".join([*parts, part])) > budget:
                break
            parts.append(part)
            packed.append(doc)
        return packed


def covers(packed: list[Doc], note: str, line: int) -> bool:
    """Does a packed document's line span hold the evidence (note, line)?"""
    return any(doc.note == note and doc.start <= line <= doc.end for doc in packed)


def line_docs(lines: dict[str, list[str]]) -> list[Doc]:
    """Every non-empty file line of every note, one document each."""
    return [Doc(note, number, number, text.strip()) for note in sorted(lines)
            for number, text in enumerate(lines[note], start=1) if text.strip()]


def passage_docs(vault: Vault) -> list[Doc]:
    """Every passage of every note as vaultmem's index splits it, one document each."""
    docs: list[Doc] = []
    for note_id, note in vault.notes.items():
        data = (vault.root / note.path).read_bytes()
        parsed = parse_with_body(note.path, data, vault.config, len(data))
        if parsed.note.generated:
            continue
        docs += [Doc(note_id, p.start, p.end, p.text)
                 for p in split_passages(parsed.tokens, parsed.body, parsed.body_line)]
    return docs


# --- loading ------------------------------------------------------------------------------------


def file_lines(vault: Vault) -> dict[str, list[str]]:
    """The file lines of every note of ``vault``."""
    return {note_id: (vault.root / note.path).read_text(encoding="utf-8").splitlines()
            for note_id, note in vault.notes.items()}


def as_cases(rows: Iterable[dict[str, Any]]) -> list[Case]:
    """Questions as loaded from JSON (or returned by the generator)."""
    return [Case(row["question"], row["kind"], row.get("agent"),
                 tuple((ev["note"], int(ev["line"])) for ev in row["evidence"])) for row in rows]


def check_cases(name: str, cases: list[Case], lines: dict[str, list[str]]) -> None:
    """Every evidence is a non-empty line of a note of the vault; every kind is known."""
    for case in cases:
        if case.kind not in KINDS:
            raise SystemExit(f"{name}: unknown kind {case.kind!r} for {case.question!r}")
        for note, line in case.evidence:
            if note not in lines or not 0 < line <= len(lines[note]) or \
                    not lines[note][line - 1].strip():
                raise SystemExit(f"{name}: bad evidence {note}:{line} for {case.question!r}")


def newest_day(vault: Vault) -> dt.date | None:
    """The day after the newest ISO ``date`` of any note (None when there is none)."""
    days = []
    for note in vault.notes.values():
        try:
            days.append(dt.date.fromisoformat(str(note.date)[:10]))
        except ValueError:
            continue
    return max(days) + dt.timedelta(days=1) if days else None


def suite(name: str, group: str, root: Path, rows: list[dict[str, Any]]) -> Suite:
    """Open the vault, check its questions, index its lines and passages."""
    vault = Vault(root)
    lines = file_lines(vault)
    cases = as_cases(rows)
    check_cases(name, cases, lines)
    return Suite(name, group, vault, cases, lines, BM25(line_docs(lines)),
                 BM25(passage_docs(vault)), newest_day(vault), {PLAIN: vault})


def suites(sessions: int, seed: int, count: int, words: str = "plain") -> list[Suite]:
    """The sample vault and ``count`` freshly generated conversation vaults (seeds ``seed``,
    ``seed + 1``, ..., turns worded as ``words`` says), pooled as one group."""
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    out = [suite("sample_vault", "sample_vault", SAMPLE, labels), *corpus_suites()]
    seeds = range(seed, seed + count)
    typed = "" if words == "plain" else f", {words}'s words"
    group = f"conversations ({count} x {sessions} sessions{typed})"
    for each in seeds:
        root = OUT / f"conversations-{sessions}-seed{each}{'' if words == 'plain' else '-' + words}"
        out.append(suite(root.name, group, root,
                         generate_conversations(root, sessions=sessions, seed=each,
                                                words=words)))
    return out


def corpus_suites() -> list[Suite]:
    """The real vaults beside the checkout (``shared/corpora``, read only) with the questions of
    :data:`CORPORA_LABELS`, pooled as one group; none when the folder is not there."""
    if not CORPORA.is_dir():
        print(f"note: no {CORPORA}: the real vaults are left out", file=sys.stderr)
        return []
    rows = json.loads(CORPORA_LABELS.read_text(encoding="utf-8"))
    names = sorted({row["vault"] for row in rows})
    group = f"real vaults ({len(names)})"
    return [suite(name, group, CORPORA / name, [row for row in rows if row["vault"] == name])
            for name in names]


def meaning_method(weight: float) -> str:
    """The method name of semantic recall at ``weight``."""
    return f"meaning (w={weight:g})"


def add_meaning(s: Suite, model: Path, weights: list[float]) -> Embedded:
    """One more Vault on the suite's root per weight, semantic recall set in memory, and every
    passage embedded (by the first; all share the vectors)."""
    for weight in weights:
        vault = Vault(s.vault.root)
        vault.config.semantic = Semantic(str(model), model, weight=weight)
        s.variants[meaning_method(weight)] = vault
    return embed_vault(s.variants[meaning_method(weights[0])])


# --- running ------------------------------------------------------------------------------------


def call(s: Suite, vault: Vault, case: Case, budget: int) -> Any:
    """build_context for one question, with a fixed ``today`` when the function takes it."""
    options: dict[str, Any] = {"agent": case.agent, "query": case.question, "budget": budget}
    if s.today and "today" in inspect.signature(build_context).parameters:
        options["today"] = s.today
    return build_context(vault, **options)


def forget_questions(vault: Vault) -> None:
    """Drop the question vectors the vault keeps, so the next call embeds its question."""
    for key in [k for k in vault.derived if isinstance(k, tuple) and k[:1] == ("query vector",)]:
        del vault.derived[key]


def stripped(text: str) -> str:
    """A line without surrounding space, its list marker and a trailing block id."""
    return BLOCK_ID.sub("", LIST_MARK.sub("", text.strip())).strip()


def inside(ctx: Any, note: str, line: int, text: str) -> bool:
    """Is the evidence line in the context: an item's lines (not a line pointing to a note it
    does not show), or its text verbatim?"""
    if any(item.id == note and line in item.lines and getattr(item, "kind", "") != "pointer"
           for item in ctx.items):
        return True
    return bool(stripped(text)) and stripped(text) in ctx.text


def lacking(s: Suite, case: Case, ctx: Any) -> list[Evidence]:
    """The question's evidence lines not inside the context."""
    return [(note, line) for note, line in case.evidence
            if not inside(ctx, note, line, s.lines[note][line - 1])]


def judge(s: Suite, case: Case, budget: int, contexts: dict[str, Any]) -> Result:
    """Score every vaultmem method's context and both baselines' packings for the same question
    and budget."""
    missing = {method: lacking(s, case, ctx) for method, ctx in contexts.items()}
    by_line = s.by_line.pack(case.question, budget)
    by_passage = s.by_passage.pack(case.question, budget)
    found = {method: not lost for method, lost in missing.items()}
    found["lines"] = all(covers(by_line, note, line) for note, line in case.evidence)
    found["passages"] = all(covers(by_passage, note, line) for note, line in case.evidence)
    return Result(s, case, budget, found, missing[PLAIN],
                  contexts[PLAIN] if budget == FOCUS else None)


def timed(s: Suite, vault: Vault, case: Case, budget: int, timing: Timing) -> Any:
    """One build_context call, its time kept, with a warning when it overruns the budget."""
    forget_questions(vault)
    start = time.perf_counter()
    ctx = call(s, vault, case, budget)
    timing.calls.append(time.perf_counter() - start)
    if estimate_tokens(ctx.text) > budget:
        print(f"warning: {s.name} budget {budget}: {estimate_tokens(ctx.text)} tokens "
              f"for {case.question!r}", file=sys.stderr)
    return ctx


def run(s: Suite, timing: dict[str, Timing]) -> list[Result]:
    """Every question at every budget for every method (after one timed warm-up call each)."""
    for method, vault in s.variants.items():
        start = time.perf_counter()
        call(s, vault, s.cases[0], BUDGETS[0])
        timing[method].first = max(timing[method].first, time.perf_counter() - start)
    results = []
    for budget in BUDGETS:
        for case in s.cases:
            contexts = {method: timed(s, vault, case, budget, timing[method])
                        for method, vault in s.variants.items()}
            results.append(judge(s, case, budget, contexts))
    return results


# --- reporting ----------------------------------------------------------------------------------


def ratio(flags: Iterable[bool]) -> float | None:
    """The share of true flags (None when there are none)."""
    values = list(flags)
    return sum(values) / len(values) if values else None


def share(flags: Iterable[bool]) -> str:
    """The share of true flags as 0.000."""
    value = ratio(flags)
    return "-" if value is None else f"{value:.3f}"


def methods(results: list[Result]) -> list[str]:
    """The methods measured: the vaultmem ones (plain first), then the baselines."""
    return list(results[0].inside) if results else [PLAIN, *BASELINES]


def hybrids(results: list[Result]) -> list[str]:
    """The vaultmem methods with semantic recall."""
    return [m for m in methods(results) if m not in (PLAIN, *BASELINES)]


def heading(method: str) -> str:
    """A method's column head."""
    return HEADS.get(method, f"vaultmem + {method}")


def gap(found: list[Result], method: str, other: str) -> str:
    """``method``'s share minus ``other``'s as +0.000."""
    ours, theirs = (ratio(r.inside[m] for r in found) for m in (method, other))
    return "-" if ours is None or theirs is None else f"{ours - theirs:+.3f}"


def cells(found: list[Result], measured: list[str]) -> str:
    """``| n | vaultmem | ... | lines | passages | vaultmem - passages |`` for ``found``."""
    return f"| {len(found)} | " + " | ".join(share(r.inside[m] for r in found)
                                             for m in measured) + \
        f" | {gap(found, PLAIN, 'passages')} |"


def head(measured: list[str], *first: str) -> list[str]:
    """A table head: the ``first`` columns (a ``budget`` one right-aligned), then the number of
    questions, the ``measured`` methods and vaultmem's lead over the passage baseline."""
    names = [*first, "questions", *(heading(m) for m in measured), "vaultmem - passages"]
    aligns = ["---:" if name == "budget" else "---" for name in first] + \
        ["---:"] * (len(measured) + 2)
    return ["| " + " | ".join(names) + " |", "| " + " | ".join(aligns) + " |"]


def pooled(results: list[Result]) -> dict[str, list[Result]]:
    """Results by group, in the order the groups first appear."""
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(r.suite.group, []).append(r)
    return groups


def table(results: list[Result]) -> list[str]:
    """The main table: one row per group and budget, then per vault of a pooled group."""
    measured = methods(results)
    rows = head(measured, "vault", "budget")
    by_suite: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_suite[r.suite.name].append(r)
    names = list(pooled(results).items())
    for name, found in names:
        members = list(dict.fromkeys(r.suite.name for r in found))
        for label, rows_of in [(name, found)] + \
                ([(m, by_suite[m]) for m in members] if len(members) > 1 else []):
            for budget in BUDGETS:
                at = [r for r in rows_of if r.budget == budget]
                rows.append(f"| {label} | {budget} " + cells(at, measured))
    return rows


def by_kind(results: list[Result]) -> list[str]:
    """Shares per group, kind of question and budget."""
    measured = methods(results)
    rows = head(measured, "vault", "kind", "budget")
    for name, found in pooled(results).items():
        for kind in KINDS:
            for budget in BUDGETS:
                at = [r for r in found if r.budget == budget and r.case.kind == kind]
                if at:
                    rows.append(f"| {name} | {kind} | {budget} " + cells(at, measured))
    return rows


def kinds_of(found: list[Result]) -> list[tuple[str, list[Result]]]:
    """``found`` as a whole ("all"), then by kind of question (the kinds it has)."""
    return [("all", found)] + [(kind, [r for r in found if r.case.kind == kind])
                               for kind in KINDS if any(r.case.kind == kind for r in found)]


def hybrid_gains(results: list[Result]) -> list[str]:
    """Each hybrid's share minus plain vaultmem's, per group, kind of question and budget."""
    mixed = hybrids(results)
    rows = ["| vault | kind | budget | questions | " + " | ".join(
        f"{heading(m)} - vaultmem" for m in mixed) + " |",
        "| --- | --- | ---: | ---: | " + " | ".join("---:" for _ in mixed) + " |"]
    for name, found in pooled(results).items():
        for kind, of_kind in kinds_of(found):
            for budget in BUDGETS:
                at = [r for r in of_kind if r.budget == budget]
                rows.append(f"| {name} | {kind} | {budget} | {len(at)} | "
                            + " | ".join(gap(at, m, PLAIN) for m in mixed) + " |")
    return rows


def gained_lost(results: list[Result]) -> list[str]:
    """Per group and kind, the questions each hybrid had and plain vaultmem missed (gained) and
    the reverse (lost), at the focus budget."""
    mixed = hybrids(results)
    rows = [f"| vault | kind (budget {FOCUS}) | questions | " + " | ".join(
        f"{heading(m)}: gained / lost" for m in mixed) + " |",
        "| --- | --- | ---: | " + " | ".join("---:" for _ in mixed) + " |"]
    for name, found in pooled(results).items():
        for kind, of_kind in kinds_of(found):
            at = [r for r in of_kind if r.budget == FOCUS]
            counts = [(sum(r.inside[m] and not r.inside[PLAIN] for r in at),
                       sum(r.inside[PLAIN] and not r.inside[m] for r in at)) for m in mixed]
            rows.append(f"| {name} | {kind} | {len(at)} | "
                        + " | ".join(f"+{won} / -{lost}" for won, lost in counts) + " |")
    return rows


def age(case: Case, days: list[str]) -> str:
    """Oldest, middle or newest third of the vault's daily notes, for the newest Daily evidence."""
    dated = [note for note, _ in case.evidence if note in days]
    if not dated:
        return ""
    position = days.index(max(dated)) / max(1, len(days) - 1)
    return "oldest third" if position < 1 / 3 else "middle third" if position < 2 / 3 \
        else "newest third"


def by_age(results: list[Result]) -> list[str]:
    """Shares at the focus budget by the age of the newest daily evidence note."""
    measured = methods(results)
    rows = head(measured, "vault", f"daily evidence (budget {FOCUS})")
    for name, found in pooled(results).items():
        groups: dict[str, list[Result]] = defaultdict(list)
        for r in found:
            if r.budget == FOCUS:
                days = sorted(note for note in r.suite.lines if note.startswith("Daily/"))
                groups[age(r.case, days) or "no daily note"].append(r)
        rows += [f"| {name} | {group} " + cells(groups[group], measured)
                 for group in sorted(groups)]
    return rows


def spans(lines: list[int]) -> str:
    """``L3-5,9`` for lines [3, 4, 5, 9]."""
    if not lines:
        return "L-"
    runs: list[list[int]] = []
    for line in sorted(set(lines)):
        if runs and line == runs[-1][-1] + 1:
            runs[-1].append(line)
        else:
            runs.append([line])
    return "L" + ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def held(ctx: Any) -> list[str]:
    """The context's items, each as ``section: id L3-5 'start of its text'``."""
    return [f"    {item.section}: {item.id} {spans(item.lines)} "
            f"{' '.join(getattr(item, 'text', '').split())[:80]!r}" for item in ctx.items]


def missed(results: list[Result], limit: int) -> list[str]:
    """Up to ``limit`` questions vaultmem missed at the focus budget, groups taken in turn;
    in a group, first those the passage baseline had, vaults taken in turn."""
    queues: dict[str, list[Result]] = {}
    for name, found in pooled(results).items():
        lost = [r for r in found if r.budget == FOCUS and not r.inside[PLAIN]]
        turn = {id(r): index for vault in dict.fromkeys(r.suite.name for r in lost)
                for index, r in enumerate(x for x in lost if x.suite.name == vault)}
        queues[name] = sorted(lost, key=lambda r: (not r.inside["passages"], turn[id(r)]))
    out: list[str] = []
    shown = 0
    while shown < limit and any(queues.values()):
        for queue in queues.values():
            if queue and shown < limit:
                out += describe(queue.pop(0))
                shown += 1
    return out


def place(r: Result, note: str, line: int) -> str:
    """Where a missing evidence line was, next to what the context held of its note."""
    held_lines = {n for item in r.context.items if item.id == note for n in item.lines}
    if not any(item.id == note for item in r.context.items):
        return "note not in the context"
    if any(line - gap in held_lines for gap in (1, 2)):
        return "note in the context, line 1-2 after a held line"
    if any(line + gap in held_lines for gap in (1, 2)):
        return "note in the context, line 1-2 before a held line"
    return "note in the context, line further away"


def places(results: list[Result]) -> list[str]:
    """Where vaultmem's missing evidence lines were at the focus budget, per group, counting
    also those the passage baseline had."""
    rows = [f"| vault | missing evidence line (budget {FOCUS}) | lines | of them, the passage "
            "baseline had the question |", "| --- | --- | ---: | ---: |"]
    for name, found in pooled(results).items():
        counts: Counter[str] = Counter()
        theirs: Counter[str] = Counter()
        for r in found:
            if r.budget == FOCUS:
                for note, line in r.missing:
                    counts[place(r, note, line)] += 1
                    theirs[place(r, note, line)] += r.inside["passages"]
        rows += [f"| {name} | {where} | {count} | {theirs[where]} |"
                 for where, count in sorted(counts.items())]
    return rows


def describe(r: Result) -> list[str]:
    """One missed question: what was missing, whether the baselines found it, and what the
    context held."""
    s, ctx = r.suite, r.context
    found = {m: "found" if r.inside[m] else "missed" for m in ("lines", "passages")}
    lines = [f"- [{s.name}] [{r.case.kind}] {r.case.question!r} (agent: {r.case.agent or '-'};"
             f" BM25 lines {found['lines']}, passages {found['passages']}; {ctx.tokens} tokens,"
             f" {len(ctx.items)} items)"]
    for note, line in r.missing:
        same = sorted({n for item in ctx.items if item.id == note for n in item.lines})
        where = f"note in context at {spans(same)}" if any(i.id == note for i in ctx.items) \
            else "note not in context"
        lines.append(f"  missing {note}:{line} {s.lines[note][line - 1].strip()[:90]!r} "
                     f"({where})")
    lines.append("  held instead:")
    return lines + held(ctx)


def timings(measured: dict[str, dict[str, Timing]]) -> list[str]:
    """Median milliseconds per build_context call, per vault (or pooled group) and method (named
    when there are several)."""
    return [f"- {name}{f', {heading(method)}' if len(by_method) > 1 else ''}: median "
            f"{statistics.median(t.calls) * 1000:.1f} ms per call over {len(t.calls)} calls "
            f"(first call of a vault, at most: {t.first * 1000:.0f} ms)"
            for name, by_method in measured.items() for method, t in by_method.items()]


def embeddings(done: dict[str, Embedded]) -> list[str]:
    """What embed_vault did for each vault."""
    return [f"- {name}: {e.texts} passage texts, {e.embedded} embedded by this run, {e.waiting} "
            f"waiting, {e.seconds:.1f} s ({e.model})" for name, e in done.items()]


def notices(suites_: list[Suite]) -> list[str]:
    """What the semantic vaults said of how their answers were made (fallbacks to keywords)."""
    return [f"warning: {s.name}, {heading(method)}: {notice}" for s in suites_
            for method, vault in s.variants.items() for notice in dict.fromkeys(vault.notices)]


def weight_list(text: str) -> list[float]:
    """``--weights``: a comma list of weights above 0, at most 4."""
    try:
        weights = [float(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a comma list of numbers: {text!r}") from exc
    if not weights or not all(0 < w <= 4 for w in weights):
        raise argparse.ArgumentTypeError(f"weights must be above 0, at most 4: {text!r}")
    return list(dict.fromkeys(weights))


def main(argv: list[str] | None = None) -> int:
    """Run every question at every budget on both vaults and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=30, help="sessions to generate")
    parser.add_argument("--seed", type=int, default=3, help="generator seed of the first")
    parser.add_argument("--conversations", type=int, default=5,
                        help="conversation vaults (seeds from --seed on), pooled")
    parser.add_argument("--words", choices=WORDS, default="plain",
                        help="conversation turns as planted, or as people type them")
    parser.add_argument("--failures", type=int, default=10, help="missed questions to list")
    parser.add_argument("--semantic", action="store_true",
                        help="also run vaultmem with semantic recall, at each of --weights")
    parser.add_argument("--weights", type=weight_list, default=[0.5],
                        help="comma list of semantic weights (default 0.5)")
    parser.add_argument("--model", type=Path, default=MODEL,
                        help=f"the ONNX model folder (default {MODEL})")
    args = parser.parse_args(argv)
    if args.semantic and not args.model.is_dir():
        raise SystemExit(f"--model: no folder {args.model}")
    suites_ = suites(args.sessions, args.seed, args.conversations, args.words)
    done = {s.name: add_meaning(s, args.model.resolve(), args.weights)
            for s in suites_} if args.semantic else {}
    measured = {s.group: {method: Timing() for method in s.variants} for s in suites_}
    results = [r for s in suites_ for r in run(s, measured[s.group])]
    for line in notices(suites_):
        print(line, file=sys.stderr)
    print("## Context quality: questions with all evidence lines in the context\n")
    print("\n".join(table(results)))
    print("\n## By kind of question\n")
    print("\n".join(by_kind(results)))
    print("\n## build_context time\n")
    print("\n".join(timings(measured)))
    if done:
        print("\n## Semantic recall: hybrid minus plain vaultmem\n")
        print("\n".join(hybrid_gains(results)))
        print(f"\n## Semantic recall: questions gained and lost (budget {FOCUS})\n")
        print("\n".join(gained_lost(results)))
        print("\n## Embedding the passages (embed_vault, once per vault)\n")
        print("\n".join(embeddings(done)))
    print(f"\n## By age of the newest daily evidence note (budget {FOCUS})\n")
    print("\n".join(by_age(results)))
    print(f"\n## Where vaultmem's missing evidence lines were (budget {FOCUS})\n")
    print("\n".join(places(results)))
    print(f"\n## Questions vaultmem missed at budget {FOCUS}\n")
    print("\n".join(missed(results, args.failures)) or "(none)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
