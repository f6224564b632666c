"""Crash safety: kill -9 a writer at random moments; every note must be whole, old or new.

    python benchmarks/crash_trials.py [--trials 120] [--seed 1]

Each trial forks a writer that makes a fixed sequence of writes into a fresh copy of
sample_vault (new daily note, daily appends, facts with History, NOW add and done, a new person,
a decision; fixed date and time, so the result is always the same) and kills it with SIGKILL
after a random delay, drawn over the time the whole sequence takes. The states the vault may be
in are computed once, by replaying the sequence in a reference copy and taking the vault after
each file write (0, 1, ..., n). The writer reports on a pipe when it starts and ends each file
write, so a kill inside a write must leave the state before it (old) or after it (new), and a
kill between writes the state after the last one. Each trial also checks: no partial note (one
that equals no version of it), no visible temp file (any visible file no state has), how many
hidden temp files (``.name.XXXXXXXX.tmp``) were left, that the vault scans without problems and
that a new write then succeeds at once (no stale lock). Finally one later write of each note
with leftovers, with STALE_TEMP set to 0, must remove them. Prints a Markdown table; exits 1 if
any check failed. Vault copies live in a temporary folder, removed afterwards.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vaultmem.vault import Vault
from vaultmem.write import apply as apply_module
from vaultmem.write import files
from vaultmem.write.entries import decide, new_note
from vaultmem.write.facts import record_fact
from vaultmem.write.journal import append_daily, now_update

SAMPLE = Path(__file__).resolve().parent.parent / "sample_vault"
WHEN = dt.datetime(2026, 12, 1, 9, 30)
TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")
Snapshot = dict[str, bytes]


def sequence(vault: Vault) -> list[Callable[[], object]]:
    """The writes of every trial, in order (the NOW done writes two files)."""
    long = "A longer entry, so that writing it takes a little while. " * 60
    return [
        lambda: append_daily(vault, "Crash trial: the first entry of the day.", when=WHEN),
        lambda: record_fact(vault, "Marco Diaz", "focus", "crash recovery", when=WHEN),
        lambda: now_update(vault, "add", "Check crash safety", when=WHEN),
        lambda: new_note(vault, "person", "Zed Crash", fields={"role": "tester"}, when=WHEN),
        lambda: append_daily(vault, long, title="A long entry", when=WHEN),
        lambda: record_fact(vault, "Marco Diaz", "focus", "lease windows", when=WHEN),
        lambda: decide(vault, "Keep file leases", topic="crash safety", when=WHEN,
                       rationale="Obsidian saves in place"),
        lambda: now_update(vault, "done", "Check crash safety", when=WHEN),
        lambda: record_fact(vault, "Lucy Tan", "timezone", "UTC+1", when=WHEN),
        lambda: append_daily(vault, "The last entry.", when=WHEN),
    ]


def snapshot(root: Path) -> Snapshot:
    """Every visible file of the vault (no part of its path starts with a dot), by path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in
                                       p.relative_to(root).parts)}


def fresh(root: Path) -> Path:
    """A new copy of sample_vault at ``root``."""
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(SAMPLE, root)
    return root


def reference(root: Path) -> tuple[list[Snapshot], list[str]]:
    """The vault after 0, 1, ..., n file writes of the sequence, and the notes written."""
    states, written = [snapshot(fresh(root))], []
    real = files.update

    def recorded(root: Path, rel: str, change: Callable[[str | None], str | None]
                 ) -> files.Change:
        done = real(root, rel, change)
        states.append(snapshot(root))
        written.append(rel)
        return done

    apply_module.update = recorded  # type: ignore[attr-defined]
    try:
        for step in sequence(Vault(root)):
            step()
    finally:
        apply_module.update = real  # type: ignore[attr-defined]
    return states, written


def writer(root: Path, pipe: int) -> None:
    """The child: announce each file write on ``pipe`` around making it (``s`` and ``d``)."""
    real = files.update

    def announced(root: Path, rel: str, change: Callable[[str | None], str | None]
                  ) -> files.Change:
        os.write(pipe, b"s")
        done = real(root, rel, change)
        os.write(pipe, b"d")
        return done

    apply_module.update = announced  # type: ignore[attr-defined]
    steps = sequence(vault := Vault(root))
    assert vault.index  # scanned before the clock starts
    os.write(pipe, b"r")
    for step in steps:
        step()


