"""Cross-process locks of vault files, each a file that exists only while it is held."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import VaultmemError

LOCK_TIMEOUT = 30.0
FOLDER = ".vaultmem-locks"
LEGACY = (".vaultmem", "locks")  # where vaultmem 0.1 kept lock files, never removed


class LockTimeout(VaultmemError):
    """Another writer held a note's lock for too long."""


@contextlib.contextmanager
def file_lock(root: Path, rel: str, timeout: float = LOCK_TIMEOUT) -> Iterator[float]:
    """Hold the cross-process lock of vault file ``rel``; yields the file system's clock.

    The lock is ``<vault>/.vaultmem-locks/<hash>.lock``, deleted (and the folder with the last
    one) before it is let go, so nothing is left in the vault for sync tools to copy. The value
    yielded is the lock file's change time, "now" by the file system's own clock, against
    which the age of other files in the vault can be judged even when the process clock is
    set differently.
    """
    name = hashlib.sha256(rel.lower().encode("utf-8")).hexdigest()[:32] + ".lock"
    fd, path = _acquire(root / FOLDER, name, timeout, rel)
    try:
        os.utime(fd)
        yield os.fstat(fd).st_ctime
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # still ours: every waiter checks the name after locking
        os.close(fd)
        for folder in (path.parent, root.joinpath(*LEGACY)):
            _remove_unheld(folder)
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty: another writer may hold a lock there


def _remove_unheld(folder: Path) -> None:
    """Delete lock files nobody holds: left by a killed writer or an older vaultmem."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in [e for e in entries if e.name.endswith(".lock")]:
            with contextlib.suppress(OSError):
                fd = os.open(entry.path, os.O_RDWR)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    if _is_current(fd, Path(entry.path)):
                        os.unlink(entry.path)
                finally:
                    os.close(fd)


def _acquire(folder: Path, name: str, timeout: float, rel: str) -> tuple[int, Path]:
    """Open and lock the lock file; again when its holder deleted it while we waited."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(FileExistsError):  # even when removed again at once
            os.mkdir(folder, 0o700)
        path = folder / name
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:  # a finishing writer removed the folder: make it again
            continue
        locked = _wait(fd, deadline)
        if locked and _is_current(fd, path):
            return fd, path
        os.close(fd)
        if not locked:
            raise LockTimeout(f"{rel}: another writer held its lock for more than "
                              f"{timeout:g} s; try again")


def _wait(fd: int, deadline: float) -> bool:
    """Take the lock on ``fd``, polling until ``deadline``; False when it did not come."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)


def _is_current(fd: int, path: Path) -> bool:
    """True when ``path`` still names the locked file (its holder did not delete it)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False
