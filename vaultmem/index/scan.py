"""Scan a vault into an :class:`Index`: list files, reuse stored notes, parse the rest."""

from __future__ import annotations

import time
from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
from dataclasses import dataclass, field
from typing import NamedTuple

from ..config import Config
from ..model import Note, Problem
from ..read.record import GENERATED, HAS_PROBLEMS, Entry, decode
from ..read.resolve import Resolver
from ..read.walk import FileInfo, Listing, list_vault
from .graph_rows import Reached, reached_links
from .parsing import Progress, parse_all, parse_files
from .rows import ATTACHMENT
from .store import Store, files_key
from .vouch import vouched_listing

Entries = dict[str, Entry]

STORE_EVERY = 1000  # parsed notes stored in one transaction while the rest are parsed


@dataclass
class ScanStats:
    """What one scan did."""

    parsed: int = 0
    reused: int = 0
    removed: int = 0
    seconds: float = 0.0


class Notes(Mapping[str, Note]):
    """Source notes by id, in id order, read from the index and decoded on first access."""

    def __init__(self, entries: Entries, resolver: Resolver,
                 fetch: Callable[[list[str]], Entries] | None = None,
                 store: Store | None = None, paths: Mapping[str, str] | None = None) -> None:
        self.entries = dict(sorted(entries.items()))  # blobs may be b"": not read yet
        self.paths = dict(paths or {})  # id -> vault path where it does not end in ".md"
        self._resolver = resolver
        self._fetch = fetch
        self._store = store
        self._notes: dict[str, Note] = {}
        self._reached: dict[str, list[Reached]] = {}

    def entry(self, note_id: str) -> Entry:
        """The full index entry of a note (its record and search document read if needed)."""
        entry = self.entries[note_id]
        if not entry.read and self._fetch is not None:
            entry = self.entries[note_id] = self._fetch([note_id])[note_id]
        return entry

    def values(self) -> ValuesView[Note]:
        """Every note; the unread ones are read from the index in one pass first."""
        self._read_all()
        return super().values()

    def items(self) -> ItemsView[str, Note]:
        """(id, note) of every note; the unread ones are read in one pass first."""
        self._read_all()
        return super().items()

    def _read_all(self) -> None:
        """Read the entries not read yet (a whole-vault use is coming)."""
        self.read(list(self.entries))

    def read(self, ids: list[str]) -> None:
        """Read the entries of ``ids`` not read yet, and their links' stored resolution, in
        one batch."""
        unread = [note_id for note_id in ids if not self.entries[note_id].read]
        if unread and self._fetch is not None:
            self.entries.update(self._fetch(unread))
        wanted = [note_id for note_id in ids if note_id not in self._notes]
        if wanted and self._store is not None:
            found = reached_links(self._store, wanted)
            self._reached.update({note_id: found.get(note_id, []) for note_id in wanted})

    def __getitem__(self, note_id: str) -> Note:
        note = self._notes.get(note_id)
        if note is None:
            note = self._notes[note_id] = decode(self.entry(note_id))
            self._resolve(note)
        return note

    def _resolve(self, note: Note) -> None:
        """Fill in where the note's links go: as stored when the rows are the note's links (a
        note parsed again since, by another process, is resolved here)."""
        if note.id not in self._reached and self._store is not None:
            self._reached.update(reached_links(self._store, [note.id]))
        stored = self._reached.pop(note.id, [])
        if [row.target for row in stored] == [link.target for link in note.links]:
            for link, row in zip(note.links, stored, strict=True):
                link.resolved, link.ambiguous = row.resolved, row.ambiguous
        else:
            for link in note.links:
                self._resolver.resolve_link(link, note.id)

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, note_id: object) -> bool:
        return note_id in self.entries

    def path_of(self, note_id: str) -> str:
        """The vault path of a note."""
        return self.paths.get(note_id) or f"{note_id}.md"

    def flagged(self, flag: int) -> list[str]:
        """Ids of notes whose entry carries ``flag`` (checked without reading the note)."""
        return [note_id for note_id, entry in self.entries.items() if entry.flags & flag]


@dataclass
class Index:
    """Every note of a vault: ``notes`` are the sources of memory, ``other`` the skipped ones."""

    notes: Notes
    store: Store
    other: dict[str, str] = field(default_factory=dict)  # id -> template|excluded|generated
    attachments: list[str] = field(default_factory=list)
    listing_problems: list[Problem] = field(default_factory=list)
    resolver: Resolver = field(default_factory=lambda: Resolver([], []))
    stats: ScanStats = field(default_factory=ScanStats)
    generated: dict[str, Entry] = field(default_factory=dict)  # vaultmem's own notes, by id
    files: dict[str, str] = field(default_factory=dict)  # every note id / attachment: its role
    listing: Listing = field(default_factory=Listing)  # what the index was compared with
    generation: int = 0  # of the stored index this one was read from

    def states(self) -> Entries:
        """The index entries of the source notes by vault path (blobs possibly not read):
        what says whether anything changed."""
        return {self.notes.path_of(note_id): entry
                for note_id, entry in self.notes.entries.items()}

    def entries(self, paths: list[str] | None = None) -> Entries:
        """The full index entries of the source notes at ``paths`` (all when None)."""
        ids = [p[:-3] for p in paths] if paths is not None else list(self.notes)
        self.notes.read(ids)
        return {self.notes.path_of(note_id): self.notes.entry(note_id) for note_id in ids}

    @property
    def problems(self) -> list[Problem]:
        """Files that could not be listed, read or parsed cleanly."""
        notes = [self.notes[i] for i in self.notes.flagged(HAS_PROBLEMS)]
        return self.listing_problems + [p for note in notes for p in note.problems]