def fork_writer(root: Path) -> tuple[int, int]:
    """Start the writer in a forked child; its pid and the read end of its pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into the caller
        code = 1
        try:
            os.close(read)
            writer(root, write)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def run_writer(root: Path, delay: float | None) -> tuple[str, float]:
    """Run the writer, killing it ``delay`` s after it is ready (None: let it finish).

    Returns what it announced and how long it ran after being ready.
    """
    pid, pipe = fork_writer(root)
    with os.fdopen(pipe, "rb", buffering=0) as reader:
        ready = reader.read(1)
        start = time.monotonic()
        if delay is not None:
            time.sleep(delay)
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        ran = time.monotonic() - start
        said = (ready + reader.read()).decode()
    return said, ran


@dataclass
class Tally:
    """Counts over all trials."""

    trials: int = 0
    mid_write: int = 0
    old: int = 0
    new: int = 0
    between: int = 0
    partial: int = 0
    visible_temp: int = 0
    hidden_temp: int = 0
    wrong_state: int = 0
    scan_problems: int = 0
    failed_writes: int = 0
    swept: list[int] = field(default_factory=lambda: [0, 0])  # leftovers before, after
    failures: list[str] = field(default_factory=list)


def classify(tally: Tally, said: str, state: Snapshot, states: list[Snapshot]) -> None:
    """Count the trial: killed inside a write (old or new state) or between writes."""
    started, done = said.count("s"), said.count("d")
    allowed = [started - 1, started] if started > done else [done]
    found = next((k for k in allowed if states[k] == state), None)
    if started > done:
        tally.mid_write += 1
        tally.old += found == started - 1
        tally.new += found == started
    else:
        tally.between += 1
    if found is None:
        tally.wrong_state += 1
        tally.failures.append(f"trial {tally.trials}: after {started} started and {done} "
                              "finished writes the vault is in none of the allowed states")


def inspect(tally: Tally, root: Path, state: Snapshot, states: list[Snapshot]) -> None:
    """Partial notes, visible and hidden temp files, scan problems."""
    versions: dict[str, set[bytes]] = {}
    for each in states:
        for rel, data in each.items():
            versions.setdefault(rel, set()).add(data)
    partial = [rel for rel, data in state.items() if rel in versions and data not in versions[rel]]
    visible = [rel for rel in state if rel not in versions]
    tally.partial += len(partial)
    tally.visible_temp += len(visible)
    tally.hidden_temp += len(hidden_temp_files(root))
    problems = Vault(root, use_cache=False).index.problems
    tally.scan_problems += bool(problems)
    tally.failures += [f"trial {tally.trials}: {what} {rel}" for what, names in
                       (("partial note", partial), ("visible file", visible)) for rel in names]
    tally.failures += [f"trial {tally.trials}: {p.path}: {p.message}" for p in problems]


def hidden_temp_files(root: Path) -> list[Path]:
    """Temp files and links of vaultmem's pattern anywhere in the vault."""
    return [p for p in root.rglob(".*.tmp") if TEMP.fullmatch(p.name)]


def write_after(tally: Tally, root: Path, written: list[str]) -> None:
    """Every note's lock is free at once and a new write succeeds."""
    try:
        for rel in sorted(set(written)):
            with files.file_lock(root, rel, timeout=2):
                pass
        append_daily(Vault(root), "Written after the crash.", when=WHEN)
    except Exception as exc:
        tally.failed_writes += 1
        tally.failures.append(f"trial {tally.trials}: write after the crash: {exc}")


def sweep_check(tally: Tally, root: Path) -> None:
    """A later write of each note with leftovers removes them (STALE_TEMP 0 stands for time)."""
    left = hidden_temp_files(root)
    if not left:
        return
    old, files.STALE_TEMP = files.STALE_TEMP, 0.0
    try:
        for path in left:
            note = path.relative_to(root).parent / path.name[1:].rsplit(".", 2)[0]
            files.update(root, note.as_posix(), lambda text: text)
    finally:
        files.STALE_TEMP = old
    tally.swept[0] += len(left)
    tally.swept[1] += len(hidden_temp_files(root))


def trial(tally: Tally, root: Path, delay: float, states: list[Snapshot],
          written: list[str]) -> None:
    """One kill and every check."""
    said, _ = run_writer(fresh(root), delay)
    tally.trials += 1
    state = snapshot(root)
    classify(tally, said, state, states)
    inspect(tally, root, state, states)
    write_after(tally, root, written)
    sweep_check(tally, root)


def run_trials(trials: int, seed: int, work: Path) -> Tally:
    """``trials`` kills at random moments within the sequence's running time."""
    states, written = reference(work / "reference")
    durations = []
    for _ in range(3):  # the shortest of three: a busy machine must not push kills past the end
        said, ran = run_writer(fresh(work / "calibration"), None)
        if said != "r" + "sd" * len(written) or snapshot(work / "calibration") != states[-1]:
            raise RuntimeError("the writer does not reproduce the reference sequence")
        durations.append(ran)
    duration, rng, tally = min(durations), random.Random(seed), Tally()
    for _ in range(trials):
        trial(tally, work / "trial", rng.uniform(0, duration * 1.1), states, written)
    return tally


def table(tally: Tally) -> str:
    """The tally as a Markdown table."""
    head = ["trials", "killed mid-write", "old version", "new version", "killed between writes",
            "partial (must be 0)", "visible temp files (must be 0)", "hidden temp leftovers",
            "wrong state", "scan problems", "failed write after", "leftovers after a later write"]
    cells = [tally.trials, tally.mid_write, tally.old, tally.new, tally.between, tally.partial,
             tally.visible_temp, tally.hidden_temp, tally.wrong_state, tally.scan_problems,
             tally.failed_writes, f"{tally.swept[1]} of {tally.swept[0]}"]
    return "\n".join(["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head),
                      "| " + " | ".join(str(c) for c in cells) + " |"])


def failed(tally: Tally) -> bool:
    """True if any check failed."""
    return bool(tally.partial or tally.visible_temp or tally.wrong_state or tally.scan_problems
                or tally.failed_writes or tally.swept[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="vm-crash-"))
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    try:
        tally = run_trials(args.trials, args.seed, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(table(tally))
    print("\n".join(["", *tally.failures[:20]]) if tally.failures else "\nevery check passed")
    return 1 if failed(tally) else 0


if __name__ == "__main__":
    sys.exit(main())
