"""The one module that writes files: exclusive create, atomic replace, locks, compare-and-swap."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import VaultmemError
from .locks import file_lock
from .note_file import NotWritable, decode, open_note
from .paths import OutsideVault, checked_parts, inside, within
from .watched import LEASE_WAIT, lease, lease_kept, read_all, same, settled_bytes, unlease

RETRIES = 5
STALE_TEMP = 300.0  # s after which a note's temp file counts as left by a dead writer


class WriteConflict(VaultmemError):
    """A file kept changing while vaultmem tried to update it; nothing was written."""


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
    tmp = _temp_copy(path, data, mode, durable=durable)
    try:
        os.replace(tmp, path)
    except BaseException:
        _discard(tmp)
        raise
    if durable:
        _fsync_dir(path.parent)


def _temp_copy(path: Path, data: bytes, mode: int, *, durable: bool = True) -> str:
    """A hidden temp file ``.name.XXXXXXXX.tmp`` beside ``path`` holding ``data`` (removed
    again if writing it fails)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        _discard(tmp)
        raise
    return tmp


def _discard(name: str | None) -> None:
    """Remove a temp file or link if it is there."""
    if name is not None:
        with contextlib.suppress(OSError):
            os.unlink(name)


def create_new(path: Path, data: bytes) -> None:
    """Create ``path`` only if it does not exist (FileExistsError otherwise), durably.

    The content is written to a temp file first and then linked into place, so a crash never
    leaves a half-written note behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_copy(path, data, 0o666 & ~_umask())
    try:
        os.link(tmp, path)  # fails if the name exists: no race with another creator
    finally:
        _discard(tmp)
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


def update(root: Path, rel: str, change: Callable[[str | None], str | None]) -> Change:
    """Apply ``change`` to vault file ``rel`` under its lock, with compare-and-swap.

    ``change`` gets the current text (None if the file does not exist) and returns the new
    text (None: leave it). If the file changes on disk between reading and replacing (an
    editor or sync saved it), the new content is read and ``change`` applied again; after
    several tries WriteConflict is raised and nothing is written. Editors that save in place
    without the lock (Obsidian) are watched through the file itself: see :class:`_Original`.
    """
    path = inside(root, rel)
    with file_lock(root, rel) as fs_now:
        _sweep(path, fs_now)
        for _ in range(RETRIES):
            with _opened(path, rel) as old:
                text = decode(rel, old.data) if old else None
                after = change(text)
                if after is None or after == text:
                    return Change(path, text, text)
                if _store(path, old, after.encode("utf-8")):
                    return Change(path, text, after)
    raise WriteConflict(f"{rel} kept changing while vaultmem tried to write it; nothing was "
                        "written; try again")


def move(root: Path, source: str, target: str) -> None:
    """Move vault file ``source`` to ``target`` (both vault-relative; ``target`` may be in
    ``.trash/``), never over an existing file, under the source's lock."""
    src, dst = root / source, root / target
    for rel, path in ((source, src), (target, dst)):
        checked_parts(rel)
        if not within(root, path.parent):
            raise OutsideVault(f"{rel} leads outside the vault through a symbolic link; "
                               "nothing was moved")
    with file_lock(root, source):
        if src.is_symlink() or not src.is_file():
            raise NotWritable(f"{source} is not a regular note file; nothing was moved")
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)  # fails if the target exists: nothing is ever replaced
        except FileExistsError:
            raise NotWritable(f"{target} exists; nothing was moved: move it away or choose "
                              "another name") from None
        os.unlink(src)
        _fsync_dir(dst.parent)
        _fsync_dir(src.parent)


def drop_twin(root: Path, rel: str, twin: str) -> bool:
    """Remove ``twin`` when it is a second name of vault file ``rel`` (a move cut short between
    its link and its unlink); False, and nothing removed, when it is another file."""
    path, other = root / rel, root / twin
    checked_parts(twin)
    with file_lock(root, rel):
        if not (path.is_file() and other.is_file() and os.path.samefile(path, other)):
            return False
        os.unlink(other)
        _fsync_dir(other.parent)
        return True


def make_folder(path: Path) -> None:
    """Create folder ``path`` (and its parents) if it is not there."""
    path.mkdir(parents=True, exist_ok=True)


