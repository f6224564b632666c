"""Ask a running watcher whether the index is current, instead of reading every file's status.

A long-running vaultmem process (``watch``, ``mcp``) that sees the vault's changes through the
system (inotify) answers on a socket in the index's cache folder. When it answers ``current``
it has taken in every change made before the question (the kernel queues an event before the
writing call returns, and the watcher drains the queue after reading the question), and the
listing it stored with the index generation is the vault's: the index can be read as it is
(:mod:`vaultmem.index.freshness.kept_index`). Any doubt (no watcher, a stale socket, a slow or
odd answer, another process stored since) means: list the vault as usual.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...locations import KEEPER_SOCKET, keeper_line
from ...model import Problem
from ...read.walk import FileInfo, Listing
from ..store import Store

if TYPE_CHECKING:
    pass

QUESTION, CURRENT, UNKNOWN = b"current?\n", b"current\n", b"unknown\n"
ANSWER_SECONDS = 5.0  # a watcher taking in a large sync answers late; a hung one is skipped
LISTING = "listing"  # the stored result's name
_ANSWERED_HERE: set[Path] = set()  # sockets this process answers: it never asks itself
_TRUSTED: set[Path] = set()  # sockets whose keeper made this process, the index current


def answering(path: Path) -> None:
    """Note that this process answers on ``path``: its own scans list the vault (a question to
    itself would wait on the scan it is in)."""
    _ANSWERED_HERE.add(path)


def trusted(path: Path) -> None:
    """Note that the keeper answering on ``path`` forked this process right after taking
    every change in: the index is current without asking (the keeper may be busy)."""
    _ANSWERED_HERE.discard(path)
    _TRUSTED.add(path)


def answered(path: Path) -> None:
    """Note that this process no longer answers on ``path``."""
    _ANSWERED_HERE.discard(path)


def socket_path(store: Store) -> Path:
    """Where the vault's watcher listens."""
    return store.folder / KEEPER_SOCKET


def watcher_vouches(store: Store, *, timeout: float | None = None) -> bool:
    """True when a watcher answers that the index holds every change made until now."""
    path = socket_path(store)
    if path in _TRUSTED and not store.memory:
        return True
    if store.memory or path in _ANSWERED_HERE or not path.exists():
        return False
    import socket  # only where a watcher's socket exists: most commands never load it

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(timeout or ANSWER_SECONDS)
        try:
            client.connect(str(path))
            client.sendall(QUESTION)
            return keeper_line(client) == CURRENT
        except OSError:  # refused (a watcher that died), too long a path, a timeout
            return False


def listing_stored(store: Store, generation: int) -> bool:
    """True when the watcher's listing of index ``generation`` is stored (no other process
    stored changes since the watcher's last take-in)."""
    return bool(store.query("SELECT 1 FROM results WHERE name = ? AND key = ?",
                            (LISTING, str(generation))))


def stored_listing(store: Store) -> Listing | None:
    """The listing the watcher stored last (None when there is none or it cannot be read)."""
    rows = store.query("SELECT key FROM results WHERE name = ?", (LISTING,))
    with contextlib.suppress(TypeError, ValueError):
        return _listing(store.load_result(LISTING, rows[0][0])) if rows else None
    return None


def save_listing(store: Store, listing: Listing, generation: int) -> None:
    """Store the listing the index of ``generation`` was made from."""
    notes = [(i.path, i.mtime_ns, i.size, i.role, i.change_ns, i.inode) for i in listing.notes]
    problems = [(p.path, p.kind, p.message, p.line) for p in listing.problems]
    store.save_result(LISTING, str(generation), [notes, listing.attachments, problems])


def _listing(data: Any) -> Listing | None:
    """A stored listing read back (None when there is none)."""
    if data is None:
        return None
    notes, attachments, problems = data
    return Listing([FileInfo(path, mtime, size, role, change, inode)
                    for path, mtime, size, role, change, inode in notes],
                   list(attachments), [Problem(*problem) for problem in problems])
