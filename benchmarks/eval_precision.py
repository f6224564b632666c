"""Precision of contexts on the real vaults: the share of Relevant passages a reader finds useful.

    XDG_CACHE_HOME=/tmp/offcache python benchmarks/eval_precision.py [--budget 1000] \
        [--todo PATH]

Every question of ``queries/context_corpora.json`` and ``queries/precision_corpora.json``
(``{"vault", "question", "kind", "agent", "evidence"}``, ``vault`` a folder of
``shared/corpora`` beside the checkout, read only; the index goes to the cache folder) is asked
of ``build_context`` with no agent at ``--budget`` tokens, and the items under Relevant are
looked up in ``labels/precision.jsonl``: one JSON object a line, ``{"vault", "question",
"note", "lines": [first, last], "text_sha", "relevant", "why"}``, written by a person reading
each passage (relevant: it holds part of the answer, or context a reader needs to use it; not
relevant: it only shares words with the question, is about something else, or is a bare
property or link line). A label is keyed by vault, question, note and ``text_sha`` (the first
12 hex digits of the SHA-1 of the item's text), so it holds while the passage is shown as it
was, wherever its lines move.

``--owner`` asks instead the 144 questions of ``queries/owner_questions.json`` (12 on each of 12
vaults, written by readers of each vault who saw nothing of vaultmem, in the vault's language).

Printed: a table with a row per vault (questions, passages shown under Relevant (not the lines
naming notes it does not show), how many of them are labelled, how many labelled relevant,
precision = relevant / labelled, the share of the labelled passages' tokens that are relevant,
the questions with an evidence line inside a passage shown, the median of the tokens under
Relevant and of the whole context per question), a pooled row and the vault of lowest
precision; then
how many shown passages have no label, and how many labels no passage of this run matches.
``--todo PATH`` writes the shown passages that have no label, one JSON object a line
(``vault``, ``question``, ``note``, ``lines`` as [first, last], ``text_sha``, ``text``), to be
read and labelled. Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultmem.recall.context.build import build_context
from vaultmem.recall.context.candidates import ContextItem
from vaultmem.vault import Vault

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[1] / "shared" / "corpora"
QUESTIONS = [HERE / "queries" / "context_corpora.json",
             HERE / "queries" / "precision_corpora.json"]
OWNER = HERE / "queries" / "owner_questions.json"  # 12 a vault on 12 vaults, written blind
LABELS = HERE / "labels" / "precision.jsonl"

Key = tuple[str, str, str, str]  # vault, question, note, text_sha


@dataclass
class Tally:
    """What one vault's (or all vaults') questions showed under Relevant and how it was judged."""

    questions: int = 0
    shown: int = 0
    labelled: int = 0
    relevant: int = 0
    tokens: list[int] = field(default_factory=list)  # tokens under Relevant, per question
    used: list[int] = field(default_factory=list)  # tokens of the whole context, per question
    answered: int = 0  # questions with an evidence line inside a passage shown
    relevant_tokens: int = 0  # tokens of the passages labelled relevant
    labelled_tokens: int = 0

    def add(self, other: Tally) -> None:
        """Fold ``other`` into this tally."""
        self.questions += other.questions
        self.shown += other.shown
        self.labelled += other.labelled
        self.relevant += other.relevant
        self.tokens += other.tokens
        self.used += other.used
        self.answered += other.answered
        self.relevant_tokens += other.relevant_tokens
        self.labelled_tokens += other.labelled_tokens

    def precision(self) -> float | None:
        """Relevant passages over labelled ones (None when none is labelled)."""
        return self.relevant / self.labelled if self.labelled else None


def text_sha(text: str) -> str:
    """The short SHA-1 a label names a passage's text by."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def span(item: ContextItem) -> list[int]:
    """The first and last file line of an item ([] when it cites none)."""
    return [min(item.lines), max(item.lines)] if item.lines else []


def load_questions(paths: list[Path]) -> list[dict[str, Any]]:
    """The questions of every question file, in file order."""
    return [row for path in paths for row in json.loads(path.read_text(encoding="utf-8"))]


