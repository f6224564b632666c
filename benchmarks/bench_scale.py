"""Benchmark how cost grows with the vault: 1,000, 10,000 and 100,000 notes in one run.

    python benchmarks/bench_scale.py [--sizes 1000 10000 100000] [--queries 30]

For each size the synthetic vault of gen_vault.py (generated once under ``benchmarks/out/``)
is measured, each case in a fresh process so its peak RSS (with its parse workers) is its own:

- floor: plain Python reading every note and running one wikilink regex (after one unmeasured
  read, so no case pays for bringing the files into the page cache);
- cold scan / warm scan: ``Vault(root).index`` with an empty / a filled parse cache;
- search, related, context, conflicts: the whole ``vaultmem`` command on the warm cache (what an
  agent's tool call costs), ``conflicts`` also right after one note changed;
- per query: inside one process with the vault and graph loaded, the median of ``--queries``
  searches, related lookups and context builds (what a long-running MCP server pays).

Ratios are to the floor of the same size measured in the same run; "growth" is the cost at
a size divided by the cost at the previous size (10x notes: near 10 is linear, below is
sub-linear). Printed as Markdown tables.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_index import CHILD, OUT  # noqa: E402

SCANS = {"floor": "floor(root)", "cold scan": "Vault(root).index",
         "warm scan": "Vault(root).index"}
COMMANDS = {
    "search": ["search", "{word} {word2}"],
    "related": ["related", "{person}"],
    "context": ["context", "--agent", "{agent}", "--query", "{word} {word2}"],
    "conflicts": ["conflicts", "--json"],
}
PER_QUERY = """
import json, random, statistics, sys, time
from pathlib import Path
from vaultmem.vault import Vault
from vaultmem.recall.search import search
from vaultmem.recall.related.notes import related
from vaultmem.recall.context.build import build_context
root, count = Path(sys.argv[1]), int(sys.argv[2])
vault = Vault(root)
graph = vault.graph
rng = random.Random(7)
ids = sorted(vault.notes)
people = [i for i in ids if i.startswith("People/")]
agents = [i.split("/")[-1] for i in ids if i.startswith("Agents/")]
words = [w for i in rng.sample(ids, 200) for w in i.split("/")[-1].split() if len(w) > 3]
def median_ms(func, items):
    times = []
    for item in items:
        start = time.perf_counter()
        func(item)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
queries = [" ".join(rng.sample(words, 2)) for _ in range(count)]
print(json.dumps({
    "search": median_ms(lambda q: search(vault, q, limit=10), queries),
    "related": median_ms(lambda n: related(graph, n, limit=10), rng.sample(people, count)),
    "context": median_ms(lambda q: build_context(vault, agent=rng.choice(agents), query=q),
                         queries),
}))
"""


def timed(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """Wall seconds and peak RSS (MB, the process and its workers) of one command."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=errors,
                                   text=True)
        out = process.stdout.read() if process.stdout else ""
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        errors.seek(0)
        said = errors.read()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1) or "Traceback" in said:  # 1: findings, not a crash
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}:\n{said[-2000:]}")
    result = {"seconds": seconds, "rss_mb": usage.ru_maxrss / 1024, "out": 0.0}
    if out.startswith("{"):
        result.update({k: v for k, v in json.loads(out).items() if isinstance(v, float)})
    return result


def scan_case(case: str, root: Path, cache: Path) -> dict[str, float]:
    """One scan case in a fresh interpreter (the clock starts after imports)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    code = CHILD.replace("CASE", SCANS[case])
    return timed([sys.executable, "-c", code, str(root)], env)


def command_case(args: list[str], root: Path, cache: Path) -> dict[str, float]:
    """A whole ``vaultmem`` command (interpreter start and imports included), with vaultmem's
    bytecode compiled as an installed package has it (``PYTHONDONTWRITEBYTECODE``, set on some
    machines, would make every run compile every module first)."""
    compiled()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)
    return timed([sys.executable, "-m", "vaultmem", "--vault", str(root), *args], env)


@functools.cache
def compiled() -> None:
    """Compile vaultmem's modules to bytecode once."""
    import vaultmem

    compileall.compile_dir(Path(vaultmem.__file__).parent, quiet=1)


