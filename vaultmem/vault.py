"""The :class:`Vault`: one opened vault, its settings, its scanned index and its graph."""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Config, find_vault, load_config
from .errors import NoteNotFound
from .ignored import Ignored, load_ignored
from .model import Link, Note
from .read.record import note_doc_of
from .read.walk import MAX_BYTES
from .regular_files import read_note_text
from .secrets import patterns_stamp
from .similar_names import NameIndex, same_name

if TYPE_CHECKING:
    import networkx as nx
from .index.doc import Meta
from .index.fact_shards import documents, load_facts
from .index.freshness.take_in import take_in
from .index.link_rows import notes_named
from .index.lookup import every_name, named
from .index.notes import Index
from .index.parsing import Progress
from .index.scan import scan
from .index.store import Store
from .read.resolve import Resolver

SUGGESTED = 75  # a title or alias this alike (WRatio: typed in part counts) is offered
SUGGESTED_SHORTEST = 3  # characters: a shorter alias (``EI``) is part of too many names


class Vault:
    """An Obsidian vault opened for reading; scanning happens once, on first use.

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "Bob.md").write_text("see [[Alice]]\\n")
    >>> vault = Vault(root, use_cache=False)
    >>> [link.target for link in vault.note("bob").links]
    ['Alice']
    """

    def __init__(self, root: str | os.PathLike[str], *, config: Config | None = None,
                 use_cache: bool = True, progress: Progress | None = None) -> None:
        self.root = Path(root).resolve()
        self.shown = os.fspath(root)  # the path as the user gave it, for messages
        self.config = config or load_config(self.root)
        self.use_cache = use_cache
        self.progress = progress
        self.embed_progress: Progress | None = None  # passages embedded, passages to embed
        self.notices: list[str] = []  # what a user should know of how an answer was made
        self._since: tuple[Index, frozenset[str]] | None = None  # an index, files changed since

    @classmethod
    def discover(cls, path: str | os.PathLike[str] | None = None, **options: object) -> Vault:
        """Open the vault at ``path``, $VAULTMEM_VAULT, or the nearest marked parent folder."""
        vault = cls(find_vault(path), **options)  # type: ignore[arg-type]
        given = path or os.environ.get("VAULTMEM_VAULT")
        vault.shown = os.fspath(given) if given else vault.shown
        return vault

    @functools.cached_property
    def store(self) -> Store:
        """The vault's index database in the cache folder (``use_cache=False``: in memory),
        made anew when a setting it depends on changes (its secret patterns too: what it holds
        is redacted with them)."""
        stamp = self.config.fingerprint() + "\x1f" + patterns_stamp(self.config.secret_patterns)
        return Store(self.root, stamp, memory=not self.use_cache, view=self.config.view_name())

    @functools.cached_property
    def index(self) -> Index:
        """Every note, parsed (from the index where nothing changed) and resolved."""
        since, self._since = self._since, None
        if since is not None and (taken := take_in(self.config, self.store, *since)):
            return taken
        return scan(self.config, self.store, self.progress)

    @functools.cached_property
    def graph(self) -> nx.DiGraph:
        """The whole link graph (see :func:`vaultmem.graph.build_graph`), from the index."""
        from .graph import graph_of_rows  # networkx is imported only when a graph is needed
        from .index.graph_rows import whole_graph_rows

        _ = self.index  # the index is current first
        return graph_of_rows(whole_graph_rows(self.store))

    @functools.cached_property
    def facts(self) -> list[tuple[str, Meta]]:
        """(id, metadata with facts and history) of every note, without the search postings."""
        return list(documents(load_facts(self.store, self.index.states(),
                                         self.index.entries)))

    @functools.cached_property
    def ignored(self) -> Ignored:
        """The findings its owner asked to leave out (``.vaultmem/ignored.txt``)."""
        return load_ignored(self.root)

    @functools.cached_property
    def derived(self) -> dict[object, Any]:
        """Results computed from this reading of the vault, kept while it lasts (forgotten
        with the index); a long-running process asks once per change, not once per call."""
        return {}

    @property
    def notes(self) -> Mapping[str, Note]:
        """Source notes by id, sorted."""
        return self.index.notes

    def note(self, name: str, *, kind: str | None = None) -> Note:
        """A note by id (``People/Lucy Tan``), name (``Lucy Tan``) or path; else NoteNotFound
        (which, for a note of ``kind`` such as an agent, says how to create one)."""
        if name in self.notes:  # an id as it is, even one ending in a space
            return self.notes[name]
        wanted = self._as_id(name)
        if wanted in self.notes:
            return self.notes[wanted]
        found = self._linked_as(wanted)
        if found is not None and found in self.notes:
            return self.notes[found]
        aliased = [i for i in named(self.index.store, wanted, aliases_only=True) if i in self.notes]
        if len(aliased) == 1:  # a convenience for lookups; links never resolve by alias
            return self.notes[aliased[0]]
        names = every_name(self.index.store)  # read once for both uses below
        same = [i for i in same_name(wanted, names) if i in self.notes]
        if len(same) == 1:  # written another way: a slug, accents, a folder note's folder
            return self.notes[same[0]]
        return self._missing(name, kind, names)

    def _linked_as(self, wanted: str) -> str | None:
        """The note a link to ``wanted`` reaches: resolved among the notes of that file name
        only (no other file can change where such a link goes)."""
        return Resolver(notes_named(self.index.store, wanted), []).resolve(wanted, "")[0]

    def note_text(self, note_id: str) -> str:
        """A source note's text: as the scan read it, or else from its file (the index keeps
        no copy; a file changed since the scan gives its new text, and the next command's scan
        reads the note again)."""
        text = note_doc_of(self.index.notes.entry(note_id)).text
        if text is None:
            return read_note_text(self.root / self.index.notes.path_of(note_id), MAX_BYTES + 1)
        return text

    def _as_id(self, name: str) -> str:
        """A note id from an id, a name, or a relative or absolute file path."""
        text = name.strip().replace("\\", "/")
        path = Path(text).expanduser()
        if path.is_absolute():
            with contextlib.suppress(ValueError):
                text = path.resolve().relative_to(self.root).as_posix()
        text = text.removeprefix("./")
        return text[:-3] if text.lower().endswith(".md") else text

    def _missing(self, name: str, kind: str | None, every: Mapping[str, list[str]]) -> Note:
        """Raise NoteNotFound with the closest of ``every`` note's titles and aliases as
        suggestions, and for a note of ``kind`` the command that creates it."""
        names = NameIndex({note_id: [n for n in given if len(n) >= SUGGESTED_SHORTEST]
                           for note_id, given in every.items()})
        ids = names.closest(name, limit=3, cutoff=SUGGESTED)
        hint = ("; did you mean " + ", ".join(f"[[{i}]]" for i in ids) + "?" if ids else
                "" if kind else
                f"; to find notes that mention it: vaultmem search {shlex.quote(name)}")
        create = f"to create it: vaultmem new {kind} {shlex.quote(name)}" if kind else ""
        create = f" ({create})" if create and ids else f"; {create}" if create else ""
        raise NoteNotFound(f"no {kind or 'note'} named {name!r}{hint}{create}")

    def refresh(self, paths: Iterable[str] | None = None) -> None:
        """Forget everything read (after vaultmem wrote or moved files); the next use scans
        again, parsing only the files that changed. Given ``paths``, the vault paths of every
        file that changed since the index was read, only those files are looked at."""
        before = self.__dict__.get("index")
        if paths is None or (before is None and self._since is None):
            self._since = None
        elif before is not None:
            self._since = (before, frozenset(paths))
        elif self._since is not None:  # refreshed twice before a new read
            self._since = (self._since[0], self._since[1] | frozenset(paths))
        for cached in ("index", "graph", "facts", "derived", "ignored"):
            self.__dict__.pop(cached, None)

    def after(self, paths: Iterable[str] | None) -> Vault:
        """A new reading of this vault (nothing derived kept) on the same index, after the
        files at ``paths`` changed (see :meth:`refresh`; None: any file may have)."""
        latest = Vault(self.root, config=self.config, use_cache=self.use_cache,
                       progress=self.progress)
        latest.shown = self.shown
        latest.__dict__["store"] = self.store
        if "index" in self.__dict__:
            latest.__dict__["index"] = self.index
        latest.refresh(paths)
        return latest

    def backlinks(self, note_id: str) -> list[tuple[str, Link]]:
        """(source id, link) for every link from another note to ``note_id``, in order.

        Only the notes whose links resolve to it are read (the index keeps resolved links).
        """
        notes = self.index.notes  # scans first: the index then holds every note's links
        sources = [source for source in self.store.linking(note_id)
                   if source != note_id and source in notes]
        notes.read(sources)  # in one batch
        return [
            (source, link)
            for source in sources
            for link in notes[source].links
            if link.resolved == note_id
        ]