def answers(row: dict[str, Any], items: list[ContextItem]) -> bool:
    """True when a passage shown holds a line of the question's evidence."""
    return any(item.id == e["note"] and e["line"] in item.lines
               for e in row.get("evidence", []) for item in items)


def load_labels(path: Path) -> dict[Key, bool]:
    """The labels of ``path`` by key (none when the file is absent)."""
    if not path.is_file():
        return {}
    labels: dict[Key, bool] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        key = (row["vault"], row["question"], row["note"], row["text_sha"])
        if key in labels and labels[key] != row["relevant"]:
            print(f"{path.name} line {number}: contradicts an earlier label", file=sys.stderr)
        labels[key] = bool(row["relevant"])
    return labels


def shown(vault: Vault, question: str, budget: int) -> tuple[list[ContextItem], int]:
    """The passages the context for ``question`` shows under Relevant (not the lines pointing
    to notes it does not show), and the context's tokens."""
    built = build_context(vault, query=question, budget=budget)
    return [item for item in built.items if item.section == "relevant"
            and item.kind != "pointer"], built.tokens


def percent(value: float | None) -> str:
    """A share as a whole percent, or a dash when there is none."""
    return "-" if value is None else f"{100 * value:.0f}%"


def table_row(name: str, tally: Tally) -> str:
    """One Markdown row of the table."""
    median = statistics.median(tally.tokens) if tally.tokens else 0
    used = statistics.median(tally.used) if tally.used else 0
    share = tally.relevant_tokens / tally.labelled_tokens if tally.labelled_tokens else None
    return (f"| {name} | {tally.questions} | {tally.shown} | {tally.labelled} | "
            f"{tally.relevant} | {percent(tally.precision())} | {percent(share)} | "
            f"{tally.answered} | {median:.0f} | {used:.0f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--todo", type=Path, help="write the unlabelled passages here")
    parser.add_argument("--owner", action="store_true",
                        help=f"ask the questions of {OWNER.name} instead")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"no {CORPORA}", file=sys.stderr)
        return 2
    labels = load_labels(LABELS)
    by_vault: dict[str, list[dict[str, Any]]] = {}
    for row in load_questions([OWNER] if args.owner else QUESTIONS):
        by_vault.setdefault(row["vault"], []).append(row)
    tallies: dict[str, Tally] = {}
    todo: dict[Key, dict[str, Any]] = {}
    seen: set[Key] = set()
    for name in sorted(by_vault):
        vault = Vault(CORPORA / name)
        tally = tallies[name] = Tally()
        for row in by_vault[name]:
            question = row["question"]
            items, used = shown(vault, question, args.budget)
            tally.questions += 1
            tally.shown += len(items)
            tally.tokens.append(sum(item.tokens for item in items))
            tally.used.append(used)
            tally.answered += answers(row, items)
            for item in items:
                key = (name, question, item.id, text_sha(item.text))
                seen.add(key)
                if key in labels:
                    tally.labelled += 1
                    tally.relevant += labels[key]
                    tally.labelled_tokens += item.tokens
                    tally.relevant_tokens += item.tokens * labels[key]
                else:
                    todo.setdefault(key, {"vault": name, "question": question, "note": item.id,
                                          "lines": span(item), "text_sha": key[3],
                                          "text": item.text})
    print(f"Relevant passages at budget {args.budget}, judged by reading them\n")
    print("| vault | questions | shown | labelled | relevant | precision | relevant tokens | "
          "answer shown | median Relevant tokens | median tokens used |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    pooled = Tally()
    for name, tally in tallies.items():
        print(table_row(name, tally))
        pooled.add(tally)
    print(table_row("**pooled**", pooled))
    judged = [(t.precision(), name) for name, t in tallies.items() if t.precision() is not None]
    if judged:
        worst, name = min(judged, key=lambda pair: (pair[0] or 0.0, pair[1]))
        print(f"\nworst vault: {name} ({percent(worst)})")
    unshown = len(set(labels) - seen)
    print(f"shown passages with no label: {sum(t.shown - t.labelled for t in tallies.values())}"
          f" ({len(todo)} distinct); labels matching no shown passage: {unshown}")
    if args.todo:
        args.todo.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n"
                                     for row in todo.values()), encoding="utf-8")
        print(f"wrote {len(todo)} passages to label to {args.todo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
