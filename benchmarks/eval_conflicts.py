"""Precision, recall and speed of ``vaultmem conflicts`` on the synthetic vault.

    XDG_CACHE_HOME=/tmp/conflcache python benchmarks/eval_conflicts.py [--notes 10000] [--runs 5]

Generates (once) ``benchmarks/out/vault-N`` with gen_vault.py, reused after (delete
``benchmarks/out/vault-N*`` to regenerate). Its truth lists every planted conflict as
``{"kind", "notes"}``; the rest of the vault is consistent, so every other finding is a false
positive. With a fresh temporary cache, warmed by one untimed command, one run measures:

- floor: bench_index.py's floor (plain Python reading every note, one wikilink regex), best of 3;
- the whole ``vaultmem --vault V conflicts --json`` command in a new process, median of
  ``--runs``, its findings taken from the last run;
- per kind and overall: planted, found, true positives (a finding whose kind and sorted notes
  equal a planted conflict's; each planted conflict matches once), precision and recall.

The command uses today's date: every expiry date in the vault is before 2026 and no fact starts
after mid-2025, so results are the same on any day from 2026 on. Unmatched findings and planted
conflicts are listed after the table; the exit code is 1 when there is any.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, cast

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_index import ensure_vault, measure  # noqa: E402
from gen_vault import CONFLICT_KINDS  # noqa: E402

Key = tuple[str, tuple[str, ...]]  # (kind, sorted note ids)
Finding = dict[str, Any]


def command(root: Path) -> list[str]:
    """The ``vaultmem conflicts --json`` command line for the vault at root."""
    return [sys.executable, "-m", "vaultmem", "--vault", str(root), "conflicts", "--json"]


def run_once(root: Path, cache: Path) -> tuple[float, list[Finding]]:
    """Run the command in a new process; return its wall time and findings."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    start = time.perf_counter()
    done = subprocess.run(command(root), env=env, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    findings: list[Finding] = json.loads(done.stdout)["findings"]
    return seconds, findings


def time_command(root: Path, cache: Path, runs: int) -> tuple[float, list[Finding]]:
    """Warm the cache, then return the median wall time of `runs` commands and the findings."""
    measure("cold", root, cache)  # fills the parse cache
    run_once(root, cache)  # and whatever the command caches beyond it
    results = [run_once(root, cache) for _ in range(runs)]
    return statistics.median(seconds for seconds, _ in results), results[-1][1]


def keys(items: list[Finding]) -> Counter[Key]:
    """Findings or planted conflicts as a multiset of (kind, notes)."""
    return Counter((item["kind"], tuple(item["notes"])) for item in items)


def score(found: Counter[Key], planted: Counter[Key]) -> dict[str, tuple[int, int, int]]:
    """(planted, found, true positives) per kind, and under "all"."""
    hits = found & planted
    rows = {}
    for kind in (*CONFLICT_KINDS, "all"):
        def total(counts: Counter[Key], kind: str = kind) -> int:
            return sum(n for (k, _), n in counts.items() if kind in ("all", k))
        rows[kind] = (total(planted), total(found), total(hits))
    return rows


def ratio(part: int, whole: int) -> str:
    """part / whole to three places, or "-" when whole is 0."""
    return f"{part / whole:.3f}" if whole else "-"


def table(rows: dict[str, tuple[int, int, int]]) -> str:
    """The per-kind Markdown table."""
    lines = ["| kind | planted | found | true positives | precision | recall |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for kind, (planted, found, hits) in rows.items():
        name = f"**{kind}**" if kind == "all" else kind
        lines.append(f"| {name} | {planted} | {found} | {hits} | {ratio(hits, found)} | "
                     f"{ratio(hits, planted)} |")
    return "\n".join(lines)


def unmatched(findings: list[Finding], found: Counter[Key], planted: Counter[Key]) -> list[str]:
    """Each false positive (with its message) and each false negative, one line each."""
    messages = {(f["kind"], tuple(f["notes"])): f["message"] for f in findings}
    lines = [f"false positive: {kind} {list(notes)}: {messages[(kind, notes)]}"
             for kind, notes in sorted((found - planted).elements())]
    lines += [f"false negative: {kind} {list(notes)}"
              for kind, notes in sorted((planted - found).elements())]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    root, truth = ensure_vault(args.notes)
    cache = Path(tempfile.mkdtemp(prefix="vm-conflicts-"))
    floor = min(measure("floor", root, cache)["seconds"] for _ in range(3))
    seconds, findings = time_command(root, cache, args.runs)
    planted = keys(cast(list[Finding], truth["conflicts"]))
    found = keys(findings)
    print(f"vault: {args.notes} notes, {sum(planted.values())} planted conflicts\n")
    print(table(score(found, planted)))
    print(f"\n`vaultmem conflicts --json` command: {seconds:.3f} s (median of {args.runs}, warm "
          f"cache) = {seconds / floor:.1f}x floor ({floor:.3f} s, best of 3)")
    problems = unmatched(findings, found, planted)
    print("\n" + ("\n".join(problems) if problems else "no false positives or false negatives"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
