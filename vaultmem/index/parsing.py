"""Parse notes into index entries: one by one, or over every core when a scan has many."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

from ..config import Config
from ..errors import missing_dependency
from ..model import Note, Problem
from ..read.record import Entry, NoteDoc, encode
from ..read.resolve import Resolver
from ..read.walk import MAX_BYTES, FileInfo
from ..regular_files import note_text, read_regular
from .doc import Meta, meta_of
from .fts import passage_rows
from .rows import note_rows

PARALLEL_MIN = 200
CHUNK = 100
PR_SET_PDEATHSIG = 1  # prctl option: a signal for this process when its parent dies
Progress = Callable[[int, int], None]  # (files just parsed, files to parse)


def parse_all(config: Config, todo: list[FileInfo], progress: Progress | None,
              resolver: Resolver) -> Iterator[tuple[str, Entry]]:
    """Parse files, with their index rows resolved by ``resolver``, over every core when
    there are many."""
    chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
    workers = min(len(os.sched_getaffinity(0)), len(chunks))
    if len(todo) < PARALLEL_MIN or workers < 2:
        results: Iterator[list[tuple[str, Entry]]] = (
            parse_files(config, chunk, resolver) for chunk in chunks)
        yield from _report(results, progress, len(todo))
        return
    import multiprocessing  # only a scan that parses many files pays for these imports
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(start_method())
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(resolver, os.getpid())) as pool:
        results = pool.map(parse_files, [config] * len(chunks), chunks)
        yield from _report(results, progress, len(todo))


def start_method() -> str:
    """How parse workers start: forked (cheap) from a process with one thread, spawned afresh
    from one with more (``watch``, ``mcp``): a fork copies the locks other threads hold at that
    moment (the import lock, logging's, the allocator's), and a worker that needs one waits
    forever."""
    return "fork" if threading.active_count() == 1 else "spawn"


_WORKER_RESOLVER: list[Resolver] = []  # a parse worker's resolver, sent once, not per chunk


def _start_worker(resolver: Resolver, parent: int) -> None:
    """Set up a parse worker: it dies with the scan that started it (a scan killed outright
    leaves no worker behind, blocked forever on a pipe nobody reads), and keeps the resolver it
    resolves links with."""
    import ctypes.util  # only parse workers need it (it loads subprocess, tempfile, ...)

    libc = ctypes.util.find_library("c")
    if libc is not None and sys.platform.startswith("linux"):
        ctypes.CDLL(libc).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the scan died before the line above took effect
        os._exit(1)
    _WORKER_RESOLVER[:] = [resolver]


def _report(results: Iterator[list[tuple[str, Entry]]], progress: Progress | None,
            total: int) -> Iterator[tuple[str, Entry]]:
    """Pass entries through, telling ``progress`` how many files were done."""
    for done in results:
        yield from done
        if progress:
            progress(len(done), total)


def parse_files(config: Config, infos: list[FileInfo],
                resolver: Resolver | None = None) -> list[tuple[str, Entry]]:
    """Read and parse files into cache entries (with their index rows when there is a
    ``resolver``, given or this worker's); a file that cannot be read or parsed becomes a note
    with a problem (its mtime 0, so the next scan tries it again)."""
    resolver = resolver or next(iter(_WORKER_RESOLVER), None)
    return [(info.path, _parse_file(config, info, resolver)) for info in infos]


def _parse_file(config: Config, info: FileInfo, resolver: Resolver | None) -> Entry:
    """One file's cache entry."""
    try:  # a note replaced by a named pipe since it was listed must not block the scan
        data = read_regular(os.path.join(config.root, info.path), MAX_BYTES + 1)
    except OSError as exc:
        return _failed_entry(info, "unreadable", f"cannot read: {exc}", resolver)
    try:
        return _entry(config, info, data, resolver)
    except ImportError as exc:  # the install is broken, not this note: say so once
        raise missing_dependency(exc) from exc
    except Exception as exc:  # a bug in parsing or indexing must cost one note, never the scan
        return _failed_entry(info, "parse-error", f"could not be parsed ({exc.__class__.__name__}:"
                             f" {str(exc)[:80]}); please report it", resolver)


def _entry(config: Config, info: FileInfo, data: bytes, resolver: Resolver | None) -> Entry:
    """The entry of a note read as ``data``: the parsed note, its search document and (with a
    resolver) its index rows."""
    from ..read.note_passages import note_passages, without_secrets  # markdown-it: only here
    from ..read.parse import parse_with_body

    parsed = parse_with_body(info.path, data, config, info.size)
    note, body = parsed.note, parsed.body
    note.mtime_ns, note.size = info.mtime_ns, info.size
    unreadable = any(p.kind in ("binary", "too-large") for p in note.problems)
    text = "" if unreadable else note_text(data)
    meta = meta_of(note, body, text)
    doc = NoteDoc(text, 0, meta)
    rows = b""
    if resolver is not None:
        secrets = config.secret_patterns
        passages = [] if note.generated else without_secrets(note_passages(parsed), secrets)
        rows = note_rows(note, resolver, passage_rows(info.path, passages), meta, secrets)
    return encode(note, doc, (info.change_ns, info.inode), rows)


def _failed_entry(info: FileInfo, kind: str, message: str, resolver: Resolver | None) -> Entry:
    """The entry of a note that could not be read or parsed."""
    note = Note(id=info.path[:-3], path=info.path, title=info.path[:-3].rsplit("/")[-1])
    note.problems.append(Problem(info.path, kind, message, None))
    meta = Meta(note.type, "", "", [], [], [], []).stored()  # what failed may be meta_of itself
    rows = note_rows(note, resolver, [], meta) if resolver is not None else b""
    return encode(note, NoteDoc("", 0, meta), rows=rows)