def fill(args: list[str], root: Path) -> list[str]:
    """Command arguments with a person, an agent and two title words of this vault."""
    person = sorted((root / "People").glob("*.md"))[0].stem
    agent = sorted((root / "Agents").glob("*.md"))[0].stem
    words = [w for w in sorted((root / "Projects").glob("*.md"))[0].stem.split() if len(w) > 3]
    values = {"person": person, "agent": agent, "word": words[0], "word2": words[-1]}
    return [a.format(**values) for a in args]


def ensure_vault(notes: int) -> Path:
    """The synthetic vault of ``notes`` notes, generated in a child process when missing (so
    this process never holds its ground truth: a forked child would count it in its RSS)."""
    root = OUT / f"vault-{notes}"
    if not (OUT / f"vault-{notes}.truth.json").is_file():
        subprocess.run([sys.executable, str(HERE / "gen_vault.py"), str(notes), str(root)],
                       check=True)
    return root


def measure_size(notes: int, queries: int) -> dict[str, dict[str, float]]:
    """Every case for one vault size."""
    root = ensure_vault(notes)
    cache = Path(tempfile.mkdtemp(prefix="vm-scale-"))
    scan_case("floor", root, cache)  # the files into the page cache first, as for every case
    found = {case: scan_case(case, root, cache) for case in SCANS}  # cold fills the cache
    command_case(["conflicts"], root, cache)  # graph, search index and findings cached
    for name, args in COMMANDS.items():
        found[name] = command_case(fill(args, root), root, cache)
    found["conflicts, one changed"] = after_one_change(["conflicts", "--json"], root, cache)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    per = timed([sys.executable, "-c", PER_QUERY, str(root), str(queries)], env)
    found.update({f"{k} (per query, ms)": {"seconds": v / 1000, "rss_mb": per["rss_mb"]}
                  for k, v in per.items() if k in ("search", "related", "context")})
    return found


def after_one_change(args: list[str], root: Path, cache: Path) -> dict[str, float]:
    """The command ``args`` right after one note changed (what it keeps is of another state,
    so it computes it again); the note is then put back."""
    note = sorted((root / "People").glob("*.md"))[0]
    original = note.read_bytes()
    try:
        note.write_bytes(original + b"\nOne more line.\n")
        return command_case(args, root, cache)
    finally:
        note.write_bytes(original)


def report(sizes: list[int], results: dict[int, dict[str, dict[str, float]]]) -> None:
    """Markdown tables: wall, x floor and RSS per size; growth per 10x."""
    head = " | ".join(f"{n:,} wall | x floor | RSS MB" for n in sizes)
    print(f"| case | {head} |\n| --- |" + " ---: | ---: | ---: |" * len(sizes))
    for case in results[sizes[0]]:
        cells = []
        for n in sizes:
            r, floor = results[n][case], results[n]["floor"]["seconds"]
            wall = r["seconds"] * 1000 if "ms" in case else r["seconds"]
            cells.append(f"{wall:.3f} | {r['seconds'] / floor:.2f} | {r['rss_mb']:.0f}")
        print(f"| {case} | " + " | ".join(cells) + " |")
    steps = list(itertools.pairwise(sizes))
    print("\n| case | " + " | ".join(f"growth {a:,} -> {b:,}" for a, b in steps)
          + " |\n| --- |" + " ---: |" * len(steps))
    for case in results[sizes[0]]:
        ratios = [results[b][case]["seconds"] / results[a][case]["seconds"]
                  for a, b in steps]
        print(f"| {case} | " + " | ".join(f"{x:.1f}x" for x in ratios) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; sizes {args.sizes}\n")
    results = {}
    for notes in args.sizes:
        start = time.perf_counter()
        results[notes] = measure_size(notes, args.queries)
        print(f"measured {notes:,} notes in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    report(args.sizes, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
