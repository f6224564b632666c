"""Load test: parallel writers and an Obsidian-like editor on one vault; nothing may get lost.

    python benchmarks/bench_load.py [--workers 8] [--writes 200] [--gap-ms 20] [--runs 3]
                                    [--mode fixed|no-lease|legacy|all]

Each worker process makes ``--writes`` writes into a fresh copy of sample_vault, mixed like an
agent's day: daily-log appends to the same day's note (50%), facts on three shared people (30%),
NOW board items added (12%) and done (8%; done also appends to the daily note). Workers call the
library (``append_daily``, ``record_fact``, ``now_update``) in-process rather than the CLI:
starting Python and importing vaultmem takes longer than a write, so process start-up would
dominate and hide the contention being measured. Every write carries a unique marker. A write
is acknowledged when the call returned without error, refused when it raised WriteConflict or
LockTimeout (allowed: the caller was told; its marker must then be absent).

A further process saves the same notes the way Obsidian does: it re-reads the note (Obsidian
reloads a note changed on disk before saving), adds a line ``obsidian edit N`` and writes the
whole file in place (open with truncate, write, close, like Node's fs.writeFile; no rename),
then waits ``--gap-ms``. The default 20 ms (about 45 saves a second, each note saved ~9 times a
second) is far above a person's pace yet keeps the notes small enough to write: at 3 ms the
editor adds ~250 lines a second, the notes grow by megabytes and most writes end refused after
five tries. The line is plain text, not a list item: thousands of list items make every parse
slow. The editor takes no lock, so its read-to-write gap is real: if vaultmem replaces the note
inside that gap, the save overwrites vaultmem's entry (the editor's own lost update). The editor
notices such a stale save afterwards (the file it wrote is not the file it read); a lost
acknowledged write is blamed on the editor only when such a save overlapped it.

Afterwards every acknowledged marker must be present exactly once, every refused one absent,
every editor line present once, and the vault must scan without problems (no ``lint`` file
findings). ``--mode`` picks the write path: ``fixed`` (leases and the post-rename check),
``no-lease`` (the post-rename check by content only, as where leases are unavailable) and
``legacy`` (the compare-and-swap before this hardening); ``all`` runs each. The last columns
count, over the workers, which windows the editor's saves hit: a save going on when vaultmem
wanted to read (held back until done), a save between vaultmem's read and its last check (the
write is retried), and a save beginning around the rename (the old file is put back, the write
retried). Prints a Markdown table, one row per run, and exits 1 if anything was lost (stale
editor saves included), duplicated or unparsable. Vault copies stay under
``benchmarks/out/load-*``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import os
import random
import re
import shutil
import stat
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path

from vaultmem.check.linting import file_problems
from vaultmem.vault import Vault
from vaultmem.write import apply as apply_module
from vaultmem.write import files, locks, paths
from vaultmem.write.facts import record_fact
from vaultmem.write.journal import append_daily, now_update

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "sample_vault"
OUT = HERE / "out"
WHEN = dt.datetime(2026, 11, 30, 10, 0)
DAILY = "Daily/2026-11-30.md"
NOW = "NOW.md"
PEOPLE = ("Marco Diaz", "Lucy Tan", "Henrik Olsen")
ATTRIBUTES = ("focus", "mood", "load")
EDITED = (DAILY, NOW, *(f"People/{name}.md" for name in PEOPLE))
MODES = ("fixed", "no-lease", "legacy")
WINDOWS = ("read held back", "changed before rename", "save in rename window")


@dataclass
class Write:
    """One write of a worker: what, where, when, and how it ended."""

    worker: int
    index: int
    kind: str  # daily | fact | add | done
    rel: str
    entity: str = ""
    attribute: str = ""
    item: str = ""  # done: the marker of the item it finishes
    start: float = 0.0
    end: float = 0.0
    outcome: str = ""  # ack | refused | half (done: NOW written, daily refused) | error: ...

    @property
    def marker(self) -> str:
        """The unique text this write puts into the vault."""
        return f"w{self.worker}x{self.index:03d}"


@dataclass
class Edit:
    """One save of the Obsidian-like editor."""

    number: int
    rel: str
    read: float
    wrote: float
    stale: bool  # the file it wrote is not the one it read: vaultmem replaced it in between


@dataclass
class Report:
    """What one run did and what the check found."""

    mode: str
    writes: int
    acked: int
    refused: int
    errors: list[str]
    wall: float
    latencies: list[float]
    edits: int
    stale: int
    lost_by_editor: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    refused_present: list[str] = field(default_factory=list)
    lost_edits: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    windows: Counter[str] = field(default_factory=Counter)

    def failed(self, *, editor_losses: bool = True) -> bool:
        """True if anything was lost, duplicated or unparsable."""
        return bool(self.errors or self.lost or self.duplicated or self.refused_present or
                    self.lost_edits or self.problems or (editor_losses and self.lost_by_editor))


def plan(worker: int, writes: int, seed: int) -> list[Write]:
    """The worker's writes (which item a done finishes is chosen while running)."""
    rng = random.Random(seed * 1000 + worker)
    kinds = rng.choices(("daily", "fact", "add", "done"), weights=(50, 30, 12, 8), k=writes)
    todo = []
    for index, kind in enumerate(kinds):
        entity, attribute = rng.choice(PEOPLE), rng.choice(ATTRIBUTES)
        rel = {"daily": DAILY, "fact": f"People/{entity}.md"}.get(kind, NOW)
        todo.append(Write(worker, index, kind, rel, entity, attribute))
    return todo


