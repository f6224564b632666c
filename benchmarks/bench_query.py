"""One-note queries against the vault size: what an agent's or a shell user's command costs.

    python benchmarks/bench_query.py [--sizes 1000 10000] [--runs 5]

For each size, the synthetic vault of gen_vault.py (made once under ``benchmarks/out/``) is
scanned once (warm index), then each command runs ``--runs`` times, each in a fresh process
as an agent or a shell calls it; the median wall time is reported with its ratio to the floor
(plain Python reading every note and running one wikilink regex) measured in the same run, and
its growth from the previous size (10x notes: 10 is linear). Each command is measured twice:
alone (it lists the vault to know what changed) and while ``vaultmem watch --no-notes`` keeps
the index and runs it (rows ``... kept``: the keeper runs the command in a fork of itself);
``lint`` and ``context`` also right after one note changed, when the findings they keep are of
another state (measured last: the note is put back, which is a change too). Printed as Markdown
tables.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scale import after_one_change, command_case, ensure_vault, fill, scan_case  # noqa: E402

COMMANDS = {
    "show NOTE": ["show", "{person}"],
    "related NOTE": ["related", "{person}"],
    "mentions NOTE": ["mentions", "{person}"],
    "scan": ["scan"],
    "lint": ["lint", "--json"],
    "search": ["search", "{word} {word2}"],
    "context --query": ["context", "--query", "{word} {word2}"],
}
# each right after one note changed: what they keep is of another state
CHANGED = {"lint, one note changed": ["lint", "--json"],
           "context --query, one note changed": COMMANDS["context --query"]}


def median_seconds(run: Callable[[], dict[str, float]], times: int,
                   peaks: dict[str, float], name: str) -> float:
    """The median wall time of ``times`` calls of ``run`` (their highest peak RSS kept in
    ``peaks`` under ``name``)."""
    found = [run() for _ in range(times)]
    peaks[name] = max(result["rss_mb"] for result in found)
    return statistics.median(result["seconds"] for result in found)


def measure(notes: int, runs: int) -> dict[str, float]:
    """Median seconds of the floor and every command (each once with nothing else running
    and once while ``vaultmem watch --no-notes`` keeps the index: ``"<command> kept"``), the
    highest peak RSS (MB) of any command, and the index's size on disk (MB), for one size."""
    root = ensure_vault(notes)
    cache = Path(tempfile.mkdtemp(prefix="vm-query-"))
    scan_case("floor", root, cache)  # the files into the page cache first
    command_case(["conflicts"], root, cache)  # index, search index and findings stored
    peaks: dict[str, float] = {}
    found = {"floor": median_seconds(lambda: scan_case("floor", root, cache), runs, {}, "")}
    for name, args in COMMANDS.items():
        filled = fill(args, root)
        found[name] = median_seconds(lambda a=filled: command_case(a, root, cache), runs, peaks,
                                     name)
    with kept_index(root, cache):
        for name, args in COMMANDS.items():
            filled = fill(args, root)
            found[f"{name} kept"] = median_seconds(lambda a=filled: command_case(a, root, cache),
                                                   runs, peaks, f"{name} kept")
    for name, args in CHANGED.items():  # last: a change makes what the others read stale
        filled = fill(args, root)
        found[name] = median_seconds(lambda a=filled: after_one_change(a, root, cache), runs,
                                     peaks, name)
    found["peak RSS of a command (MB)"] = max(peaks.values())
    found.update({f"{name}: peak RSS (MB)": mb for name, mb in peaks.items()})
    found["index on disk (MB)"] = sum(f.stat().st_size for f in cache.rglob("*")
                                      if f.is_file()) / 2**20
    shutil.rmtree(cache, ignore_errors=True)
    return found


@contextlib.contextmanager
def kept_index(root: Path, cache: Path) -> Iterator[None]:
    """``vaultmem watch --no-notes`` running on ``root`` until it vouches for the index."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    keeper = subprocess.Popen([sys.executable, "-m", "vaultmem", "--vault", str(root), "watch",
                               "--no-notes"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        os.environ["XDG_CACHE_HOME"] = str(cache)  # this process asks the same keeper
        from vaultmem.index.freshness.watcher_answer import watcher_vouches
        from vaultmem.vault import Vault

        store = Vault(root).store
        while not watcher_vouches(store):
            time.sleep(0.2)
        store.close()
        yield
    finally:
        keeper.terminate()
        keeper.wait(timeout=60)


def table(sizes: list[int], results: dict[int, dict[str, float]]) -> str:
    """Seconds, ratio to the floor and growth per command, as Markdown."""
    pairs = list(itertools.pairwise(sizes))
    head = "| command | " + " | ".join(f"{n:,} wall | x floor" for n in sizes)
    head += "".join(f" | growth {a:,} -> {b:,}" for a, b in pairs) + " |"
    rows = [head, "| --- |" + " ---: |" * (2 * len(sizes) + len(sizes) - 1)]
    for name in ["floor", *COMMANDS, *CHANGED, *(f"{name} kept" for name in COMMANDS)]:
        cells = [f"{results[n][name]:.3f} s | {results[n][name] / results[n]['floor']:.1f}x"
                 for n in sizes]
        cells += [f"{results[b][name] / results[a][name]:.1f}x" for a, b in pairs]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    named = [f"{name}: peak RSS (MB)" for name in [*COMMANDS, *CHANGED]]
    for name in ["peak RSS of a command (MB)", *named, "index on disk (MB)"]:
        rows.append(f"| {name} | " + " | ".join(f"{results[n][name]:.0f} | " for n in sizes)
                    + " |" * len(pairs) + " |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = {notes: measure(notes, args.runs) for notes in args.sizes}
    print(table(args.sizes, results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
