"""Context on an assistant's chats with one user: evidence found, the latest word first, quiet
when the chat never said it.

    XDG_CACHE_HOME=/tmp/chatevalcache python benchmarks/eval_assistant_chats.py \
        [--vaults 3] [--sessions 40] [--seed 5] [--semantic MODEL]

``--vaults`` vaults made by ``gen_assistant_chats.py`` (seeds ``--seed``, ``--seed`` + 1, ...;
each in ``benchmarks/out/assistant-chats-<sessions>-seed<seed>``, rewritten on every run), each
question asked of ``build_context`` with no agent at 500, 1,000 and 2,000 tokens, ``today`` the
day after the newest session. Printed, per kind and pooled:

- answered: the share of answerable questions with every evidence turn inside the context
  (``eval_context.inside``), next to plain BM25 over file lines and over vaultmem's passages
  (``eval_context.BM25``), packed to the same budget;
- for ``knowledge-update`` questions at 1,000 tokens: the latest turn inside, the latest turn
  shown before every earlier one that is shown, and each earlier one shown said to be earlier
  (``earlier than`` on its line);
- for ``unanswerable`` questions at 1,000 tokens: how many leave at most 100 tokens under
  Relevant, and the median of those tokens.

With ``--semantic MODEL`` (a model folder, e.g. ``shared/models/all-MiniLM-L6-v2-onnx-int8``)
vaultmem's contexts use semantic recall (set in memory, every passage embedded first); the
baselines are unchanged. Same arguments, same numbers. Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from eval_context import (  # noqa: E402
    BM25,
    covers,
    file_lines,
    inside,
    line_docs,
    newest_day,
    passage_docs,
)
from gen_assistant_chats import generate_assistant_chats  # noqa: E402

from vaultmem.recall.context.build import build_context  # noqa: E402
from vaultmem.recall.meaning import embed_vault  # noqa: E402
from vaultmem.semantic_config import Semantic  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

BUDGETS = (500, 1000, 2000)
FOCUS = 1000
QUIET = 100  # tokens under Relevant a question the chat cannot answer may keep
ANSWERABLE = ("single-hop", "preference", "knowledge-update", "temporal")


def context(vault: Vault, question: str, budget: int, today: dt.date) -> Any:
    """vaultmem's context for ``question``."""
    return build_context(vault, query=question, budget=budget, today=today)


def line_of(built: Any, note: str, line: int) -> int | None:
    """The place in the context's text of the item holding (note, line), None when none."""
    lines = built.text.splitlines()
    for item in built.items:
        if item.id == note and line in item.lines and item.kind != "pointer":
            head = "- " + item.text.split("\n")[0]
            return next((at for at, text in enumerate(lines) if text.startswith(head)), None)
    return None


def update_order(built: Any, row: dict[str, Any]) -> tuple[bool, bool, bool]:
    """Latest turn inside; shown before every earlier one shown; each earlier one said earlier."""
    latest = [line_of(built, e["note"], e["line"]) for e in row["evidence"]]
    earlier = [line_of(built, e["note"], e["line"]) for e in row["earlier"]]
    text = built.text.splitlines()
    found = all(at is not None for at in latest)
    first = found and all(at is None or at > max(latest) for at in earlier)  # type: ignore[type-var]
    marked = all(at is None or "earlier than" in text[at] for at in earlier)
    return found, bool(first), marked


def relevant_tokens(built: Any) -> int:
    """Tokens of the items under Relevant."""
    return sum(item.tokens for item in built.items if item.section == "relevant")


def run_vault(root: Path, rows: list[dict[str, Any]], tally: dict[str, list[Any]],
              model: Path | None = None) -> None:
    """Ask every question of one generated vault (with semantic recall when ``model`` is
    given); add what it shows to ``tally``."""
    vault = Vault(root)
    if model is not None:
        vault.config.semantic = Semantic(str(model), model)
        embed_vault(vault)
    lines = file_lines(vault)
    today = newest_day(vault) or dt.date(2026, 12, 1)
    by_line, by_passage = BM25(line_docs(lines)), BM25(passage_docs(vault))
    for row in rows:
        kind = row["kind"]
        for budget in BUDGETS:
            built = context(vault, row["question"], budget, today)
            if kind == "unanswerable":
                if budget == FOCUS:
                    tally["quiet"].append(relevant_tokens(built))
                continue
            evidence = [(e["note"], e["line"]) for e in row["evidence"]]
            packs = {"lines": by_line.pack(row["question"], budget),
                     "passages": by_passage.pack(row["question"], budget)}
            tally[f"{kind} {budget} vaultmem"].append(all(
                inside(built, note, line, lines[note][line - 1]) for note, line in evidence))
            for name, packed in packs.items():
                tally[f"{kind} {budget} {name}"].append(all(
                    covers(packed, note, line) for note, line in evidence))
            if kind == "knowledge-update" and budget == FOCUS:
                tally["updates"].append(update_order(built, row))


def share(flags: list[Any]) -> str:
    """``a/b (0.xx)``."""
    return f"{sum(flags)}/{len(flags)} ({sum(flags) / len(flags):.3f})" if flags else "-"


def report(tally: dict[str, list[Any]]) -> None:
    """Print the tables."""
    print("| kind | budget | vaultmem | BM25 lines | BM25 passages |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in (*ANSWERABLE, "all answerable"):
        for budget in BUDGETS:
            kinds = ANSWERABLE if kind == "all answerable" else (kind,)
            cells = [share([f for k in kinds for f in tally[f"{k} {budget} {method}"]])
                     for method in ("vaultmem", "lines", "passages")]
            print(f"| {kind} | {budget} | " + " | ".join(cells) + " |")
    updates = tally["updates"]
    print("\n| knowledge updates at 1,000 | latest inside | latest first | earlier marked |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| {len(updates)} questions | " + " | ".join(
        share([u[at] for u in updates]) for at in range(3)) + " |")
    quiet = tally["quiet"]
    print(f"\nunanswerable at 1,000: {sum(t <= QUIET for t in quiet)}/{len(quiet)} with <= "
          f"{QUIET} tokens under Relevant; median {statistics.median(quiet) if quiet else 0}")


def main(argv: list[str] | None = None) -> int:
    """Generate the vaults, ask, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vaults", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--semantic", type=Path, help="a model folder: use semantic recall")
    args = parser.parse_args(argv)
    tally: dict[str, list[Any]] = defaultdict(list)
    for seed in range(args.seed, args.seed + args.vaults):
        root = HERE / "out" / f"assistant-chats-{args.sessions}-seed{seed}"
        run_vault(root, generate_assistant_chats(root, sessions=args.sessions, seed=seed), tally,
                  args.semantic.resolve() if args.semantic else None)
    report(tally)
    return 0


if __name__ == "__main__":
    sys.exit(main())