def perform(vault: Vault, write: Write) -> None:
    """Make the write through the library."""
    if write.kind == "daily":
        append_daily(vault, f"entry {write.marker}", when=WHEN)
    elif write.kind == "fact":
        record_fact(vault, write.entity, write.attribute, write.marker, when=WHEN)
    elif write.kind == "add":
        now_update(vault, "add", f"item {write.marker}", when=WHEN)
    else:
        now_update(vault, "done", f"item {write.item}", when=WHEN)


def attempt(vault: Vault, write: Write, open_items: list[str]) -> None:
    """Make one write, timing it and recording how it ended."""
    if write.kind == "done" and not open_items:
        write.kind = "add"
    if write.kind == "done":
        write.item = open_items.pop(0)
    write.start = time.monotonic()
    try:
        perform(vault, write)
        write.outcome = "ack"
    except (files.WriteConflict, locks.LockTimeout) as exc:
        write.outcome = "half" if write.kind == "done" and _in_daily(exc) else "refused"
    except Exception as exc:  # reported as an error of the run
        where = traceback.extract_tb(exc.__traceback__)[-1]
        write.outcome = f"error: {type(exc).__name__}: {exc} ({where.filename}:{where.lineno})"
    write.end = time.monotonic()
    if write.kind == "add" and write.outcome == "ack":
        open_items.append(write.marker)


def _in_daily(exc: BaseException) -> bool:
    """True when a NOW done was refused in its second part, the daily entry."""
    return any(frame.f_code.co_name == "append_daily"
               for frame, _ in traceback.walk_tb(exc.__traceback__))


def legacy_update(root: Path, rel: str, change: Callable[[str | None], str | None]
                  ) -> files.Change:
    """files.update as it was before the hardening: re-read the path, then rename."""
    path = paths.inside(root, rel)
    with files.file_lock(root, rel):
        for _ in range(files.RETRIES):
            before = files.read_bytes(path)
            text = files._decode(rel, before)
            after = change(text)
            if after is None or after == text:
                return files.Change(path, text, text)
            if files.read_bytes(path) != before:
                continue
            try:
                _legacy_store(path, before, after.encode("utf-8"))
            except FileExistsError:
                continue
            return files.Change(path, text, after)
    raise files.WriteConflict(f"{rel} kept changing")


def _legacy_store(path: Path, before: bytes | None, data: bytes) -> None:
    """The old _store: create, or atomic_write keeping the permission bits."""
    if before is None:
        files.create_new(path, data)
    else:
        files.atomic_write(path, data, stat.S_IMODE(path.stat().st_mode))


def use_mode(mode: str) -> None:
    """Switch this process's write path to ``mode``."""
    if mode == "no-lease":
        files.lease = lambda fd, wait=0.0: False
    elif mode == "legacy":
        apply_module.update = legacy_update  # type: ignore[attr-defined]


def work(root: str, worker: int, writes: int, seed: int, mode: str, barrier: Barrier,
         out: str) -> None:
    """A worker process: its writes, one after the other, recorded into ``out``."""
    use_mode(mode)
    seen = Counter[str]() if mode == "legacy" else watch_windows(leases=mode == "fixed")
    vault = Vault(root)
    assert vault.index  # the first scan is not part of the run
    todo, open_items = plan(worker, writes, seed), list[str]()
    barrier.wait()
    for write in todo:
        attempt(vault, write, open_items)
    Path(out).write_text(json.dumps({"writes": [asdict(w) for w in todo], "windows": seen}),
                         encoding="utf-8")


