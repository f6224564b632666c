"""Scan a vault into an :class:`Index`: list files, reuse cached notes, parse the rest."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..config import Config
from ..model import Note, Problem
from .cache import Cache, Entries
from .parse import parse_note
from .resolve import Resolver
from .walk import FileInfo, list_vault

PARALLEL_MIN = 200
CHUNK = 100
Progress = Callable[[int, int], None]  # (files just parsed, files to parse)


@dataclass
class ScanStats:
    """What one scan did."""

    parsed: int = 0
    reused: int = 0
    removed: int = 0
    seconds: float = 0.0


@dataclass
class Index:
    """Every note of a vault, resolved: ``notes`` are the sources of memory."""

    notes: dict[str, Note] = field(default_factory=dict)
    other: dict[str, str] = field(default_factory=dict)  # id -> template|excluded|generated
    attachments: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    resolver: Resolver = field(default_factory=lambda: Resolver([], []))
    stats: ScanStats = field(default_factory=ScanStats)


def scan(config: Config, cache: Cache | None = None, progress: Progress | None = None) -> Index:
    """Read the vault behind ``config``; only files whose (mtime, size) changed are parsed."""
    started = time.perf_counter()
    listing = list_vault(config)
    index = Index(attachments=listing.attachments, problems=listing.problems)
    sources = [info for info in listing.notes if info.role == "source"]
    index.other = {info.path[:-3]: info.role for info in listing.notes if info.role != "source"}
    old = cache.load() if cache else {}
    entries, todo = _reuse(old, sources)
    index.stats.reused = len(entries)
    for note in _parse_all(config, todo, progress):
        entries[note.path] = (note.mtime_ns, note.size, note)
    index.stats.parsed = len(todo)
    index.stats.removed = len(old.keys() - entries.keys())
    if cache and (todo or index.stats.removed):
        cache.save(entries)
    _collect(index, entries)
    index.stats.seconds = time.perf_counter() - started
    return index


def _reuse(old: Entries, sources: list[FileInfo]) -> tuple[Entries, list[FileInfo]]:
    """Split the sources into cached entries still valid and files to parse."""
    entries: Entries = {}
    todo: list[FileInfo] = []
    for info in sources:
        hit = old.get(info.path)
        if hit is not None and hit[:2] == (info.mtime_ns, info.size) and not _failed(hit[2]):
            entries[info.path] = hit
        else:
            todo.append(info)
    return entries, todo


def _failed(note: Note) -> bool:
    """A note that could not be read is read again next time, whatever its mtime."""
    return any(problem.kind == "unreadable" for problem in note.problems)


def _collect(index: Index, entries: Entries) -> None:
    """Fill the index from the entries and resolve every link."""
    for _, _, note in entries.values():
        if note.generated:
            index.other[note.id] = "generated"
        else:
            index.notes[note.id] = note
    index.notes = dict(sorted(index.notes.items()))
    ids = [note.id for _, _, note in entries.values()] + list(index.other)
    index.resolver = Resolver(ids, index.attachments)
    for note in index.notes.values():
        index.problems.extend(note.problems)
        for link in note.links:
            index.resolver.resolve_link(link, note.id)


def _parse_all(config: Config, todo: list[FileInfo], progress: Progress | None) -> Iterator[Note]:
    """Parse files, over every core when there are many."""
    chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
    workers = min(len(os.sched_getaffinity(0)), len(chunks))
    if len(todo) < PARALLEL_MIN or workers < 2:
        results: Iterator[list[Note]] = (parse_files(config, chunk) for chunk in chunks)
        yield from _report(results, progress, len(todo))
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        results = pool.map(parse_files, [config] * len(chunks), chunks)
        yield from _report(results, progress, len(todo))


def _report(results: Iterator[list[Note]], progress: Progress | None,
            total: int) -> Iterator[Note]:
    """Pass notes through, telling ``progress`` how many files were done."""
    for notes in results:
        yield from notes
        if progress:
            progress(len(notes), total)


def parse_files(config: Config, infos: list[FileInfo]) -> list[Note]:
    """Read and parse files; a file that vanished or cannot be read becomes a problem note."""
    notes = []
    for info in infos:
        try:
            with open(os.path.join(config.root, info.path), "rb") as handle:
                data = handle.read()
        except OSError as exc:
            note = Note(id=info.path[:-3], path=info.path, title=info.path[:-3].rsplit("/")[-1])
            note.problems.append(Problem(info.path, "unreadable", f"cannot read: {exc}", None))
            notes.append(note)
            continue
        note = parse_note(info.path, data, config)
        note.mtime_ns, note.size = info.mtime_ns, info.size
        notes.append(note)
    return notes
