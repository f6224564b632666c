"""Benchmark recall on the synthetic vault with a warm cache.

    python benchmarks/bench_recall.py --notes 10000

Measures in one run: the floor (as in bench_index.py: reading every note and one wikilink
regex), a whole ``vaultmem search`` command (new process, warm cache; median of 11), and inside
one process with the vault loaded: the median of 100 searches and of 100 ``related`` queries.
Queries are built deterministically from note titles and words of the vault.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_index import ensure_vault, measure  # noqa: E402

from vaultmem.recall.related.notes import related  # noqa: E402
from vaultmem.recall.search import search  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402


def queries(vault: Vault, count: int) -> list[str]:
    """Realistic queries: a title, two title words, a title with a typo, a heading."""
    rng = random.Random(11)
    notes = sorted(vault.notes)
    out = []
    for index in range(count):
        note = vault.notes[rng.choice(notes)]
        words = note.title.split()
        kind = index % 3
        if kind == 0:
            out.append(note.title)
        elif kind == 1:
            out.append(" ".join(rng.sample(words, min(2, len(words)))))
        else:
            title = note.title
            cut = rng.randrange(len(title))
            out.append(title[:cut] + title[cut + 1 :])
    return out


def median_ms(func: object, items: list[str]) -> float:
    """Median wall time of ``func(item)`` in milliseconds."""
    times = []
    for item in items:
        start = time.perf_counter()
        func(item)  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def cli(root: Path, cache: Path, args: list[str], runs: int) -> float:
    """Median wall time of a whole ``vaultmem`` command (new process each time), in seconds."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    command = [sys.executable, "-m", "vaultmem", "--vault", str(root), *args]
    subprocess.run(command, env=env, check=True, capture_output=True)  # fills what it caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def after_change(root: Path, cache: Path, args: list[str], runs: int) -> float:
    """Median wall time of a command right after one note changed (nothing reused for it)."""
    note = sorted((root / "People").glob("*.md"))[0]
    original = note.read_bytes()
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    command = [sys.executable, "-m", "vaultmem", "--vault", str(root), *args]
    times = []
    try:
        for index in range(runs):
            note.write_bytes(original + f"\nChanged {index}.\n".encode())
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    finally:
        note.write_bytes(original)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    args = parser.parse_args()
    root, _ = ensure_vault(args.notes)
    cache = Path(tempfile.mkdtemp(prefix="vm-recall-"))
    os.environ["XDG_CACHE_HOME"] = str(cache)
    floor = min(measure("floor", root, cache)["seconds"] for _ in range(3))
    vault = Vault(root)
    asked = queries(vault, 100)
    search(vault, asked[0])  # warm: load the search index once
    search_ms = median_ms(lambda q: search(vault, q), asked)
    graph = vault.graph
    nodes = random.Random(5).sample(sorted(vault.notes), 100)
    related_ms = median_ms(lambda n: related(graph, n), nodes)
    agent = sorted(n for n in vault.notes if n.startswith("Agents/"))[0]
    commands = {
        "`vaultmem search`": ["search", "decision pricing owner"],
        "`vaultmem context --agent --query`": ["context", "--agent", agent, "--query",
                                               "deployment decision owner"],
        "`vaultmem conflicts`": ["conflicts"],
    }
    print(f"vault: {args.notes} notes, warm cache\n")
    print("| measure | value |\n| --- | ---: |")
    print(f"| floor (read + regex) | {floor:.3f} s |")
    for label, command in commands.items():
        seconds = cli(root, cache, command, 11)
        print(f"| {label} command, median of 11 | {seconds:.3f} s ({seconds / floor:.2f}x) |")
    changed = after_change(root, cache, ["conflicts"], 5)
    print(f"| `vaultmem conflicts` after one note changed, median of 5 | {changed:.3f} s "
          f"({changed / floor:.2f}x) |")
    print(f"| search in process, median of 100 | {search_ms:.1f} ms |")
    print(f"| related in process (graph only), median of 100 | {related_ms:.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