def watch_windows(*, leases: bool) -> Counter[str]:
    """Count in this process which windows of the write path another program's save hit."""
    seen, lease = Counter[str](), files.lease
    settled, untouched = files._Original._settled, files._Original._untouched

    def counted_lease(fd: int, wait: float = 0.0) -> bool:
        if lease(fd):  # taken once: a second try while a save breaks it would hold that save
            return True
        seen[WINDOWS[0]] += bool(wait)  # a save was going on at the read
        return bool(wait) and lease(fd, wait)

    def counted(check: Callable[[files._Original], bool], window: str
                ) -> Callable[[files._Original], bool]:
        def run(original: files._Original) -> bool:
            ok = check(original)
            seen[window] += not ok
            return ok
        return run

    if leases:
        files.lease = counted_lease
    files._Original._settled = counted(settled, WINDOWS[1])  # type: ignore[assignment]
    files._Original._untouched = counted(untouched, WINDOWS[2])  # type: ignore[assignment]
    return seen


def save_in_place(root: Path, rel: str, number: int) -> Edit | None:
    """Re-read the note, add a line and write the whole file in place (Node's fs.writeFile)."""
    read = time.monotonic()
    try:
        with open(root / rel, "rb") as handle:
            seen, text = os.fstat(handle.fileno()).st_ino, handle.read().decode("utf-8")
    except FileNotFoundError:
        return None
    text += ("" if text.endswith("\n") else "\n") + f"obsidian edit {number}\n"
    data = memoryview(text.encode("utf-8"))
    fd = os.open(root / rel, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        written = os.fstat(fd).st_ino
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)
    return Edit(number, rel, read, time.monotonic(), seen != written)


def edit(root: str, gap: float, seed: int, barrier: Barrier, stop: Event, out: str) -> None:
    """The editor process: save a random shared note every ``gap`` s until ``stop``."""
    rng, edits = random.Random(seed), list[Edit]()
    barrier.wait()
    while not stop.is_set():
        done = save_in_place(Path(root), rng.choice(EDITED), len(edits))
        if done is not None:
            edits.append(done)
        time.sleep(gap)  # not stop.wait(gap): its deadline is on the wall clock, which may jump
    Path(out).write_text(json.dumps([asdict(e) for e in edits]), encoding="utf-8")


def run(root: Path, *, workers: int, writes: int, gap: float, mode: str, seed: int) -> Report:
    """One run on a fresh copy of sample_vault at ``root``; checked."""
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(SAMPLE, root)
    logs = root.parent / f"{root.name}-logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir()
    wall = _run_processes(root, logs, workers, writes, gap, mode, seed)
    logged = [json.loads((logs / f"worker-{n}.json").read_text(encoding="utf-8"))
              for n in range(workers)]
    done = [Write(**w) for each in logged for w in each["writes"]]
    edits = [Edit(**e) for e in json.loads((logs / "editor.json").read_text(encoding="utf-8"))]
    report = check(root, mode, done, edits, wall)
    report.windows = sum((Counter(each["windows"]) for each in logged), Counter())
    return report


def _run_processes(root: Path, logs: Path, workers: int, writes: int, gap: float, mode: str,
                   seed: int) -> float:
    """Start the workers and the editor together; the wall time until the workers are done."""
    context = multiprocessing.get_context("fork")
    barrier, stop = context.Barrier(workers + 2, timeout=120), context.Event()
    procs = [context.Process(target=work, args=(str(root), n, writes, seed, mode, barrier,
                                                 str(logs / f"worker-{n}.json")))
             for n in range(workers)]
    editor = context.Process(target=edit, args=(str(root), gap, seed, barrier, stop,
                                                str(logs / "editor.json")))
    for proc in [*procs, editor]:
        proc.start()
    barrier.wait()
    start = time.monotonic()
    for proc in procs:
        proc.join()
    wall = time.monotonic() - start
    stop.set()
    editor.join()
    codes = [proc.exitcode for proc in [*procs, editor]]
    if any(codes):
        raise RuntimeError(f"a worker or the editor failed (exit codes {codes})")
    return wall


def expectations(writes: list[Write]) -> list[tuple[Write, str, str, int]]:
    """(write, note, pattern, how often it must be found) for every write."""
    finished = {w.item: w for w in writes if w.kind == "done" and w.outcome in ("ack", "half")}
    found: list[tuple[Write, str, str, int]] = []
    for w in writes:
        ack = w.outcome == "ack"
        if w.kind == "daily":
            found.append((w, DAILY, rf"^### \d\d:\d\d — entry {w.marker}$", int(ack)))
        elif w.kind == "fact":
            found.append((w, w.rel, rf" = {w.marker}\b", int(ack)))
        elif w.kind == "add" and w.marker not in finished:
            found.append((w, NOW, rf"^- item {w.marker}$", int(ack)))
        elif w.kind == "done":
            written = w.outcome in ("ack", "half")
            found += [(w, NOW, rf"^- \[x\] item {w.item}$", int(written)),
                      (w, DAILY, rf"— Done: item {w.item}$", int(ack))]
            if written:
                found.append((w, NOW, rf"^- item {w.item}$", 0))
    return found


