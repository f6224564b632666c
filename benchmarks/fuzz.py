"""Fuzz the parser, resolver and scan: every property of tests/test_properties.py, N examples each.

    python benchmarks/fuzz.py [--examples 10000] [--seed 0] [--only NAME ...]

Runs each hypothesis property of ``tests/test_properties.py`` with ``--examples`` examples (per
property: the total is in the last row), random but reproducible from ``--seed``, then every
stress case of that file once (10,000 links in a note, 5,000 levels of nesting, a 100 MB note,
NUL bytes, bad UTF-8, cyclic ``supersedes`` ...), each in a fresh folder, and prints a Markdown
table: property | examples | failures | wall s. "examples" counts the calls of the property
(shrinking included). A property stops at its first failure, which hypothesis shrinks and which
is printed after the table; any failure exits 1.

The parse cache goes to a temporary folder; the vault folders are temporary too.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, seed, settings
from hypothesis.strategies import SearchStrategy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
Row = tuple[str, int, list[str], float]


def run_property(check: Callable[..., None], strategies: tuple[SearchStrategy[Any], ...],
                 examples: int, start: int) -> tuple[int, list[str]]:
    """(examples run, failures) of one property."""
    from tests.test_properties import FUZZ

    calls = 0

    @functools.wraps(check)
    def counted(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        check(*args, **kwargs)

    test: Callable[[], None] = given(*strategies)(counted)
    test = settings(FUZZ, max_examples=examples, derandomize=False)(seed(start)(test))
    try:
        test()
    except Exception as exc:
        return calls, [_describe(exc)]
    return calls, []


def run_stress(case: Callable[[Path], None]) -> tuple[int, list[str]]:
    """(1, its failure if any) of one stress case, run in an empty folder."""
    with tempfile.TemporaryDirectory(prefix="vm-fuzz-") as folder:
        try:
            case(Path(folder))
        except Exception as exc:
            return 1, [_describe(exc)]
    return 1, []


def _describe(exc: BaseException) -> str:
    """The error with hypothesis' notes (the falsifying example), each one of a group."""
    parts = exc.exceptions if isinstance(exc, BaseExceptionGroup) else (exc,)
    return "\n".join("".join(traceback.format_exception_only(type(part), part)).strip()
                     for part in parts)


def timed(name: str, run: Callable[[], tuple[int, list[str]]]) -> Row:
    """Run one row of the table and print it."""
    started = time.perf_counter()
    count, failures = run()
    row = (name, count, failures, time.perf_counter() - started)
    print(f"| {row[0]} | {row[1]} | {len(row[2])} | {row[3]:.1f} |", flush=True)
    return row


def run_all(examples: int, start: int, only: list[str] | None) -> list[Row]:
    """Every property, then every stress case (those named in ``only``, if given)."""
    from tests.test_properties import PROPERTIES, STRESS_CASES

    rows = [timed(name, functools.partial(run_property, check, strategies, examples, start))
            for name, (check, strategies) in PROPERTIES.items() if only is None or name in only]
    cases = {case.__name__.removeprefix("test_"): case for case in STRESS_CASES}
    return rows + [timed(f"stress: {name}", functools.partial(run_stress, case))
                   for name, case in cases.items() if only is None or name in only]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=10_000, help="examples per property")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=None, help="property or case names")
    args = parser.parse_args()
    print(f"{args.examples} examples per property, seed {args.seed}, {os.cpu_count()} cores\n")
    print("| property | examples | failures | wall s |\n| --- | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory(prefix="vm-fuzz-cache-") as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        rows = run_all(args.examples, args.seed, args.only)
    failures = [(row[0], failure) for row in rows for failure in row[2]]
    print(f"| **total** | **{sum(r[1] for r in rows)}** | **{len(failures)}** | "
          f"**{sum(r[3] for r in rows):.1f}** |")
    for name, failure in failures:
        print(f"\n{name} failed:\n{failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
