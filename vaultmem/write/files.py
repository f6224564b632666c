"""The one module that writes files: exclusive create, atomic replace, locks, compare-and-swap."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import VaultmemError
from ..names import RESERVED

LOCK_TIMEOUT = 30.0
RETRIES = 5
WINDOWS_BAD = re.compile(r'[\\:*?"<>|\x00-\x1f]')


class WriteConflict(VaultmemError):
    """A file kept changing while vaultmem tried to update it; nothing was written."""


class LockTimeout(VaultmemError):
    """Another writer held a note's lock for too long."""


class OutsideVault(VaultmemError):
    """A write would land outside the vault, in a hidden folder, or through a symlink."""


class NotWritable(VaultmemError):
    """A note cannot be edited safely (not UTF-8, or not a regular file)."""


@dataclass(frozen=True)
class Change:
    """What an update did: the text before (None: the file was new) and after."""

    path: Path
    before: str | None
    after: str | None

    @property
    def changed(self) -> bool:
        """True when the file was created or its text changed."""
        return self.after is not None and self.after != self.before


def atomic_write(path: Path, data: bytes, mode: int = 0o644, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never a part.

    The temp file starts with ``.`` so Obsidian never shows it, and is removed on failure.
    ``durable=False`` skips the fsyncs, for files that can be rebuilt (the parse cache).
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(path.parent)


def create_new(path: Path, data: bytes) -> None:
    """Create ``path`` only if it does not exist (FileExistsError otherwise), durably.

    The content is written to a temp file first and then linked into place, so a crash never
    leaves a half-written note behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.link(tmp, path)  # fails if the name exists: no race with another creator
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _fsync_dir(path.parent)


def _umask() -> int:
    """The process umask (read without changing it for long)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) readable by the owner only (0700)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


@contextlib.contextmanager
def file_lock(root: Path, rel: str, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the cross-process lock of vault file ``rel`` (in ``<vault>/.vaultmem/locks``)."""
    folder = root / ".vaultmem" / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(rel.lower().encode("utf-8")).hexdigest()[:32]
    fd = os.open(folder / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LockTimeout(f"{rel}: another writer held its lock for {timeout:.0f} s; "
                                      "try again") from None
                time.sleep(0.005)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _decode(rel: str, data: bytes | None) -> str | None:
    """Text of a note to edit; refuses what cannot be rewritten without loss."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotWritable(f"{rel} is not valid UTF-8 (byte {exc.start}); vaultmem will not "
                          "rewrite it; re-save it as UTF-8 first") from exc


def update(root: Path, rel: str, change: Callable[[str | None], str | None]) -> Change:
    """Apply ``change`` to vault file ``rel`` under its lock, with compare-and-swap.

    ``change`` gets the current text (None if the file does not exist) and returns the new
    text (None: leave it). If the file changes on disk between reading and replacing (an
    editor or sync saved it), the new content is read and ``change`` applied again; after
    several tries WriteConflict is raised and nothing is written.
    """
    path = inside(root, rel)
    with file_lock(root, rel):
        for _ in range(RETRIES):
            before = read_bytes(path)
            text = _decode(rel, before)
            after = change(text)
            if after is None or after == text:
                return Change(path, text, text)
            if read_bytes(path) != before:
                continue  # changed meanwhile: never overwrite the newer content
            try:
                _store(path, before, after.encode("utf-8"))
            except FileExistsError:
                continue
            return Change(path, text, after)
    raise WriteConflict(f"{rel} kept changing while vaultmem tried to write it; nothing was "
                        "written; try again")


def inside(root: Path, rel: str) -> Path:
    """``root / rel`` when it is a visible file of the vault; else OutsideVault.

    No ``..``, no absolute path, no hidden folder, no symlink (replacing a link would
    detach it from the note it points to), no name Windows cannot store.
    """
    parts = _checked_parts(rel)
    if any(p.startswith(".") for p in parts):
        raise OutsideVault(f"{rel!r} is outside the vault's visible notes; vaultmem writes "
                           "only below the vault folder (check the folders in your config)")
    path = root / rel
    if path.is_symlink() or not _within(root, path):
        raise OutsideVault(f"{rel} is a symbolic link or leads outside the vault; vaultmem "
                           "does not write through links; edit the note it points to")
    return path


def _checked_parts(rel: str) -> tuple[str, ...]:
    """The parts of vault path ``rel``; OutsideVault if it could point anywhere else."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or ".." in parts or "\x00" in rel:
        raise OutsideVault(f"{rel!r} is outside the vault; vaultmem writes only below the "
                           "vault folder (check the folders in your config)")
    for part in parts:
        if WINDOWS_BAD.search(part) or part.endswith((".", " ")) or \
                part.split(".")[0].rstrip(" ").upper() in RESERVED:
            raise OutsideVault(f"{rel!r}: {part!r} is not a file name every system can store "
                               "(Windows reserves it, or it has one of \\ : * ? \" < > |, or "
                               "ends with a dot or space); rename it")
    return parts


def _within(root: Path, path: Path) -> bool:
    """True when ``path`` (following any symlinked folders) stays below ``root``."""
    return path.resolve().is_relative_to(root.resolve())


def move(root: Path, source: str, target: str) -> None:
    """Move vault file ``source`` to ``target`` (both vault-relative; ``target`` may be in
    ``.trash/``), never over an existing file, under the source's lock."""
    src, dst = root / source, root / target
    for rel, path in ((source, src), (target, dst)):
        _checked_parts(rel)
        if not _within(root, path.parent):
            raise OutsideVault(f"{rel} leads outside the vault through a symbolic link; "
                               "nothing was moved")
    with file_lock(root, source):
        if src.is_symlink() or not src.is_file():
            raise NotWritable(f"{source} is not a regular note file; nothing was moved")
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.link(src, dst)  # fails if the target exists: nothing is ever replaced
        os.unlink(src)
        _fsync_dir(dst.parent)
        _fsync_dir(src.parent)


def remove(root: Path, rel: str) -> None:
    """Delete a file of the vault's ``.trash/`` (only there: vaultmem never deletes a note)."""
    path = root / rel
    if Path(rel).parts[:1] != (".trash",) or ".." in Path(rel).parts \
            or not _within(root, path.parent):
        raise OutsideVault(f"{rel!r} is not in the vault's .trash/; vaultmem deletes nothing "
                           "else")
    path.unlink(missing_ok=True)


def _store(path: Path, before: bytes | None, data: bytes) -> None:
    """Create or atomically replace, keeping the file's permission bits."""
    if before is None:
        create_new(path, data)
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    atomic_write(path, data, mode)
