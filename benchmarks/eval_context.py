r"""Context quality of vaultmem's ``build_context``, next to packing the best BM25 lines.

    XDG_CACHE_HOME=/tmp/ctxevalcache python benchmarks/eval_context.py \
        [--days 120] [--seed 3] [--failures 10]

Measured: for each question, are ALL its evidence lines inside the context built for it?
The share of such questions is printed for budgets 500, 1000 and 2000 tokens, on two vaults:

- ``sample_vault`` with the hand-labelled questions of ``queries/context_sample_vault.json``
  (``{"question", "agent", "evidence": [{"note", "line"}]}``; ``agent`` is the agent whose
  context it is, or null);
- a conversation-log vault made by ``gen_conversations.py`` (``--days`` weekdays of meetings,
  threads and 1:1s between 12 people, ``--seed``) in ``benchmarks/out/conversations-<days>``,
  rewritten on every run, with the questions it returns (planted facts, asked in other words;
  some also need a person's or project's note).

vaultmem: ``build_context(vault, agent=..., query=question, budget=budget)``, with ``today``
fixed to the day after the newest note date when the function takes it, so runs do not depend
on the calendar. An evidence (note, line) is inside when an item of ``ctx.items`` has
``id == note`` and ``line in item.lines``, or when the evidence line's stripped text, without
its list marker (``- ``, ``1. ``, ``- [ ] ``), appears verbatim in ``ctx.text``.

Baseline: every non-empty file line of every note in ``vault.notes`` is a document; plain
Okapi BM25 (``\w+`` lower-case words, no stemming or stop words, k1 = 1.2, b = 0.75, idf
log(1 + (N - df + 0.5) / (df + 0.5)), each distinct question word counted once). Lines with a
positive score are packed best first (ties by note id, then line) as ``- <line> ([[note]])``,
one per line, until the next one would take the text over the budget by vaultmem's
``estimate_tokens``; an evidence line is inside when it was packed.

Also printed: the median milliseconds per ``build_context`` call for each vault (after one
warm-up call, which is reported separately), the shares at budget 1000 by kind of evidence
(folders of the evidence notes) and by the age of the daily note, and up to ``--failures``
questions vaultmem missed at budget 1000 (taking the vaults in turn), with the missing lines and
what the context held instead. Same code, same arguments: same numbers (timings aside).
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
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_conversations import generate_conversations  # noqa: E402

from vaultmem.recall.context import build_context  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

try:
    from vaultmem.recall.context import estimate_tokens  # type: ignore[attr-defined]
except ImportError:  # the API names it in context; it lives in budget
    from vaultmem.recall.budget import estimate_tokens

SAMPLE = HERE.parent / "sample_vault"
LABELS = HERE / "queries" / "context_sample_vault.json"
OUT = HERE / "out"
BUDGETS = (500, 1000, 2000)
FOCUS = 1000  # the budget of the breakdowns and the missed questions
K1, B = 1.2, 0.75
WORD = re.compile(r"\w+")
LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[.\]\s+)?")

Evidence = tuple[str, int]


@dataclass(frozen=True)
class Case:
    """One question: its text, the agent asking, and the (note, line) pairs that answer it."""

    question: str
    agent: str | None
    evidence: tuple[Evidence, ...]


@dataclass
class Suite:
    """One vault with its questions, its file lines and its baseline."""

    name: str
    vault: Vault
    cases: list[Case]
    lines: dict[str, list[str]]
    bm25: LineBM25
    today: dt.date | None


@dataclass
class Result:
    """One question at one budget: inside or not for both methods, and vaultmem's context."""

    case: Case
    budget: int
    vaultmem: bool
    baseline: bool
    missing: list[Evidence]
    context: Any = None


@dataclass
class Timing:
    """build_context call times of one vault, in seconds."""

    first: float = 0.0
    calls: list[float] = field(default_factory=list)


# --- the baseline -----------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-cased ``\\w+`` words, nothing else."""
    return WORD.findall(text.lower())


