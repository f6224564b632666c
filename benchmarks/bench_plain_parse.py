"""The tokenizer's plain path against markdown-it alone, vault by vault.

    python benchmarks/bench_plain_parse.py [--notes 10000] [--runs 3]

For the synthetic vault of bench_index.py and each shared real vault: how many notes the plain
blocks read (the rest go to markdown-it), how many inline blocks the plain inline path reads,
and the CPU milliseconds a note of tokenizing both ways (best of ``--runs``, same process).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
CORPORA = HERE.parent.parent / "shared" / "corpora"


def bodies(root: Path) -> list[str]:
    """The body of every note under ``root`` as the parse hands it to the tokenizer."""
    from vaultmem.config import load_config
    from vaultmem.read.parse import parse_with_body

    config = load_config(root)
    return [parse_with_body(path.relative_to(root).as_posix(), path.read_bytes(), config).body
            for path in sorted(root.rglob("*.md"))]


def cpu_ms(work: Callable[[str], object], texts: list[str], runs: int) -> float:
    """Best CPU milliseconds a text of ``work`` over ``texts``."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        for text in texts:
            work(text)
        best = min(best, time.process_time() - start)
    return best * 1000 / max(len(texts), 1)


def row(name: str, texts: list[str], runs: int) -> str:
    """A table row for one vault."""
    from vaultmem.read.plain_blocks import body_tokens, plain_tokens
    from vaultmem.read.plain_inline import plain_children
    from vaultmem.read.syntax import TRIGGERS, make_parser

    reference = make_parser(plain=False)
    taken = sum(plain_tokens(text) is not None for text in texts)
    blocks = [token.content for text in texts for token in reference.parse(text)
              if token.type == "inline" and any(t in token.content for t in TRIGGERS)]
    inline = sum(plain_children(content) is not None for content in blocks)
    before, now = cpu_ms(reference.parse, texts, runs), cpu_ms(body_tokens, texts, runs)
    return (f"| {name} | {len(texts):,} | {taken / len(texts):.0%} | "
            f"{inline / max(len(blocks), 1):.0%} | {before:.3f} | {now:.3f} | "
            f"{before / now:.2f}x |")


def main() -> int:
    from bench_index import ensure_vault

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| vault | notes | notes the plain blocks read | inline blocks the plain path reads "
          "| markdown-it ms/note | plain path ms/note | faster |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    root, _ = ensure_vault(args.notes)
    print(row(f"synthetic {args.notes:,}", bodies(root), args.runs), flush=True)
    vaults = sorted(p for p in CORPORA.iterdir() if p.is_dir()) if CORPORA.is_dir() else []
    for vault in vaults:
        print(row(vault.name, bodies(vault), args.runs), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
