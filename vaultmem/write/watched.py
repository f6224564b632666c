"""Reading a note another program may be saving in place: Linux read leases, settled reads."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import time
from pathlib import Path

LEASE_WAIT = 2.0  # s to wait for another program to finish saving a note
EMPTY_WAIT = 0.5  # s an empty note is read again where there are no leases (a save half done?)


def lease(fd: int, wait: float = 0.0) -> bool:
    """Take a read lease on ``fd``'s file, waiting up to ``wait`` s while another program has it
    open for writing; False when that fails (no leases on this file system, or still open)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            # a break is announced with SIGURG, ignored by default (SIGIO would kill us); set
            # each time, as letting go of a lease resets it
            fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGURG)
            fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            # a lease of ours that a writer is breaking holds that writer back: let go while
            # waiting, or the two wait for each other until ``wait`` runs out
            unlease(fd)
            time.sleep(0.001)
        except (OSError, AttributeError):  # no leases on this file system, or not Linux
            return False


def unlease(fd: int) -> None:
    """Let go of a lease on ``fd`` if there is one: a held-back save goes on."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)


def lease_kept(fd: int) -> bool:
    """True while no one began opening the leased file for writing (taking the lease again also
    fails for a writer past its permission checks but not yet held back)."""
    try:
        return fcntl.fcntl(fd, fcntl.F_GETLEASE) == fcntl.F_RDLCK and lease(fd)
    except OSError:
        return False


def settled_bytes(fd: int) -> bytes:
    """The file's bytes, for when no lease tells whether a save is going on: an empty file is
    read again for a while, as it may be an in-place save between truncating and writing."""
    deadline = time.monotonic() + EMPTY_WAIT
    while not (data := read_all(fd)) and time.monotonic() < deadline:
        time.sleep(0.005)
    return data


def read_all(fd: int) -> bytes:
    """All bytes of an open file, from its start."""
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def same(known: os.stat_result, path: Path) -> bool:
    """True when ``path`` is the file ``known`` describes."""
    try:
        now = os.lstat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (known.st_dev, known.st_ino)
