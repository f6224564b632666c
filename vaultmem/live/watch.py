"""Watch the vault and keep context, index and conflict notes fresh as files change."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import clock
from ..errors import MissingExtra, VaultmemError
from ..generate.context_note import sync
from ..vault import Vault
from ..write.apply import WriteResult
from .forked import CommandLine
from .keeper import IndexKeeper

GENERATED = "_vaultmem/"


@dataclass
class Batcher:
    """Coalesces a burst of changes: due once nothing changed for ``quiet`` seconds, or once the
    first change is ``longest`` seconds old (a steady stream still gets rebuilds)."""

    quiet: float
    longest: float
    paths: set[str] = field(default_factory=set)
    first: float = 0.0
    last: float = 0.0

    def add(self, rel: str, now: float) -> None:
        """Note one changed path."""
        if not self.paths:
            self.first = now
        self.paths.add(rel)
        self.last = now

    def due(self, now: float) -> list[str]:
        """The changed paths, sorted, when a rebuild is due (and forget them); else ``[]``."""
        if not self.paths or (now - self.last < self.quiet and now - self.first < self.longest):
            return []
        paths, self.paths = sorted(self.paths), set()
        return paths


def relevant(root: Path, path: str, context_folder: str) -> str | None:
    """The vault path of a changed file worth a rebuild: not in a dot folder, not generated."""
    try:
        rel = Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return None
    own = [GENERATED, context_folder.rstrip("/") + "/"]
    if any(part.startswith(".") for part in rel.split("/")) or (rel + "/").startswith(tuple(own)):
        return None
    return rel


def rebuild(vault: Vault, agents: list[str] | None, *, budget: int, index: bool,
            conflicts: bool) -> list[WriteResult]:
    """Re-read what changed and rewrite the generated notes whose content changed."""
    vault.refresh()
    return [r for r in sync(vault, agents=agents, budget=budget, index=index,
                            conflicts=conflicts) if r.action != "unchanged"]


def log_line(paths: list[str], results: list[WriteResult], when: dt.datetime) -> str:
    """One line per rebuild: when, what changed, what was rewritten."""
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    wrote = ", ".join(f"{r.action} {r.path}" for r in results) or "nothing to rewrite"
    return f"{when:%H:%M:%S} {len(paths)} changed ({shown}): {wrote}"


def _handler(root: Path, context_folder: str, events: queue.Queue[str]) -> Any:
    """A watchdog handler that feeds every event's vault paths (a move has two) into a queue."""
    from watchdog.events import FileSystemEvent, FileSystemEventHandler

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if event.event_type in ("opened", "closed_no_write") or (
                    event.is_directory and event.event_type != "moved"):
                return
            for path in (event.src_path, event.dest_path):
                rel = relevant(root, os.fsdecode(path), context_folder) if path else None
                if rel:
                    events.put(rel)

    return Handler()


def watch(vault: Vault, *, agents: list[str] | None = None, debounce: float = 0.5,
          budget: int = 2000, index: bool = False, conflicts: bool = False, notes: bool = True,
          log: Callable[[str], None] = print, stop: threading.Event | None = None,
          ready: Callable[[], None] | None = None, command_line: CommandLine | None = None) -> None:
    """Keep the index current for every vaultmem command and (with ``notes``) rebuild the
    generated notes after every burst of changes, until ``stop`` is set (or Ctrl-C); ``ready``
    is called once the vault is being watched. With ``command_line`` other
    processes' reading commands are run here, in forks (see :mod:`vaultmem.launch`)."""
    stop = stop or threading.Event()
    observer = _observer() if notes else None  # a missing extra fails before anything starts
    keeper = IndexKeeper(vault, command_line=command_line)
    if not keeper.start():
        log("the index is not kept here (another process keeps it, or the system cannot "
            "report changes): commands check every file themselves")
    try:
        if observer is not None:
            _rebuild_notes(vault, observer, agents, debounce=debounce, budget=budget, index=index,
                           conflicts=conflicts, log=log, stop=stop, ready=ready)
        else:
            if ready is not None:
                ready()
            stop.wait()
    finally:
        keeper.close()


def _observer() -> Any:
    """A watchdog observer (the ``watch`` extra)."""
    try:
        from watchdog.observers import Observer
    except ImportError as exc:
        raise MissingExtra("watch needs watchdog: pip install 'vaultmem[watch]' (or use "
                           "--no-notes to keep only the index current)") from exc
    return Observer()


def _rebuild_notes(vault: Vault, observer: Any, agents: list[str] | None, *, debounce: float,
                   budget: int, index: bool, conflicts: bool, log: Callable[[str], None],
                   stop: threading.Event, ready: Callable[[], None] | None) -> None:
    """Rebuild the generated notes after every burst of changes until ``stop`` is set."""
    events: queue.Queue[str] = queue.Queue()
    observer.daemon = True  # never keeps the process alive once the loop has ended
    observer.schedule(_handler(vault.root.resolve(), vault.config.context_folder, events),
                      str(vault.root), recursive=True)
    observer.start()
    if ready is not None:
        ready()
    try:
        _loop(events, Batcher(debounce, debounce * 10), stop, log,
              lambda: rebuild(vault, agents, budget=budget, index=index, conflicts=conflicts))
    finally:
        observer.stop()
        observer.join(timeout=5)


def _loop(events: queue.Queue[str], batch: Batcher, stop: threading.Event,
          log: Callable[[str], None], run: Callable[[], list[WriteResult]]) -> None:
    """Collect events and rebuild when a batch is due; an error is logged, never fatal."""
    while not stop.is_set():
        with contextlib.suppress(queue.Empty):
            batch.add(events.get(timeout=min(batch.quiet, 0.2)), time.monotonic())
        paths = batch.due(time.monotonic())
        if not paths:
            continue
        try:
            log(log_line(paths, run(), clock.now()))
        except (VaultmemError, OSError) as exc:  # a file vanished or is half-written: next time
            log(f"{clock.now():%H:%M:%S} rebuild failed ({exc}); retrying on the next change")
