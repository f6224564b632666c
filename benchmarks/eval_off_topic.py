"""Contexts for questions the vault holds nothing on: how much of the budget goes to Relevant.

    python benchmarks/eval_off_topic.py [--budget 1000] [--per-vault 10] [--show] [--held]

For each real vault of ``shared/corpora`` (beside the checkout, read only; the index goes to
the cache folder), up to ``--per-vault`` questions of ``queries/off_topic.json`` whose topic
words (``absent``) appear in none of its Markdown files, by a case-blind search (a word's
start for letters, anywhere for CJK): questions in the vault's own scripts first (Han, kana,
Cyrillic), then the others in file order. Each is asked of ``build_context`` with no agent at
``--budget`` tokens; reported per vault: how many questions leave at most 100 tokens under
Relevant (the target is 9 of 10), the median tokens under Relevant, and how many contexts say
no passage holds much of the question. ``--own`` asks instead each vault the ten questions
written for it in its language (``queries/off_topic_corpora.json``, absent words checked).
``--show`` prints the items of every context that kept Relevant passages. ``--held`` asks
instead the questions the vaults do hold (``queries/context_corpora.json``,
``queries/context_sample_vault.json``, with their agents) and counts the contexts that
wrongly say no passage holds much of the question.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

from vaultmem.recall.context.build import Context, build_context
from vaultmem.recall.context.unanswered import NOTHING_CLOSE
from vaultmem.vault import Vault

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[1] / "shared" / "corpora"
QUESTIONS = HERE / "queries" / "off_topic.json"
OWN = HERE / "queries" / "off_topic_corpora.json"  # each vault's own, in its language
HELD = {HERE / "queries" / "context_corpora.json": None,
        HERE / "queries" / "context_sample_vault.json": HERE.parent / "sample_vault"}
KEPT = 100  # tokens under Relevant a question on nothing the vault holds may keep
SCRIPTS = {"han": re.compile(r"[\u4e00-\u9fff]"), "kana": re.compile(r"[\u3040-\u30ff]"),
           "cyrillic": re.compile(r"[\u0400-\u04ff]")}


def vault_text(root: Path) -> str:
    """Every Markdown file of the vault, case-folded, as one text."""
    return "\n".join(path.read_text(encoding="utf-8", errors="replace").casefold()
                     for path in sorted(root.rglob("*.md")) if ".obsidian" not in path.parts)


def absent(word: str, text: str) -> bool:
    """True when ``word`` starts no word of ``text`` (CJK: is nowhere in it)."""
    folded = word.casefold()
    if any(pattern.search(word) for pattern in SCRIPTS.values()) and not \
            SCRIPTS["cyrillic"].search(word):
        return folded not in text
    return re.search(r"(?<!\w)" + re.escape(folded), text) is None


def chosen(questions: list[dict[str, Any]], text: str, most: int) -> list[str]:
    """The questions whose topic words ``text`` lacks, in the vault's scripts first."""
    scripts = {name for name, pattern in SCRIPTS.items() if len(pattern.findall(text)) > 500}
    kept = [q for q in questions if all(absent(word, text) for word in q["absent"])]

    def foreign(question: dict[str, Any]) -> bool:
        used = {name for name, pattern in SCRIPTS.items() if pattern.search(question["question"])}
        return bool(used) and not used & scripts
    return [q["question"] for q in sorted(kept, key=foreign)][:most]


def relevant_tokens(built: Context) -> int:
    """Tokens of the items under Relevant."""
    return sum(item.tokens for item in built.items if item.section == "relevant")


def held(budget: int) -> int:
    """Ask the questions the vaults hold; print those whose context says nothing is close."""
    asked = said = 0
    for path, root in HELD.items():
        for row in json.loads(path.read_text(encoding="utf-8")):
            vault = Vault(root or CORPORA / row["vault"])
            built = build_context(vault, agent=row.get("agent"), query=row["question"],
                                  budget=budget)
            asked += 1
            if NOTHING_CLOSE in built.text:
                said += 1
                print(f"says so: {row.get('vault', 'sample_vault')}: {row['question']}")
    print(f"{said} of {asked} questions the vaults hold say no passage holds much of them")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--per-vault", type=int, default=10)
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--held", action="store_true")
    parser.add_argument("--own", action="store_true",
                        help=f"ask each vault the questions written for it ({OWN.name})")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"no {CORPORA}", file=sys.stderr)
        return 2
    if args.held:
        return held(args.budget)
    questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    print("| vault | questions | <= 100 tokens under Relevant | median Relevant tokens | "
          "says so |\n| --- | ---: | ---: | ---: | ---: |")
    totals = [0, 0, 0]
    for root in sorted(p for p in CORPORA.iterdir() if p.is_dir()):
        asked = ([q["question"] for q in json.loads(OWN.read_text(encoding="utf-8"))
                  if q["vault"] == root.name] if args.own else
                 chosen(questions, vault_text(root), args.per_vault))
        if not asked:
            continue
        vault = Vault(root)
        built = [build_context(vault, query=q, budget=args.budget) for q in asked]
        spent = [relevant_tokens(b) for b in built]
        kept = sum(s <= KEPT for s in spent)
        said = sum(NOTHING_CLOSE in b.text for b in built)
        totals = [totals[0] + len(asked), totals[1] + kept, totals[2] + said]
        median = statistics.median(spent) if spent else 0
        print(f"| {root.name} | {len(asked)} | {kept} | {median:.0f} | {said} |")
        for question, context, tokens in zip(asked, built, spent, strict=True):
            if args.show and tokens > KEPT:
                print(f"\n{root.name}: {question} ({tokens} tokens)\n" + "\n".join(
                    f"    {i.score:.2f} {i.id} {i.cite}: {i.text[:90]!r}"
                    for i in context.items if i.section == "relevant") + "\n")
    print(f"| **all** | {totals[0]} | {totals[1]} | | {totals[2]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
