"""Benchmark the watcher on the synthetic vault (a copy, so the generated vault stays clean).

    python benchmarks/bench_watch.py --notes 10000

Measures in one run: the floor (as in bench_index.py), the time from one edited note to the
end of the rebuild (median of 5; the debounce is subtracted), and a LiveSync-like burst of 500
new notes: how many rebuilds it caused and how long until the rebuild ended.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_index import ensure_vault, measure  # noqa: E402

from vaultmem.live.watch import watch  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

DEBOUNCE = 0.5


def wait_logged(logs: list[str], count: int, timeout: float = 120.0) -> float:
    """Seconds until the watcher has logged ``count`` rebuilds."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if len(logs) >= count:
            return time.perf_counter() - start
        time.sleep(0.01)
    raise TimeoutError(f"no rebuild within {timeout} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    args = parser.parse_args()
    source, _ = ensure_vault(args.notes)
    root = Path(tempfile.mkdtemp(prefix="vm-watch-")) / "vault"
    shutil.copytree(source, root)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="vm-watch-cache-")
    floor = min(measure("floor", root, Path(os.environ["XDG_CACHE_HOME"]))["seconds"]
                for _ in range(3))
    vault = Vault(root)
    agent = sorted(n for n in vault.notes if n.startswith("Agents/"))[0]
    linked = root / f"{agent}.md"
    logs: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(vault,), kwargs={
        "agents": [agent], "debounce": DEBOUNCE, "log": logs.append, "stop": stop})
    thread.start()
    time.sleep(3)
    edits = []
    for index in range(5):
        with linked.open("a", encoding="utf-8") as note:
            note.write(f"\n- Rule {index}: check the totals twice.\n")
        edits.append(wait_logged(logs, index + 1) - DEBOUNCE)
        time.sleep(DEBOUNCE * 3)
    rebuilds = len(logs)
    for index in range(500):
        (root / f"Synced {index}.md").write_text(f"Pulled note {index} for [[{agent}]].\n")
    burst = wait_logged(logs, rebuilds + 1)
    time.sleep(DEBOUNCE * 12)
    stop.set()
    thread.join()
    print(f"vault: {args.notes} notes, debounce {DEBOUNCE * 1000:.0f} ms\n")
    print("| measure | value |\n| --- | ---: |")
    print(f"| floor (read + regex) | {floor:.3f} s |")
    edit = statistics.median(edits)
    print(f"| one edit -> rebuild logged, after the debounce, median of 5 | "
          f"{edit:.3f} s ({edit / floor:.2f}x) |")
    print(f"| burst of 500 new notes: rebuilds | {len(logs) - rebuilds} |")
    print(f"| burst of 500 new notes -> rebuild logged | {burst:.3f} s |")
    print("\n" + "\n".join(logs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
