"""Scan a vault into an :class:`Index`: list files, reuse stored notes, parse the rest."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import NamedTuple

from ..config import Config
from ..read.record import GENERATED, Entry
from ..read.resolve import Resolver
from ..read.walk import FileInfo, Listing, list_vault
from .freshness import unchanged
from .freshness.kept_index import kept_index
from .freshness.watcher_answer import watcher_vouches
from .notes import Entries, Index, Layout, Notes, ScanStats
from .parsing import Progress, parse_all, parse_files
from .rows import ATTACHMENT
from .store import BULK_LOAD_FROM, Store, files_key

STORE_EVERY = 1000  # parsed notes stored in one transaction while the rest are parsed
# Notes a scan keeps in memory as parsed once stored (more: only their states, the rest read
# from the index when asked), so a first scan's memory does not grow with the vault.
KEPT_READ = 2_000


def scan(config: Config, store: Store, progress: Progress | None = None) -> Index:
    """Read the vault behind ``config``; only files whose state (mtime, size, change time,
    inode) changed are parsed. A scan with changes to store waits for any other one storing
    (a lock in the cache folder) and, if one stored meanwhile, lists the vault again: the index
    always ends with the latest listing, never an older one. While a watcher vouches that the
    index holds every change, the vault is not listed; when the listing is the one the index
    was left holding, no state is compared: both read the index as it is."""
    started = time.perf_counter()
    store.verify()
    kept = _kept(config, store)
    if isinstance(kept, Index):
        kept.stats.seconds = time.perf_counter() - started
        return kept
    plan, stored, generation = _store_changes(config, store, _plan(config, store, *kept),
                                              progress)
    digest = unchanged.listing_digest(plan.listing)
    unchanged.remember(store, generation, digest)
    parsed, removed, files = stored or ({}, [], plan.before)
    entries = {**plan.entries, **parsed}
    stats = ScanStats(len(plan.todo), len(plan.entries), len(removed))
    split = _split(entries, plan.listing)
    stats.seconds = time.perf_counter() - started
    fetch = _fetcher(store, config, {info.path: info for info in plan.sources})
    unread = [note_id for note_id, entry in split.generated.items() if not entry.read]
    if unread:  # few, and read whole by the checks that use them
        split.generated.update(fetch(unread))
    unusual = {path[:-3]: path for path in entries if not path.endswith(".md")}
    notes = Notes(split.sources, lambda: plan.resolver, fetch, store, unusual)
    layout = Layout(dict(sorted(split.other.items())), plan.listing.attachments,
                    plan.listing.problems, plan.resolver, split.generated, files, plan.listing)
    return Index(notes, store, lambda: layout, stats, generation, digest)


def _kept(config: Config, store: Store) -> Index | tuple[int, Listing]:
    """The index as stored when a watcher vouches for it or the vault's listing is the one it
    holds; else the index generation and the listing made after reading it."""
    if watcher_vouches(store) and (kept := kept_index(store, store.generation(),
                                                      vaults=config.vaults)) is not None:
        return kept
    generation = store.generation()
    listing = list_vault(config)
    digest = unchanged.listing_digest(listing)
    if unchanged.holds(store, generation, digest):
        return (kept_index(store, generation, listing, digest, vaults=config.vaults)
                or (generation, listing))
    return generation, listing


def _store_changes(config: Config, store: Store, plan: _Plan, progress: Progress | None
                   ) -> tuple[_Plan, tuple[Entries, list[str], dict[str, str]] | None, int]:
    """Store what the vault holds and the index not: (the plan stored, what ``_store`` did or
    None when nothing was to store, the index generation that holds the plan). Waits for a scan
    of another process storing; if one did meanwhile, the vault is listed again (maybe nothing
    is left to do)."""
    if not _differs(store, plan):
        return plan, None, plan.generation
    with store.exclusive():
        if store.generation() != plan.generation:
            plan = _plan(config, store, store.generation(), list_vault(config))
            if not _differs(store, plan):
                return plan, None, plan.generation
        memory = _memory_files(store)
        stored = _store(config, store, plan, progress)
        parsed, removed, _ = stored
        store.stored(sources=bool(removed) or _memory_files(store) != memory
                     or any(not entry.flags & GENERATED for entry in parsed.values()))
        return plan, stored, store.generation()


def _memory_files(store: Store) -> dict[str, str]:
    """The vault's files as the index records them, vaultmem's own generated notes left out
    (writing a context note changes no result about memory)."""
    return dict(store.query("SELECT id, role FROM files WHERE role != 'generated'"))


def _differs(store: Store, plan: _Plan) -> bool:
    """True when the listing of ``plan`` holds changes the index has not taken in."""
    return bool(plan.todo or plan.old.keys() - plan.entries.keys()
                or store.files_key() != files_key(plan.before))


class _Plan(NamedTuple):
    """What a scan found: the listing, the stored states, the entries it can reuse, the files
    to parse, the resolver of the listing and the vault's files with their roles."""

    listing: Listing
    sources: list[FileInfo]
    old: Entries
    entries: Entries
    todo: list[FileInfo]
    resolver: Resolver
    before: dict[str, str]
    generation: int  # of the index when it was compared


