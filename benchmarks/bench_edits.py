"""What a tool call costs in a long-running server while people edit the vault.

    python benchmarks/bench_edits.py [--notes 10000] [--calls 30]

The MCP tools (:class:`vaultmem.live.mcp_write.WriteTools`, the server's own objects, no
transport) on a copy of the synthetic vault of gen_vault.py, index warm. For each tool
(search, show, context, related) and each way, ``--calls`` calls with other arguments each time:

- ``unchanged``: nothing changed since the last call (the floor);
- ``after an edit``: a line was appended to a person's note just before the call, and the
  server takes in the files the system reports changed;
- ``listing``: the same edit, and the server lists and compares the whole vault (as without a
  watch, and as every call did before this release);
- ``after a write``: the call right after a ``daily`` write by the same server.

Printed: median and 90th percentile milliseconds per call, as a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_mcp import arguments  # noqa: E402
from bench_scale import ensure_vault  # noqa: E402

from vaultmem.live.mcp_write import WriteTools  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

WAYS = ("unchanged", "after an edit", "listing", "after a write")


def calls(root: Path, count: int) -> dict[str, list[dict[str, Any]]]:
    """Each tool's arguments for ``count`` calls (as bench_mcp's, and a context for each)."""
    found = arguments(root, count)
    found["context"] = [{"query": searched["query"], "note": related["note"]}
                        for searched, related in zip(found["search"], found["related"],
                                                     strict=True)]
    return found


def edit(root: Path, rng: random.Random) -> None:
    """Append a line to a random person's note, as an editor saving would."""
    person = rng.choice(sorted((root / "People").glob("*.md")))
    with person.open("a", encoding="utf-8") as handle:
        handle.write(f"\nNoted at {time.time_ns()}.\n")


def timed(call: Callable[..., str], arguments: dict[str, Any]) -> float:
    """Milliseconds one call takes."""
    started = time.perf_counter()
    call(**arguments)
    return (time.perf_counter() - started) * 1000


def measure(root: Path, count: int) -> dict[tuple[str, str], list[float]]:
    """Milliseconds per call by (tool, way)."""
    rng = random.Random(5)
    watched, listing = WriteTools(Vault(root)), WriteTools(Vault(root), watch=False)
    found: dict[tuple[str, str], list[float]] = {}
    for tool, argument_list in calls(root, count).items():
        for tools in (watched, listing):
            getattr(tools, tool)(**argument_list[0])  # loaded once, as a running server is
        for number, given in enumerate(argument_list):
            found.setdefault((tool, "unchanged"), []).append(
                timed(getattr(watched, tool), given))
            edit(root, rng)
            found.setdefault((tool, "after an edit"), []).append(
                timed(getattr(watched, tool), given))
            edit(root, rng)
            found.setdefault((tool, "listing"), []).append(
                timed(getattr(listing, tool), given))
            watched.daily(text=f"Call {number} of {tool}: {sorted(given.values())}.",
                          title=f"{tool} {number}")
            found.setdefault((tool, "after a write"), []).append(
                timed(getattr(watched, tool), given))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "vault"
        shutil.copytree(ensure_vault(args.notes), root)
        Vault(root).index  # noqa: B018 - a warm index, as a server that has run a while
        found = measure(root, args.calls)
    print(f"\n{args.notes} notes, {args.calls} calls each, ms per call (median / p90)\n")
    print("| tool | " + " | ".join(WAYS) + " |")
    print("| --- |" + " ---: |" * len(WAYS))
    for tool in ("search", "show", "context", "related"):
        cells = [_cell(found[(tool, way)]) for way in WAYS]
        print(f"| {tool} | " + " | ".join(cells) + " |")


def _cell(values: list[float]) -> str:
    """Median / p90 of ``values``."""
    p90 = statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]
    return f"{statistics.median(values):.0f} / {p90:.0f}"


if __name__ == "__main__":
    main()
