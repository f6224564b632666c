"""Where a first scan's time goes, and how large the index it leaves is, by table.

    python benchmarks/bench_first_scan.py --notes 10000 [--sample 2000]

On the synthetic vault of bench_index.py (generated once under ``benchmarks/out/``), in one run:

- the floor (plain Python reading every note and running one wikilink regex);
- the parse, stage by stage, on ``--sample`` notes in this process (CPU milliseconds per note):
  markdown-it's tokenizer with vaultmem's rules, the rest of reading a note (frontmatter,
  links, fields, tags), its passages, their search forms, its index rows, its cache entry;
- storing every note into an empty index as a first scan does (bulk load): rows, FTS, the
  indexes made at the end, the commits;
- the index on disk, table by table, against the vault's Markdown.

Per-note CPU times are summed over the vault and divided by the cores the parse runs on, so
"x floor" says what each stage costs a first scan, whatever the others cost.
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
LINK = re.compile(r"\[\[([^\]]+)\]\]")


def floor(root: Path) -> float:
    """Seconds to read every note and find its wikilinks with one regex (best of 3)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith(".md"):
                    with open(os.path.join(folder, name), encoding="utf-8") as handle:
                        LINK.findall(handle.read())
        best = min(best, time.perf_counter() - start)
    return best


def parse_stages(root: Path, sample: int) -> dict[str, float]:
    """CPU seconds per note of each stage of reading a note, on ``sample`` notes."""
    from vaultmem.config import load_config
    from vaultmem.index.doc import meta_of
    from vaultmem.index.fts import passage_rows
    from vaultmem.index.rows import note_rows
    from vaultmem.read.note_passages import note_passages
    from vaultmem.read.parse import parse_with_body
    from vaultmem.read.plain_blocks import body_tokens
    from vaultmem.read.record import NoteDoc, encode, stored_blobs
    from vaultmem.read.resolve import Resolver
    from vaultmem.read.syntax import make_parser
    from vaultmem.read.walk import list_vault

    config = load_config(root)
    reference = make_parser(plain=False)
    listing = list_vault(config)
    resolver = Resolver([i.path[:-3] for i in listing.notes], listing.attachments)
    infos = [info for info in listing.notes if info.role == "source"][:sample]
    spent: dict[str, float] = defaultdict(float)
    for info in infos:
        data = (root / info.path).read_bytes()
        parsed = _timed(spent, "read a note (the tokenizer included)",
                        partial(parse_with_body, info.path, data, config, info.size))
        _timed(spent, "  of which the tokenizer (plain path, else markdown-it)",
               partial(body_tokens, parsed.body))
        _timed(spent, "  markdown-it's tokenizer on every note instead (not in the sum)",
               partial(reference.parse, parsed.body))
        passages = _timed(spent, "passages", partial(note_passages, parsed))
        rows = _timed(spent, "their search forms and digests",
                      partial(passage_rows, info.path, passages))
        text = data.decode("utf-8", "replace")
        meta = _timed(spent, "facts and metadata", partial(meta_of, parsed.note, parsed.body,
                                                           text))
        packed = _timed(spent, "index rows (links resolved)",
                        partial(note_rows, parsed.note, resolver, rows, meta))
        entry = _timed(spent, "cache entry", partial(encode, parsed.note,
                                                     NoteDoc(text, 0, meta), (0, 0), packed))
        _timed(spent, "compressed for the index", partial(stored_blobs, entry))
    return {stage: seconds / len(infos) for stage, seconds in spent.items()}


def _timed(spent: dict[str, float], stage: str, work: Callable[[], Any]) -> Any:
    """``work()``, its CPU time added to ``spent[stage]``."""
    start = time.process_time()
    result = work()
    spent[stage] += time.process_time() - start
    return result


def store_stages(root: Path) -> tuple[dict[str, float], Path]:
    """Seconds of storing every note into an empty index, by part; the index file."""
    from vaultmem.index import fts, store, update
    from vaultmem.index.parsing import parse_all
    from vaultmem.read.walk import list_vault
    from vaultmem.vault import Vault

    vault = Vault(root, use_cache=False)
    listing = list_vault(vault.config)
    resolver = vault.index.resolver
    infos = [info for info in listing.notes if info.role == "source"]
    entries = dict(parse_all(vault.config, infos, None, resolver))
    index = store.Store(root, "bench")
    spent: dict[str, float] = defaultdict(float)
    with _clocked(spent, "FTS rows", fts, "add_rows"), _clocked(spent, "other rows", update,
                                                                  "insert"):
        start = time.perf_counter()
        index.bulk_load()
        paths = sorted(entries)
        for at in range(0, len(paths), 1000):
            index.store_notes({path: entries[path] for path in paths[at:at + 1000]})
        spent["stored, committed"] = time.perf_counter() - start
        start = time.perf_counter()
        index.stored()
        spent["indexes made, degrees counted"] = time.perf_counter() - start
    spent["other rows"] -= spent["FTS rows"]  # insert() calls add_rows
    spent["commits and the rest"] = spent.pop("stored, committed") - spent["other rows"] - \
        spent["FTS rows"]
    index.close()
    return dict(spent), index.path


class _clocked:
    """Within it, time spent in ``module.name`` is added to ``spent[stage]``."""

    def __init__(self, spent: dict[str, float], stage: str, module: Any, name: str) -> None:
        self.spent, self.stage, self.module, self.name = spent, stage, module, name
        self.original = getattr(module, name)

    def __enter__(self) -> None:
        def clocked(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return self.original(*args, **kwargs)
            finally:
                self.spent[self.stage] += time.perf_counter() - start

        setattr(self.module, self.name, clocked)

    def __exit__(self, *_: object) -> None:
        setattr(self.module, self.name, self.original)


def table_sizes(index_file: Path) -> Iterator[tuple[str, float]]:
    """(table or index, MB on disk), largest first."""
    with sqlite3.connect(index_file) as db:
        for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name "
                                     "ORDER BY 2 DESC"):
            yield name, size / 1e6


def main() -> int:
    from bench_index import ensure_vault

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=2_000)
    args = parser.parse_args()
    root, _ = ensure_vault(args.notes)
    markdown = sum(p.stat().st_size for p in root.rglob("*.md")) / 1e6
    cores = min(len(os.sched_getaffinity(0)), 8)
    base = floor(root)
    print(f"vault: {args.notes} notes, {markdown:.1f} MB of Markdown; floor {base:.3f} s; "
          f"parse on {cores} cores\n")
    print("| parse stage | CPU ms per note | x floor (whole vault, over the cores) |\n"
          "| --- | ---: | ---: |")
    for stage, seconds in parse_stages(root, args.sample).items():
        print(f"| {stage} | {seconds * 1000:.3f} | {seconds * args.notes / cores / base:.1f} |")
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="vm-first-")
    spent, index_file = store_stages(root)
    print("\n| storing (one process, beside nothing else) | seconds | x floor |\n"
          "| --- | ---: | ---: |")
    for stage, seconds in spent.items():
        print(f"| {stage} | {seconds:.3f} | {seconds / base:.1f} |")
    size = index_file.stat().st_size / 1e6
    print(f"\nindex: {size:.1f} MB = {size / markdown:.1f}x the Markdown\n\n"
          "| table or index | MB |\n| --- | ---: |")
    for name, megabytes in table_sizes(index_file):
        if megabytes >= 0.5:
            print(f"| {name} | {megabytes:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
