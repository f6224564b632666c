"""Benchmark reading a vault: the floor, a cold scan, a warm scan and a scan after one change.

    python benchmarks/bench_index.py --notes 10000 [--runs 3]

Generates (once) a synthetic vault under ``benchmarks/out/`` with gen_vault.py, then measures in
one run, each case in a fresh process so peak RSS is its own:

- floor: plain Python reading every .md file and running one wikilink regex;
- cold: ``Vault(root).index`` with an empty cache (parsing over every core);
- warm: the same with the cache filled and nothing changed;
- one changed: after appending a line to one note;
- graph: a warm scan plus building the networkx graph.

Wall time is the best of ``--runs``, measured after the interpreter has started and imported
vaultmem (imports are not part of any case; ``bench_recall.py`` times whole commands); RSS is
the largest peak of the process and its workers.
Ratios are to the floor measured in the same run. Finally the parse is compared with the
generator's ground truth (every link and tag, no link from code); a mismatch exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
OUT = HERE / "out"

CASES = {
    "floor": "floor(root)",
    "cold": "Vault(root).index",
    "warm": "Vault(root).index",
    "one changed": "Vault(root).index",
    "warm + graph": "Vault(root).graph",
}
CHILD = """
import json, os, re, resource, sys, time
from pathlib import Path
from vaultmem.vault import Vault
import vaultmem.read.parse  # imports happen before the clock starts, in every case
LINK = re.compile(r"\\[\\[([^\\]]+)\\]\\]")
def floor(root):
    found = 0
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    found += len(LINK.findall(handle.read()))
    return found
root = Path(sys.argv[1])
start = time.perf_counter()
CASE
seconds = time.perf_counter() - start
# this process's own peak (VmHWM: ru_maxrss would keep the launching process's across exec)
status = Path("/proc/self/status").read_text().split("VmHWM:")
own = int(status[1].split()[0]) if len(status) > 1 else resource.getrusage(
    resource.RUSAGE_SELF).ru_maxrss
rss = max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({"seconds": seconds, "rss_mb": rss / 1024}))
"""


def measure(case: str, root: Path, cache: Path) -> dict[str, float]:
    """Run one case in a fresh interpreter with ``cache`` as its cache folder."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    code = CHILD.replace("CASE", CASES[case])
    done = subprocess.run([sys.executable, "-c", code, str(root)], env=env, check=True,
                          capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def best(case: str, root: Path, runs: int) -> dict[str, float]:
    """The fastest of ``runs`` runs (RSS: the largest seen); the vault is left as it was."""
    results = []
    note = sorted((root / "People").glob("*.md"))[0]
    original = note.read_bytes()
    for _ in range(runs):
        cache = Path(tempfile.mkdtemp(prefix="vm-bench-"))
        if case not in ("cold", "floor"):
            measure("cold", root, cache)
        if case == "one changed":
            note.write_bytes(original + b"\nOne more line.\n")
        try:
            results.append(measure(case, root, cache))
        finally:
            note.write_bytes(original)
    return {"seconds": min(r["seconds"] for r in results),
            "rss_mb": max(r["rss_mb"] for r in results)}


def ensure_vault(notes: int) -> tuple[Path, dict[str, object]]:
    """The synthetic vault of ``notes`` notes and its ground truth (generated once)."""
    from gen_vault import generate, truth_path

    root = OUT / f"vault-{notes}"
    if not truth_path(root).is_file():
        generate(notes, root)
    truth: dict[str, object] = json.loads(truth_path(root).read_text(encoding="utf-8"))
    return root, truth


def check_truth(root: Path, truth: dict[str, object]) -> list[str]:
    """Differences between a fresh parse and the ground truth."""
    from truth import differences

    from vaultmem.vault import Vault

    return differences(Vault(root, use_cache=False), truth)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root, truth = ensure_vault(args.notes)
    size = sum(p.stat().st_size for p in root.rglob("*.md")) / 1e6
    print(f"vault: {args.notes} notes, {size:.1f} MB of Markdown, {os.cpu_count()} cores\n")
    print("| case | wall time (s) | x floor | peak RSS (MB) |\n| --- | ---: | ---: | ---: |")
    floor = None
    for case in CASES:
        result = best(case, root, args.runs)
        floor = floor or result["seconds"]
        print(f"| {case} | {result['seconds']:.3f} | {result['seconds'] / floor:.2f} | "
              f"{result['rss_mb']:.0f} |")
    diffs = check_truth(root, truth)
    print("\nground truth: " + ("exact match" if not diffs else f"{len(diffs)} differences"))
    for line in diffs:
        print("  " + line)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
