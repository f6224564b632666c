"""The index a watcher keeps, opened as it is stored: no file is listed, and a note's rows are
read when the note is asked for, so a one-note command costs what its answer needs.

Used while the watcher vouches that the index holds every change and its listing of the
index's generation is stored (it saves one after each take-in), and when a scan's listing is
the one the index was left holding: the files table, the notes' rows and that listing then
describe the vault as it is.
"""

from __future__ import annotations

from ...read.record import GENERATED
from ...read.resolve import Resolver
from ...read.walk import Listing
from ..notes import Entries, Index, Layout, Notes, ScanStats
from ..rows import ATTACHMENT
from ..store import Store
from .watcher_answer import listing_stored, stored_listing


def kept_index(store: Store, generation: int, listing: Listing | None = None,
               digest: str | None = None, *, layout: Layout | None = None,
               vaults: tuple[str, ...] = ()) -> Index | None:
    """The index of ``generation`` as stored, with ``listing`` (one just made, that the index
    holds) or else the watcher's stored listing of it; None when neither is there (another
    process stored since: the vault is listed as usual); ``digest``: the listing's;
    ``layout``: the files around the notes when known (else read from the index when first
    needed); ``vaults``: the vaults side by side, each resolving its own links."""
    if listing is None and not listing_stored(store, generation):
        return None
    notes: Notes

    def fetch(ids: list[str]) -> Entries:
        found = store.entries([notes.path_of(note_id) for note_id in ids])
        return {path[:-3]: entry for path, entry in found.items()}

    def stored_layout() -> Layout:
        return layout or _stored_layout(store, listing, vaults)

    index: Index
    notes = Notes(None, lambda: index.resolver, fetch, store)
    sources = store.query("SELECT COUNT(*) FROM files WHERE role = 'source'")[0][0]
    index = Index(notes, store, stored_layout, ScanStats(0, sources, 0), generation, digest)
    return index


def _stored_layout(store: Store, listing: Listing | None, vaults: tuple[str, ...]) -> Layout:
    """The vault's files as the index records them, with ``listing`` or the watcher's."""
    files = dict(store.query("SELECT id, role FROM files ORDER BY id"))
    attachments = [key for key, role in files.items() if role == ATTACHMENT]
    resolver = Resolver([key for key, role in files.items() if role != ATTACHMENT], attachments,
                        vaults)
    other = {key: role for key, role in files.items() if role not in ("source", ATTACHMENT)}
    paths = [row[0] for row in store.query(f"SELECT path FROM notes WHERE flags & {GENERATED}")]
    generated = {path[:-3]: entry for path, entry in store.entries(paths).items()}
    # the watcher may have taken in a change since this index was opened: its latest listing
    # (the rows read here are the latest too)
    listing = listing or stored_listing(store) or Listing()
    return Layout(other, attachments, listing.problems, resolver, generated, files, listing)