def _plan(config: Config, store: Store, generation: int, listing: Listing) -> _Plan:
    """Compare the vault's ``listing``, made after reading the index ``generation``, with the
    index."""
    sources = [info for info in listing.notes if info.role == "source"]
    old = store.states()
    entries, todo = _reuse(old, sources)
    resolver = Resolver([info.path[:-3] for info in listing.notes], listing.attachments,
                        config.vaults)
    known = {info.path: old.get(info.path, Entry(0, 0, 0, b"", b"", (0, 0))) for info in todo}
    before = _roles(_split({**entries, **known}, listing))
    return _Plan(listing, sources, old, entries, todo, resolver, before, generation)


def _store(config: Config, store: Store, plan: _Plan,
           progress: Progress | None) -> tuple[Entries, list[str], dict[str, str]]:
    """Parse and store what changed: (parsed entries, removed paths, files with roles)."""
    _sync(store, plan.before, plan.resolver)  # links first
    if not plan.old and len(plan.todo) >= BULK_LOAD_FROM:
        store.bulk_load()
    parsed: Entries = {}
    keep_read = len(plan.todo) <= KEPT_READ
    for batch in _batched(parse_all(config, plan.todo, progress, plan.resolver), STORE_EVERY):
        store.store_notes(batch)  # stored while the workers parse on: the two overlap
        parsed.update(batch if keep_read else {path: _state_of(entry)
                                               for path, entry in batch.items()})
    removed = sorted(plan.old.keys() - plan.entries.keys() - parsed.keys())
    if removed:
        store.forget(removed)
    files = _roles(_split({**plan.entries, **parsed}, plan.listing)) if parsed else plan.before
    if files != plan.before:  # a note became generated, or stopped being
        _sync(store, files, plan.resolver)
    return parsed, removed, files


def _state_of(entry: Entry) -> Entry:
    """``entry`` without its record, text and rows: the file state a scan compares."""
    return entry._replace(record=b"", doc=b"", rows=b"")


def _batched(items: Iterator[tuple[str, Entry]], size: int) -> Iterator[Entries]:
    """``items`` in dicts of ``size``."""
    batch: Entries = {}
    for path, entry in items:
        batch[path] = entry
        if len(batch) >= size:
            yield batch
            batch = {}
    if batch:
        yield batch


class Split(NamedTuple):
    """A vault's notes by role: sources and generated ones by id (their entries), the rest
    (templates, excluded notes, sync copies) with their role, and the attachments."""

    sources: dict[str, Entry]
    generated: dict[str, Entry]
    other: dict[str, str]
    attachments: list[str]


def _split(entries: Entries, listing: Listing) -> Split:
    """The listed notes by role, the parsed ones (``entries``, by path) by their flags."""
    other = {info.path[:-3]: info.role for info in listing.notes if info.role != "source"}
    sources, generated = {}, {}
    for path, entry in entries.items():
        if entry.flags & GENERATED:
            other[path[:-3]] = "generated"
            generated[path[:-3]] = entry
        else:
            sources[path[:-3]] = entry
    return Split(sources, generated, other, listing.attachments)


def _roles(split: Split) -> dict[str, str]:
    """Every file of the vault by note id or attachment path, with its role."""
    return (dict.fromkeys(split.attachments, ATTACHMENT) | dict.fromkeys(split.sources, "source")
            | dict(split.other))


def _sync(store: Store, files: dict[str, str], resolver: Resolver) -> None:
    """Record the vault's files in the index unless it holds these already."""
    if store.files_key() != files_key(files):
        store.sync(files=files, resolver=resolver)


def _fetcher(store: Store, config: Config,
             infos: Mapping[str, FileInfo]) -> Callable[[list[str]], Entries]:
    """Reads notes' entries from the index; one another process dropped meanwhile is parsed."""

    path_of = {path[:-3]: path for path in infos}  # a note may end in .MD or .Md

    def fetch(ids: list[str]) -> Entries:
        paths = [path_of[note_id] for note_id in ids]
        found = store.entries(paths)
        changed = [infos[p] for p in paths if p not in found or not seen_as(found[p], infos[p])]
        found.update(parse_files(config, changed))
        return {path[:-3]: entry for path, entry in found.items()}

    return fetch


def _reuse(old: Entries, sources: list[FileInfo]) -> tuple[Entries, list[FileInfo]]:
    """Split the sources into stored entries still valid and files to parse."""
    entries: Entries = {}
    todo: list[FileInfo] = []
    for info in sources:
        hit = old.get(info.path)
        if hit is not None and seen_as(hit, info):
            entries[info.path] = hit
        else:
            todo.append(info)
    return entries, todo


def seen_as(entry: Entry, info: FileInfo) -> bool:
    """True when ``entry`` was parsed from the file in the state ``info`` saw."""
    return entry.seen_as(info.mtime_ns, info.size, (info.change_ns, info.inode))
