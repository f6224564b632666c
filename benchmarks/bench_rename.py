"""Time a rename that rewrites many backlinks in a large vault, beside the floor of the same run.

    python benchmarks/bench_rename.py [--notes 10000] [--backlinks 1000] [--repeat 3]

Makes a vault of ``--notes`` notes in 100 folders, each linking three others, of which
``--backlinks`` also link ``Target`` (as ``[[Target]]``, ``[[Target|shown]]``, ``[[Target#Plan]]``
in turn); indexes it once; then renames ``Target`` to ``Renamed Target`` and undoes it,
``--repeat`` times, in this process (the index warm, as in a keeper or the MCP server). Printed,
median seconds: the plan (backlinks read, each link written again, every changed note parsed and
its links resolved as the vault will be), the commit (the History record, each note rewritten
under its lock with compare-and-swap and fsync, the move), the undo; and the floor: writing the
same number of files atomically with fsync (``write.files.atomic_write``), what any safe rewrite
of that many files costs on this disk.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from vaultmem.vault import Vault
from vaultmem.write.files import atomic_write
from vaultmem.write.rename import plan_rename
from vaultmem.write.transaction import commit, undo

FORMS = ["[[Target]]", "[[Target|shown]]", "[[Target#Plan]]"]


def make(root: Path, notes: int, backlinks: int) -> None:
    """The vault: numbered notes in 100 folders, ``backlinks`` of them linking Target."""
    rng = random.Random(7)
    (root / ".obsidian").mkdir(parents=True)
    (root / "Target.md").write_text("# Target\n\n## Plan\n\nThe plan.\n", encoding="utf-8")
    for number in range(notes):
        folder = root / f"F{number % 100:02d}"
        folder.mkdir(exist_ok=True)
        others = " ".join(f"[[n{rng.randrange(notes)}]]" for _ in range(3))
        target = f" See {FORMS[number % len(FORMS)]}." if number < backlinks else ""
        (folder / f"n{number}.md").write_text(f"# n{number}\n\nLinks {others}.{target}\n",
                                              encoding="utf-8")


def floor(folder: Path, count: int) -> float:
    """Seconds to write ``count`` small files atomically, with fsync, in ``folder``."""
    folder.mkdir()
    started = time.perf_counter()
    for number in range(count):
        atomic_write(folder / f"f{number}.md", b"# f\n\nLinks [[Renamed Target|Target]].\n")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--backlinks", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        root = Path(tmp) / "vault"
        make(root, args.notes, args.backlinks)
        started = time.perf_counter()
        _ = Vault(root).notes
        print(f"indexed {args.notes + 1} notes in {time.perf_counter() - started:.1f} s")
        times: dict[str, list[float]] = {"plan": [], "commit": [], "undo": [], "floor": []}
        for turn in range(args.repeat):
            vault = Vault(root)
            _ = vault.notes
            started = time.perf_counter()
            planned = plan_rename(vault, "Target", "Renamed Target")
            times["plan"].append(time.perf_counter() - started)
            started = time.perf_counter()
            commit(root, list(planned.changes), what="bench")
            times["commit"].append(time.perf_counter() - started)
            started = time.perf_counter()
            undo(root)
            times["undo"].append(time.perf_counter() - started)
            times["floor"].append(floor(Path(tmp) / f"floor{turn}", len(planned.changes)))
        rewritten = len(planned.changes)
        print(f"rename Target: {planned.links} links in {rewritten} notes")
        for name, values in times.items():
            print(f"  {name}: {statistics.median(values):.2f} s (median of {len(values)})")
        total = statistics.median(times["plan"]) + statistics.median(times["commit"])
        print(f"  rename (plan + commit): {total:.2f} s, "
              f"{total / statistics.median(times['floor']):.1f}x the floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
