"""What one MCP tool call costs an agent: the server started once, then many calls.

    python benchmarks/bench_mcp.py [--sizes 1000 10000] [--calls 30]

For each size the synthetic vault of gen_vault.py (made once under ``benchmarks/out/``) is
scanned once (warm index); ``vaultmem mcp`` is started over stdio with the official client,
and ``search``, ``show`` and ``related`` are each called ``--calls`` times (other notes and
words each time). Printed: the median and the 90th percentile milliseconds per call, round
trip through the client, as a Markdown table.
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
from typing import Any

import anyio
import mcp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scale import ensure_vault  # noqa: E402


def arguments(root: Path, calls: int) -> dict[str, list[dict[str, Any]]]:
    """Each tool's arguments for ``calls`` calls: people to show and relate, words to search."""
    rng = random.Random(7)
    people = sorted(p.stem for p in (root / "People").glob("*.md"))
    words = sorted({w for p in (root / "Projects").glob("*.md") for w in p.stem.split()
                    if len(w) > 3})
    return {
        "search": [{"query": " ".join(rng.sample(words, 2))} for _ in range(calls)],
        "show": [{"note": rng.choice(people)} for _ in range(calls)],
        "related": [{"note": rng.choice(people)} for _ in range(calls)],
    }


def measure(root: Path, calls: int, cache: Path) -> dict[str, list[float]]:
    """Milliseconds of every call, by tool."""
    params = mcp.StdioServerParameters(
        command=sys.executable, args=["-m", "vaultmem", "--vault", str(root), "mcp"],
        env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    plan = arguments(root, calls)

    async def run() -> dict[str, list[float]]:
        found: dict[str, list[float]] = {tool: [] for tool in plan}
        async with mcp.stdio_client(params) as (read, write), \
                mcp.ClientSession(read, write) as session:
            await session.initialize()
            for tool, calls_of_tool in plan.items():
                for args in calls_of_tool:
                    start = time.perf_counter()
                    result = await session.call_tool(tool, args)
                    found[tool].append((time.perf_counter() - start) * 1000)
                    if result.is_error:
                        raise RuntimeError(f"{tool} {args}: {result.content}")
        return found

    return anyio.run(run)


def main() -> None:
    """Measure each size and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args()
    print("| notes | tool | median ms | p90 ms |\n| ---: | --- | ---: | ---: |")
    for size in args.sizes:
        root = ensure_vault(size)
        cache = Path(tempfile.mkdtemp(prefix="vm-mcp-"))
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), "scan"],
                       env=env, check=False, capture_output=True)
        for tool, times in measure(root, args.calls, cache).items():
            p90 = statistics.quantiles(times, n=10)[-1]
            print(f"| {size:,} | {tool} | {statistics.median(times):.0f} | {p90:.0f} |")


if __name__ == "__main__":
    main()