def check(root: Path, mode: str, writes: list[Write], edits: list[Edit], wall: float) -> Report:
    """Compare the vault with what the workers and the editor were told."""
    texts = {rel: (root / rel).read_text(encoding="utf-8") if (root / rel).exists() else ""
             for rel in EDITED}
    acked = [w for w in writes if w.outcome == "ack"]
    report = Report(mode, len(writes), len(acked),
                    sum(w.outcome in ("refused", "half") for w in writes),
                    [f"{w.marker}: {w.outcome}" for w in writes if w.outcome.startswith("error")],
                    wall, sorted(w.end - w.start for w in acked), len(edits),
                    sum(e.stale for e in edits))
    for write, rel, pattern, want in expectations(writes):
        have = len(re.findall(pattern, texts[rel], re.MULTILINE))
        if have != want:
            _classify(report, write, rel, have, want, edits)
    seen = Counter((rel, int(n)) for rel, text in texts.items()
                   for n in re.findall(r"^obsidian edit (\d+)$", text, re.MULTILINE))
    report.lost_edits = [f"edit {e.number} in {e.rel}: found {seen[e.rel, e.number]}"
                         for e in edits if seen[e.rel, e.number] != 1]
    report.problems = [f.message for f in file_problems(Vault(root, use_cache=False))]
    return report


def _classify(report: Report, write: Write, rel: str, have: int, want: int,
              edits: list[Edit]) -> None:
    """File a mismatch: refused but there, undone by a stale editor save (an entry gone, or a
    done item back), duplicated, or lost."""
    label = f"{write.marker} ({write.kind}) in {rel}: found {have}, expected {want}"
    stale = any(e.stale and e.rel == rel and e.read < write.end and e.wrote > write.start
                for e in edits)
    acked = write.outcome == "ack" or (write.outcome == "half" and rel == NOW)
    if stale and acked:
        target = report.lost_by_editor
    elif have > want:
        target = report.duplicated if acked else report.refused_present
    else:
        target = report.lost
    target.append(label)


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank), in ms."""
    if not values:
        return 0.0
    return 1000 * values[min(len(values) - 1, max(0, round(share * len(values)) - 1))]


HEADER = ("| mode | writes | acknowledged | refused | errors | wall s | writes/s | p50 ms | p95 ms "
          "| p99 ms | editor saves | stale editor saves | lost ack'd (editor's stale save) "
          "| lost ack'd (other) | duplicated | refused but present | lost external edits "
          "| file problems | reads held back by a save | changed before rename (retried) "
          "| save in rename window (old file put back) |\n|" + " --- |" + " ---: |" * 20)


def row(r: Report) -> str:
    """The report as a table row."""
    cells = [r.mode, r.writes, r.acked, r.refused, len(r.errors), f"{r.wall:.1f}",
             f"{r.acked / r.wall:.1f}", *(f"{percentile(r.latencies, q):.0f}"
                                          for q in (0.5, 0.95, 0.99)),
             r.edits, r.stale, len(r.lost_by_editor), len(r.lost), len(r.duplicated),
             len(r.refused_present), len(r.lost_edits), len(r.problems),
             *(r.windows[w] if r.mode != "legacy" else "-" for w in WINDOWS)]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def details(r: Report) -> list[str]:
    """The findings of a run, one line each (at most 10 of a kind)."""
    lines = []
    for name in ("errors", "lost_by_editor", "lost", "duplicated", "refused_present",
                 "lost_edits", "problems"):
        items: list[str] = getattr(r, name)
        lines += [f"- {r.mode} {name}: {item}" for item in items[:10]]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--gap-ms", type=float, default=20.0, help="editor pause between saves")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mode", choices=[*MODES, "all"], default="fixed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ["XDG_CACHE_HOME"] = str(OUT / "load-cache")
    print(f"{args.workers} workers x {args.writes} writes, editor every {args.gap_ms} ms, "
          f"{os.cpu_count()} cores\n\n{HEADER}")
    reports, notes = [], []
    for mode in MODES if args.mode == "all" else (args.mode,):
        for number in range(args.runs):
            report = run(OUT / f"load-{mode}-{number}", workers=args.workers,
                         writes=args.writes, gap=args.gap_ms / 1000, mode=mode,
                         seed=args.seed + number)
            print(row(report), flush=True)
            reports.append(report)
            notes += details(report)
    print("\n".join(["", *notes]) if notes else "\nnothing lost, duplicated or unparsable")
    return 1 if any(r.failed() for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