class LineBM25:
    """Plain Okapi BM25 where every non-empty line of every note is a document."""

    def __init__(self, lines: dict[str, list[str]]) -> None:
        self.docs = [(note, number, text.strip()) for note in sorted(lines)
                     for number, text in enumerate(lines[note], start=1) if text.strip()]
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: list[int] = []
        for index, (_, _, text) in enumerate(self.docs):
            counts = Counter(words(text))
            self.lengths.append(sum(counts.values()))
            for term, count in counts.items():
                self.postings[term].append((index, count))
        self.average = sum(self.lengths) / max(1, len(self.lengths))

    def scores(self, query: str) -> dict[int, float]:
        """BM25 score of every line sharing a word with ``query``."""
        scores: dict[int, float] = defaultdict(float)
        total = len(self.docs)
        for term in dict.fromkeys(words(query)):
            rows = self.postings.get(term, [])
            idf = math.log(1 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
            for index, tf in rows:
                norm = K1 * (1 - B + B * self.lengths[index] / self.average)
                scores[index] += idf * tf * (K1 + 1) / (tf + norm)
        return scores

    def pack(self, query: str, budget: int) -> set[Evidence]:
        """The (note, line) pairs packed for ``query`` within ``budget`` tokens."""
        ranked = sorted(((score, index) for index, score in self.scores(query).items()
                         if score > 0), key=lambda row: (-row[0], self.docs[row[1]][:2]))
        parts: list[str] = []
        packed: set[Evidence] = set()
        for _, index in ranked:
            note, number, text = self.docs[index]
            part = f"- {text} ([[{note}]])"
            if estimate_tokens("\n".join([*parts, part])) > budget:
                break
            parts.append(part)
            packed.add((note, number))
        return packed


# --- loading ------------------------------------------------------------------------------------


def file_lines(vault: Vault) -> dict[str, list[str]]:
    """The file lines of every note of ``vault``."""
    return {note_id: (vault.root / note.path).read_text(encoding="utf-8").splitlines()
            for note_id, note in vault.notes.items()}


def as_cases(rows: Iterable[dict[str, Any]]) -> list[Case]:
    """Questions as loaded from JSON (or returned by the generator)."""
    return [Case(row["question"], row.get("agent"),
                 tuple((ev["note"], int(ev["line"])) for ev in row["evidence"])) for row in rows]


def check_cases(name: str, cases: list[Case], lines: dict[str, list[str]]) -> None:
    """Every evidence is a non-empty line of a note of the vault."""
    for case in cases:
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


def suite(name: str, root: Path, rows: list[dict[str, Any]]) -> Suite:
    """Open the vault, check its questions, index its lines."""
    vault = Vault(root)
    lines = file_lines(vault)
    cases = as_cases(rows)
    check_cases(name, cases, lines)
    return Suite(name, vault, cases, lines, LineBM25(lines), newest_day(vault))


def suites(days: int, seed: int) -> list[Suite]:
    """The sample vault and a freshly generated conversation vault."""
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    out = OUT / f"conversations-{days}"
    generated = generate_conversations(out, days=days, seed=seed)
    return [suite("sample_vault", SAMPLE, labels), suite(out.name, out, generated)]


# --- running ------------------------------------------------------------------------------------


def call(s: Suite, case: Case, budget: int) -> Any:
    """build_context for one question, with a fixed ``today`` when the function takes it."""
    options: dict[str, Any] = {"agent": case.agent, "query": case.question, "budget": budget}
    if s.today and "today" in inspect.signature(build_context).parameters:
        options["today"] = s.today
    return build_context(s.vault, **options)


def stripped(text: str) -> str:
    """A line without surrounding space and its list marker."""
    return LIST_MARK.sub("", text.strip()).strip()


def inside(ctx: Any, note: str, line: int, text: str) -> bool:
    """Is the evidence line in the context: an item's lines, or its text verbatim?"""
    if any(item.id == note and line in item.lines for item in ctx.items):
        return True
    return bool(stripped(text)) and stripped(text) in ctx.text


def judge(s: Suite, case: Case, budget: int, ctx: Any) -> Result:
    """Score one context and the baseline's packing for the same question and budget."""
    missing = [(note, line) for note, line in case.evidence
               if not inside(ctx, note, line, s.lines[note][line - 1])]
    packed = s.bm25.pack(case.question, budget)
    return Result(case, budget, not missing, all(ev in packed for ev in case.evidence), missing,
                  ctx if budget == FOCUS else None)


def run(s: Suite, timing: Timing) -> list[Result]:
    """Every question at every budget (after one timed warm-up call)."""
    start = time.perf_counter()
    call(s, s.cases[0], BUDGETS[0])
    timing.first = time.perf_counter() - start
    results = []
    for budget in BUDGETS:
        for case in s.cases:
            start = time.perf_counter()
            ctx = call(s, case, budget)
            timing.calls.append(time.perf_counter() - start)
            if estimate_tokens(ctx.text) > budget:
                print(f"warning: {s.name} budget {budget}: {estimate_tokens(ctx.text)} tokens "
                      f"for {case.question!r}", file=sys.stderr)
            results.append(judge(s, case, budget, ctx))
    return results


# --- reporting ----------------------------------------------------------------------------------


def share(flags: Iterable[bool]) -> str:
    """The share of true flags as 0.000."""
    values = list(flags)
    return f"{sum(values) / len(values):.3f}" if values else "-"


def table(results: dict[str, list[Result]]) -> list[str]:
    """The main table: one row per vault and budget."""
    rows = ["| vault | budget | questions | vaultmem | BM25 lines |",
            "| --- | ---: | ---: | ---: | ---: |"]
    for name, found in results.items():
        for budget in BUDGETS:
            at = [r for r in found if r.budget == budget]
            rows.append(f"| {name} | {budget} | {len(at)} | {share(r.vaultmem for r in at)} "
                        f"| {share(r.baseline for r in at)} |")
    return rows


def kind(case: Case) -> str:
    """The folders of a question's evidence notes (``Daily+People``, ``Agents``, ...)."""
    folders = sorted({note.split("/")[0] if "/" in note else note for note, _ in case.evidence})
    return "+".join(folders)


def age(case: Case, days: list[str]) -> str:
    """Oldest, middle or newest third of the vault's daily notes, for the newest Daily evidence."""
    dated = [note for note, _ in case.evidence if note in days]
    if not dated:
        return ""
    position = days.index(max(dated)) / max(1, len(days) - 1)
    return "oldest third" if position < 1 / 3 else "middle third" if position < 2 / 3 \
        else "newest third"


def breakdown(results: dict[str, list[Result]], suites_: list[Suite]) -> list[str]:
    """Shares at the focus budget by kind of evidence and by the age of the daily note."""
    rows = [f"| vault | group (budget {FOCUS}) | questions | vaultmem | BM25 lines |",
            "| --- | --- | ---: | ---: | ---: |"]
    for s in suites_:
        at = [r for r in results[s.name] if r.budget == FOCUS]
        days = sorted(note for note in s.lines if note.startswith("Daily/"))
        groups: dict[str, list[Result]] = defaultdict(list)
        for r in at:
            groups[kind(r.case)].append(r)
            if age(r.case, days):
                groups["Daily, " + age(r.case, days)].append(r)
        for group in sorted(groups):
            found = groups[group]
            rows.append(f"| {s.name} | {group} | {len(found)} | {share(r.vaultmem for r in found)}"
                        f" | {share(r.baseline for r in found)} |")
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
    """The context's items grouped by section: ``section: id L3-5; id L9``."""
    by_section: dict[str, list[str]] = defaultdict(list)
    for item in ctx.items:
        by_section[item.section].append(f"{item.id} {spans(item.lines)}")
    return [f"    {section}: " + "; ".join(ids) for section, ids in by_section.items()]


def missed(results: dict[str, list[Result]], suites_: list[Suite], limit: int) -> list[str]:
    """Up to ``limit`` questions vaultmem missed at the focus budget, vaults taken in turn."""
    queues = {s.name: [r for r in results[s.name] if r.budget == FOCUS and not r.vaultmem]
              for s in suites_}
    by_name = {s.name: s for s in suites_}
    out: list[str] = []
    shown = 0
    while shown < limit and any(queues.values()):
        for name, queue in queues.items():
            if queue and shown < limit:
                out += describe(by_name[name], queue.pop(0))
                shown += 1
    return out


def describe(s: Suite, r: Result) -> list[str]:
    """One missed question: what was missing, whether BM25 found it, and what the context held."""
    ctx = r.context
    lines = [f"- [{s.name}] {r.case.question!r} (agent: {r.case.agent or '-'}; BM25 lines: "
             f"{'found' if r.baseline else 'missed'}; {ctx.tokens} tokens, "
             f"{len(ctx.items)} items)"]
    for note, line in r.missing:
        same = sorted({n for item in ctx.items if item.id == note for n in item.lines})
        where = f"note in context at {spans(same)}" if any(i.id == note for i in ctx.items) \
            else "note not in context"
        lines.append(f"  missing {note}:{line} {s.lines[note][line - 1].strip()[:90]!r} "
                     f"({where})")
    lines.append("  held instead:")
    return lines + held(ctx)


def timings(measured: dict[str, Timing]) -> list[str]:
    """Median milliseconds per build_context call, per vault."""
    return [f"- {name}: median {statistics.median(t.calls) * 1000:.1f} ms per call over "
            f"{len(t.calls)} calls (first, cold call: {t.first * 1000:.0f} ms)"
            for name, t in measured.items()]


def main(argv: list[str] | None = None) -> int:
    """Run every question at every budget on both vaults and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=120, help="daily notes to generate")
    parser.add_argument("--seed", type=int, default=3, help="generator seed")
    parser.add_argument("--failures", type=int, default=10, help="missed questions to list")
    args = parser.parse_args(argv)
    suites_ = suites(args.days, args.seed)
    measured = {s.name: Timing() for s in suites_}
    results = {s.name: run(s, measured[s.name]) for s in suites_}
    print("## Context quality: questions with all evidence lines in the context\n")
    print("\n".join(table(results)))
    print("\n## build_context time\n")
    print("\n".join(timings(measured)))
    print(f"\n## By kind of evidence and age of the daily note (budget {FOCUS})\n")
    print("\n".join(breakdown(results, suites_)))
    print(f"\n## Questions vaultmem missed at budget {FOCUS}\n")
    print("\n".join(missed(results, suites_, args.failures)) or "(none)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
