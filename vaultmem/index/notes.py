"""A scanned vault as the index holds it: :class:`Notes` (the sources of memory, decoded on
first use) and :class:`Index` (them, the other files and how links resolve)."""

from __future__ import annotations

import functools
from collections.abc import Callable, ItemsView, Iterable, Iterator, Mapping, ValuesView
from dataclasses import dataclass
from typing import NamedTuple

from ..model import Note, Problem
from ..read.record import GENERATED, HAS_PROBLEMS, Entry, decode
from ..read.resolve import Resolver
from ..read.walk import Listing
from .freshness.unchanged import listing_digest
from .link_rows import Reached, reached_links
from .sql import IN_ARRAY, array
from .store import Store

Entries = dict[str, Entry]
Fetch = Callable[[list[str]], Entries]  # note ids -> their full entries, by id
STATE = "SELECT id, path, mtime_ns, size, flags, ctime_ns, inode FROM notes"


@dataclass
class ScanStats:
    """What one scan did."""

    parsed: int = 0
    reused: int = 0
    removed: int = 0
    seconds: float = 0.0


class Notes(Mapping[str, Note]):
    """Source notes by id, in id order, read from the index and decoded on first access.

    Made from the states a scan compared (``entries``, by id), or with none for an index a
    watcher vouches for: a note's state is then read from the index when it is asked for, and
    every note's only when all are (iterating, ``len``).
    """

    def __init__(self, entries: Entries | None, resolver: Callable[[], Resolver],
                 fetch: Fetch | None = None, store: Store | None = None,
                 paths: Mapping[str, str] | None = None) -> None:
        self._all = None if entries is None else dict(sorted(entries.items()))
        self._some: dict[str, Entry | None] = {}  # read one by one (None: no such note)
        self.paths = dict(paths or {})  # id -> vault path where it does not end in ".md"
        self._resolver = resolver
        self._fetch = fetch
        self._store = store
        self._notes: dict[str, Note] = {}
        self._reached: dict[str, list[Reached]] = {}

    @property
    def entries(self) -> Entries:
        """Every source note's entry by id (blobs may be b"": not read yet)."""
        if self._all is None:
            self._learn(None)
            self._all = {i: e for i, e in sorted(self._some.items()) if e is not None}
        return self._all

    def _state(self, note_id: str) -> Entry | None:
        """The entry of ``note_id``, None when there is no such source note."""
        if self._all is not None:
            return self._all.get(note_id)
        if note_id not in self._some:
            self._learn([note_id])
        return self._some.get(note_id)

    def having(self, ids: Iterable[str]) -> set[str]:
        """The ids among ``ids`` that are source notes (the unknown ones looked up at once)."""
        ids = list(ids)
        if self._all is None and (unknown := [i for i in ids if i not in self._some]):
            self._learn(unknown)
        return {note_id for note_id in ids if self._state(note_id) is not None}

    def _learn(self, ids: list[str] | None) -> None:
        """Read the states of ``ids`` (every source note when None) from the index."""
        assert self._store is not None
        where = f" AND id IN {IN_ARRAY}" if ids is not None else ""
        args = (array(ids),) if ids is not None else ()
        found: dict[str, Entry | None] = dict.fromkeys(ids or (), None)
        for note_id, path, mtime, size, flags, change, inode in self._store.query(
                f"{STATE} WHERE NOT flags & {GENERATED}{where}", args):
            found[note_id] = self._some.get(note_id) or Entry(mtime, size, flags, b"", b"",
                                                              (change, inode))
            if not path.endswith(".md"):
                self.paths[note_id] = path
        self._some.update(found)

    def entry(self, note_id: str) -> Entry:
        """The full index entry of a note (its record and search document read if needed)."""
        entry = self._state(note_id)
        if entry is None:
            raise KeyError(note_id)
        if not entry.read and self._fetch is not None:
            entry = self._fetch([note_id])[note_id]
            self._keep({note_id: entry})
        return entry

    def _keep(self, entries: Entries) -> None:
        """Remember entries read whole."""
        (self._all if self._all is not None else self._some).update(entries)

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
        if self._all is None and (unknown := [i for i in ids if i not in self._some]):
            self._learn(unknown)
        unread = [i for i in ids if (entry := self._state(i)) is not None and not entry.read]
        if unread and self._fetch is not None:
            self._keep(self._fetch(unread))
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
            resolver = self._resolver()
            for link in note.links:
                resolver.resolve_link(link, note.id)

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, note_id: object) -> bool:
        return isinstance(note_id, str) and self._state(note_id) is not None

    def path_of(self, note_id: str) -> str:
        """The vault path of a note."""
        return self.paths.get(note_id) or f"{note_id}.md"

    def flagged(self, flag: int) -> list[str]:
        """Ids of notes whose entry carries ``flag`` (checked without reading the note)."""
        if self._all is None and self._store is not None:
            return [row[0] for row in self._store.query(
                f"SELECT id FROM notes WHERE flags & ? AND NOT flags & {GENERATED} "
                "ORDER BY id", (flag,))]
        return [note_id for note_id, entry in self.entries.items() if entry.flags & flag]


class Layout(NamedTuple):
    """The vault's files around its source notes, as a scan found them."""

    other: dict[str, str]  # id -> template|excluded|generated|sync-copy, sorted
    attachments: list[str]
    listing_problems: list[Problem]
    resolver: Resolver
    generated: dict[str, Entry]  # vaultmem's own notes, by id
    files: dict[str, str]  # every note id / attachment: its role
    listing: Listing  # what the index was compared with


class Index:
    """Every note of a vault: ``notes`` are the sources of memory, ``other`` the skipped ones.

    The files around the notes (:class:`Layout`) are given by the scan that compared them, or
    read from the index when first used.
    """

    def __init__(self, notes: Notes, store: Store, layout: Callable[[], Layout],
                 stats: ScanStats, generation: int, digest: str | None = None) -> None:
        self.notes, self.store, self.stats, self.generation = notes, store, stats, generation
        self._layout = layout
        self._digest = digest  # of the listing, when the scan has made it

    @functools.cached_property
    def layout(self) -> Layout:
        """The files around the notes."""
        return self._layout()

    @property
    def other(self) -> dict[str, str]:
        """Notes that are not memory (templates, excluded, generated, sync copies) by id."""
        return self.layout.other

    @property
    def attachments(self) -> list[str]:
        """The vault's files that are not notes, sorted."""
        return self.layout.attachments

    @property
    def listing_problems(self) -> list[Problem]:
        """Files and folders that could not be listed."""
        return self.layout.listing_problems

    @property
    def resolver(self) -> Resolver:
        """How links resolve among the vault's files."""
        return self.layout.resolver

    @property
    def generated(self) -> dict[str, Entry]:
        """vaultmem's own notes by id, read whole."""
        return self.layout.generated

    @property
    def files(self) -> dict[str, str]:
        """Every note id and attachment with its role."""
        return self.layout.files

    @property
    def listing(self) -> Listing:
        """The listing the index was compared with."""
        return self.layout.listing

    @property
    def listing_digest(self) -> str:
        """The :func:`~vaultmem.index.freshness.unchanged.listing_digest` of :attr:`listing`."""
        if self._digest is None:
            self._digest = listing_digest(self.listing)
        return self._digest

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
