"""Know without reading the index's states that it holds the vault as listed: a scan stores
the digest of the listing it left the index with, and a later listing with the same digest
at the same index generation means no file changed since."""

from __future__ import annotations

import hashlib

from ...read.walk import Listing
from ..store import Store

RESULT = "listed"  # the stored result's name


def listing_digest(listing: Listing) -> str:
    """A digest of every file of ``listing`` with its state and role, and its problems."""
    notes = "\n".join(f"{i.path}\0{i.mtime_ns}\0{i.size}\0{i.change_ns}\0{i.inode}\0{i.role}"
                      for i in listing.notes)
    problems = "\n".join(f"{p.path}\0{p.kind}\0{p.message}" for p in listing.problems)
    text = "\1".join((notes, "\n".join(listing.attachments), problems))
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def holds(store: Store, generation: int, digest: str) -> bool:
    """True when the index of ``generation`` was left holding the listing of ``digest``."""
    return bool(store.load_result(RESULT, str(generation)) == digest)


def remember(store: Store, generation: int, digest: str) -> None:
    """Record that the index of ``generation`` holds the listing of ``digest``, unless it holds
    a note that could not be read or parsed: the next scan must try that one again."""
    if not holds(store, generation, digest) and not _to_retry(store):
        store.save_result(RESULT, str(generation), digest)


def _to_retry(store: Store) -> bool:
    """True when a stored note failed to be read or parsed (stored with no file identity, so
    that no listing matches it)."""
    return bool(store.query("SELECT 1 FROM notes WHERE inode = 0 LIMIT 1"))
