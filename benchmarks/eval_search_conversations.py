r"""Search on conversation logs: is the note holding a question's evidence among the first five?

    XDG_CACHE_HOME=/tmp/ctxevalcache python benchmarks/eval_search_conversations.py \
        [--sessions 30] [--seed 3] [--conversations 5] [--words plain|people]

Each question of ``--conversations`` vaults made by ``gen_conversations.py`` (seeds ``--seed``,
``--seed`` + 1, ..., in ``benchmarks/out/search-<sessions>-seed<seed>[-people]``, rewritten on
every run) is asked of vaultmem's ``search`` (``limit=5``) and of plain Okapi BM25 over whole
notes (``eval_context.BM25``, one document per note: its text; ties by note id). A question is
found when every note holding one of its evidence lines is among the five (a multi-hop
question's evidence is in two or more daily notes). Printed: the share found per kind and in
all, for both, and vaultmem minus BM25. Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from eval_context import BM25, OUT, Doc
from gen_conversations import KINDS, WORDS, generate_conversations

from vaultmem.recall.search import search
from vaultmem.vault import Vault

TOP = 5


def note_docs(vault: Vault) -> list[Doc]:
    """One BM25 document per note: its whole text."""
    return [Doc(note_id, 1, 1, vault.note_text(note_id)) for note_id in vault.notes]


def bm25_top(index: BM25, question: str) -> list[str]:
    """The ``TOP`` best notes by BM25 (ties by note id)."""
    scores = index.scores(question)
    ranked = sorted((i for i, s in scores.items() if s > 0), key=lambda i: (-scores[i], i))
    return [index.docs[i].note for i in ranked[:TOP]]


def run(root: Path, questions: list[dict[str, object]]) -> list[tuple[str, bool, bool]]:
    """(kind, found by vaultmem, found by BM25) of each question."""
    vault = Vault(root)
    index = BM25(note_docs(vault))
    out = []
    for q in questions:
        wanted = {ev["note"] for ev in q["evidence"]}  # type: ignore[attr-defined]
        mine = {hit.id for hit in search(vault, str(q["question"]), limit=TOP)}
        out.append((str(q["kind"]), wanted <= mine, wanted <= set(bm25_top(index, str(
            q["question"])))))
    return out


def main(argv: list[str] | None = None) -> int:
    """Generate the vaults, ask every question, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--conversations", type=int, default=5)
    parser.add_argument("--words", choices=WORDS, default="plain")
    args = parser.parse_args(argv)
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for seed in range(args.seed, args.seed + args.conversations):
        suffix = "" if args.words == "plain" else f"-{args.words}"
        root = OUT / f"search-{args.sessions}-seed{seed}{suffix}"
        questions = generate_conversations(root, args.sessions, seed, args.words)
        for kind, mine, bm25 in run(root, questions):
            for key in (kind, "all"):
                tally[key][0] += 1
                tally[key][1] += mine
                tally[key][2] += bm25
    print(f"## Search: every evidence note in the top {TOP} ({args.conversations} x "
          f"{args.sessions} sessions, {args.words} words)\n")
    print("| kind | questions | vaultmem | BM25 notes | vaultmem - BM25 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in (*KINDS, "all"):
        count, mine, bm25 = tally[kind]
        if count:
            print(f"| {kind} | {count} | {mine / count:.3f} | {bm25 / count:.3f} | "
                  f"{(mine - bm25) / count:+.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