def scan(config: Config, store: Store, progress: Progress | None = None) -> Index:
    """Read the vault behind ``config``; only files whose state (mtime, size, change time,
    inode) changed are parsed. A scan with changes to store waits for any other one storing
    (a lock in the cache folder) and, if one stored meanwhile, lists the vault again: the index
    always ends with the latest listing, never an older one."""
    started = time.perf_counter()
    store.verify()
    vouched = vouched_listing(store)
    plan = _plan(config, store, vouched)
    if vouched is not None and _differs(store, plan):  # not the watcher's index: look anew
        plan = _plan(config, store)
    plan, stored, generation = _store_changes(config, store, plan, progress)
    parsed, removed, files = stored or ({}, [], plan.before)
    entries = {**plan.entries, **parsed}
    stats = ScanStats(len(plan.todo), len(plan.entries), len(removed))
    split = _split(entries, plan.listing)
    sources_by_id, generated, other = split.sources, split.generated, split.other
    stats.seconds = time.perf_counter() - started
    fetch = _fetcher(store, config, {info.path: info for info in plan.sources})
    unread = [note_id for note_id, entry in generated.items() if not entry.read]
    if unread:  # few, and read whole by the checks that use them
        generated.update(fetch(unread))
    unusual = {path[:-3]: path for path in entries if not path.endswith(".md")}
    notes = Notes(sources_by_id, plan.resolver, fetch, store, unusual)
    return Index(notes, store, dict(sorted(other.items())), plan.listing.attachments,
                 plan.listing.problems, plan.resolver, stats, generated, files, plan.listing,
                 generation)


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
            plan = _plan(config, store)
            if not _differs(store, plan):
                return plan, None, plan.generation
        stored = _store(config, store, plan, progress)
        store.stored()
        return plan, stored, store.generation()


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


def _plan(config: Config, store: Store, listing: Listing | None = None) -> _Plan:
    """Compare the vault's listing (made now unless given) with the index."""
    generation = store.generation()
    listing = list_vault(config) if listing is None else listing
    sources = [info for info in listing.notes if info.role == "source"]
    old = store.states()
    entries, todo = _reuse(old, sources)
    resolver = Resolver([info.path[:-3] for info in listing.notes], listing.attachments)
    known = {info.path: old.get(info.path, Entry(0, 0, 0, b"", b"", (0, 0))) for info in todo}
    before = _roles(_split({**entries, **known}, listing))
    return _Plan(listing, sources, old, entries, todo, resolver, before, generation)


def _store(config: Config, store: Store, plan: _Plan,
           progress: Progress | None) -> tuple[Entries, list[str], dict[str, str]]:
    """Parse and store what changed: (parsed entries, removed paths, files with roles)."""
    _sync(store, plan.before, plan.resolver)  # links first
    parsed: Entries = {}
    for batch in _batched(parse_all(config, plan.todo, progress, plan.resolver), STORE_EVERY):
        parsed.update(batch)  # stored while the workers parse on: the two overlap
        store.store_notes(batch)
    removed = sorted(plan.old.keys() - plan.entries.keys() - parsed.keys())
    if removed:
        store.forget(removed)
    files = _roles(_split({**plan.entries, **parsed}, plan.listing)) if parsed else plan.before
    if files != plan.before:  # a note became generated, or stopped being
        _sync(store, files, plan.resolver)
    return parsed, removed, files


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
        changed = [infos[p] for p in paths if p not in found or not _seen_as(found[p], infos[p])]
        found.update(parse_files(config, changed))
        return {path[:-3]: entry for path, entry in found.items()}

    return fetch


def _reuse(old: Entries, sources: list[FileInfo]) -> tuple[Entries, list[FileInfo]]:
    """Split the sources into stored entries still valid and files to parse."""
    entries: Entries = {}
    todo: list[FileInfo] = []
    for info in sources:
        hit = old.get(info.path)
        if hit is not None and _seen_as(hit, info):
            entries[info.path] = hit
        else:
            todo.append(info)
    return entries, todo


def _seen_as(entry: Entry, info: FileInfo) -> bool:
    """True when ``entry`` was parsed from the file in the state ``info`` saw."""
    return entry.seen_as(info.mtime_ns, info.size, (info.change_ns, info.inode))