def remove(root: Path, rel: str) -> None:
    """Delete a file of the vault's ``.trash/`` (only there: vaultmem never deletes a note)."""
    path = root / rel
    if checked_parts(rel)[:1] != (".trash",) or not within(root, path.parent):
        raise OutsideVault(f"{rel!r} is not in the vault's .trash/; vaultmem deletes nothing "
                           "else")
    path.unlink(missing_ok=True)


def _store(path: Path, old: _Original | None, data: bytes) -> bool:
    """Create the note, or replace ``old`` atomically keeping its permission bits; False when
    another program wrote it meanwhile (then nothing was written)."""
    if old is None:
        try:
            create_new(path, data)
        except FileExistsError:
            return False
        return True
    tmp = _temp_copy(path, data, stat.S_IMODE(os.fstat(old.fd).st_mode))
    swapped = False
    try:
        swapped = old.swap(tmp)
    finally:
        if not swapped:
            _discard(tmp)
    return swapped


@contextlib.contextmanager
def _opened(path: Path, rel: str) -> Iterator[_Original | None]:
    """The note as it is now, its file held open meanwhile (None: there is no such file)."""
    fd = open_note(path, rel)
    if fd is None:
        yield None
        return
    try:
        yield _Original(path, fd)
    finally:
        os.close(fd)  # also ends a lease


class _Original:
    """A note as vaultmem read it, its file kept open to see whether another program writes it.

    Obsidian saves in place (truncate, write) without vaultmem's lock. Such a save could be read
    half done, or land on the old file just before the rename and vanish with it. A read lease
    (Linux) makes the kernel hold back another program's opening of the file for writing until
    vaultmem lets go, and shows that it came: vaultmem reads only when no one is saving, and if
    a save begins around the rename, the old file is put back so the save lands in view and the
    write is tried again. Without leases the bytes are compared before and after the rename.
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self.leases = lease(fd, LEASE_WAIT)
        self.data = read_all(fd) if self.leases else settled_bytes(fd)
        self._unlease()  # not held while ``change`` runs: it may write this very file

    def swap(self, tmp: str) -> bool:
        """Rename ``tmp`` over the note if no one else wrote it since it was read."""
        aside = self._aside()
        try:
            if not self._settled():
                return False
            new = os.stat(tmp)
            os.replace(tmp, self.path)
            _fsync_dir(self.path.parent)  # also gives a save that began meanwhile time to show
            # without a second name, or with the note replaced again meanwhile, the write stands
            if self._untouched() or aside is None or not same(new, self.path):
                return True
            os.replace(aside, self.path)  # a save to the old file began: let it land in view
            aside = None
            return False
        finally:
            _discard(aside)
            self._unlease()

    def _aside(self) -> str | None:
        """A hidden second name of the old file, to put it back (None if links fail)."""
        name = str(self.path.with_name(f".{self.path.name}.{secrets.token_hex(4)}.tmp"))
        try:
            os.link(self.path, name)
        except OSError:
            return None
        if not same(os.fstat(self.fd), Path(name)):
            _discard(name)  # the note was replaced meanwhile: _settled says so too
            return None
        return name

    def _settled(self) -> bool:
        """Still the file at the note's path, with the bytes read, and no one saving it."""
        if self.leases and not lease(self.fd):
            return False
        return same(os.fstat(self.fd), self.path) and read_all(self.fd) == self.data

    def _untouched(self) -> bool:
        """No one began writing the old file (asked after the rename)."""
        if self.leases and not lease_kept(self.fd):
            return False
        return read_all(self.fd) == self.data

    def _unlease(self) -> None:
        """Let go of the lease (if one is held, leases or not): a held-back save goes on."""
        unlease(self.fd)


def _sweep(path: Path, fs_now: float) -> None:
    """Remove the note's temp files and links (``.name.XXXXXXXX.tmp``) that a killed writer
    left, once STALE_TEMP old by the file system's clock ``fs_now``.

    Runs under the note's lock, so no live vaultmem writer of this note owns one; the age is a
    margin for anything else that might use the pattern. Obsidian never shows them.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        entries = [e for e in os.scandir(path.parent) if pattern.fullmatch(e.name)]
    except OSError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            if fs_now - entry.stat(follow_symlinks=False).st_ctime > STALE_TEMP:
                os.unlink(entry.path)
