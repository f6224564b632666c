"""Take the changes of a few files into the index, given the listing it holds: what a
long-running process does with the paths the system reports changed, and a write with the
file it wrote, instead of listing the vault and comparing every file."""

from __future__ import annotations

from collections.abc import Iterable

from ...config import Config
from ...read.record import GENERATED, Entry
from ...read.resolve import Resolver
from ...read.walk import FileInfo, Listing, relisted
from ..notes import Entries, Index, Layout, ScanStats
from ..parsing import parse_files
from ..rows import ATTACHMENT
from ..scan import seen_as
from ..store import Store, files_key
from .kept_index import kept_index


def take_in(config: Config, store: Store, before: Index, paths: Iterable[str]) -> Index | None:
    """The index after the files at the vault ``paths`` changed, ``before`` being the index
    of the vault as it was otherwise; None when these paths alone cannot tell (a folder among
    them, or another process stored other notes since): then the vault is listed again."""
    changed = set(paths)
    listing = relisted(config, before.listing, changed)
    if listing is None:
        return None
    with store.exclusive():
        if not _only(store, before.generation, changed):
            return None
        sources = {info.path: info for info in listing.notes
                   if info.path in changed and info.role == "source"}
        old = store.states(sorted(changed))
        todo = [info for path, info in sources.items()
                if path not in old or not seen_as(old[path], info)]
        files = _files_after(before.files, listing, changed, old, todo)
        resolver = _resolver_after(before, listing, files, config.vaults)
        parsed: Entries = dict(parse_files(config, todo, resolver))
        files.update({path[:-3]: "generated" for path, e in parsed.items() if e.flags & GENERATED})
        removed = sorted(old.keys() - sources.keys())
        _store(store, parsed, removed, files if files != before.files else None, resolver,
               memory=_memory_changed(before.files, files, changed))
        generation = store.generation()
    layout = _layout(before, listing, files, resolver, parsed)
    index = kept_index(store, generation, listing, layout=layout, vaults=config.vaults)
    assert index is not None  # a listing is given
    index.stats = ScanStats(len(parsed), 0, len(removed))
    return index


def _only(store: Store, generation: int, changed: set[str]) -> bool:
    """True when no note other than those at ``changed`` was stored since ``generation``."""
    if store.generation() == generation:
        return True
    since = store.changed_since(generation)
    return since is not None and since.notes <= {path[:-3] for path in changed}


def _files_after(files: dict[str, str], listing: Listing, changed: set[str], old: Entries,
                 todo: list[FileInfo]) -> dict[str, str]:
    """Every note id and attachment with its role after the change, sorted (a generated note
    to parse again counts as a source until it is parsed)."""
    after = dict(files)
    for path in changed:
        if after.get(path) == ATTACHMENT:
            del after[path]
        if path[-3:].lower() == ".md" and after.get(path[:-3], ATTACHMENT) != ATTACHMENT:
            del after[path[:-3]]
    after.update({path: ATTACHMENT for path in listing.attachments if path in changed})
    parsing = {info.path for info in todo}
    for info in listing.notes:
        if info.path in changed:
            stored = old.get(info.path)
            kept = stored is not None and stored.flags & GENERATED and info.path not in parsing
            after[info.path[:-3]] = "generated" if kept else info.role
    return after if after.keys() == files.keys() else dict(sorted(after.items()))


def _resolver_after(before: Index, listing: Listing, files: dict[str, str],
                    vaults: tuple[str, ...]) -> Resolver:
    """How links resolve after the change: as before unless files came or went."""
    if files.keys() == before.files.keys():
        return before.resolver
    return Resolver([info.path[:-3] for info in listing.notes], listing.attachments, vaults)


def _memory_changed(before: dict[str, str], after: dict[str, str], changed: set[str]) -> bool:
    """True when a file that is memory (not vaultmem's generated notes) came, went or changed
    role."""
    keys = changed | {path[:-3] for path in changed}

    def memory(files: dict[str, str]) -> dict[str, str]:
        return {key: files[key] for key in keys if key in files and files[key] != "generated"}

    return memory(before) != memory(after)


def _store(store: Store, parsed: Entries, removed: list[str], files: dict[str, str] | None,
           resolver: Resolver, *, memory: bool) -> None:
    """Store what changed, the vault's ``files`` when they changed (nothing: no new
    generation)."""
    if not (parsed or removed or files is not None):
        return
    if files is not None and store.files_key() != files_key(files):
        store.sync(files=files, resolver=resolver)
    if parsed:
        store.store_notes(parsed)
    if removed:
        store.forget(removed)
    store.stored(sources=memory or bool(removed)
                 or any(not entry.flags & GENERATED for entry in parsed.values()))


def _layout(before: Index, listing: Listing, files: dict[str, str], resolver: Resolver,
            parsed: Entries) -> Layout:
    """The files around the notes after the change."""
    generated: dict[str, Entry] = {key: entry for key, entry in before.generated.items()
                                   if files.get(key) == "generated"}
    generated.update({path[:-3]: entry for path, entry in parsed.items()
                      if entry.flags & GENERATED})
    other = before.other if files == before.files else {
        key: role for key, role in files.items() if role not in ("source", ATTACHMENT)}
    return Layout(other, listing.attachments, listing.problems, resolver, generated, files,
                  listing)
