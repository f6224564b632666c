"""Whether anything in a vault changed since the last look, from Linux inotify, without threads.

The kernel queues an event when a write or rename happens, before the writing call returns; a
long-running server drains the queue at the start of each call, so a change made before the
call is always seen and an unchanged vault costs no file status reads. Where inotify is missing
(another OS) or runs out (``max_user_watches``, a queue overflow), ask ``changed()`` anyway: it
then answers True, and the caller checks every file as it would without a watch.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import struct
from pathlib import Path

IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x002, 0x004, 0x008
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x040, 0x080, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF, IN_Q_OVERFLOW, IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
IN_ISDIR, IN_NONBLOCK, IN_CLOEXEC = 0x40000000, 0o4000, 0o2000000
MASK = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE
        | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
HEADER = struct.Struct("iIII")  # wd, mask, cookie, length of the name that follows


class VaultWatch:
    """Changes under ``root`` (dot folders ignored), seen through one inotify descriptor."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.fd = -1
        self.folders: dict[int, Path] = {}
        name = ctypes.util.find_library("c")
        self.libc = ctypes.CDLL(name, use_errno=True) if name else None
        self.whole = self._start()  # False: some folder is not watched; always "changed"

    def changed(self) -> bool:
        """True when something changed since the last look (or the watch cannot tell)."""
        return self.changes() != set()

    def changes(self) -> set[str] | None:
        """The vault paths of the files that changed since the last look; None when the watch
        cannot tell which (a folder came, went or moved, events were lost, or some folder is
        not watched): then every file is checked."""
        events = self._events()
        relevant = [(mask, wd, name) for mask, wd, name in events if not name.startswith(".")]
        if any(mask & IN_ISDIR for mask, _, _ in relevant) or any(
                mask & IN_Q_OVERFLOW for mask, _, _ in events):
            self.whole = self._start()  # folders came, went or moved; or events were lost
            return None
        if not self.whole:
            return None
        paths = {self._path(wd, name) for _, wd, name in relevant}
        return None if None in paths else {path for path in paths if path is not None}

    def _path(self, wd: int, name: str) -> str | None:
        """The vault path of ``name`` in the folder watched as ``wd`` (None: not known)."""
        folder = self.folders.get(wd)
        if folder is None or not name:
            return None
        return (folder / name).relative_to(self.root).as_posix()

    def close(self) -> None:
        """Stop watching."""
        if self.fd >= 0:
            os.close(self.fd)
        self.fd, self.whole = -1, False

    def _start(self) -> bool:
        """Watch every folder of the vault afresh; False when that is not possible."""
        self.close()
        if self.libc is None or not hasattr(self.libc, "inotify_init1"):
            return False
        self.fd = self.libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        return self.fd >= 0 and all(self._watch(Path(folder)) for folder in self._folders())

    def _folders(self) -> list[str]:
        """The vault's folders, dot folders left out, symlinked ones followed once (as the
        vault is listed)."""
        found, seen = [], set()
        for folder, names, _ in os.walk(self.root, followlinks=True):
            stat = os.stat(folder)
            if (stat.st_dev, stat.st_ino) in seen:
                names[:] = []
                continue
            seen.add((stat.st_dev, stat.st_ino))
            names[:] = [name for name in names if not name.startswith(".")]
            found.append(folder)
        return found

    def _watch(self, folder: Path) -> bool:
        """Watch one folder; False when the system refuses (a folder gone meanwhile is fine:
        its removal is an event already)."""
        assert self.libc is not None
        wd = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), MASK)
        if wd >= 0:
            self.folders[wd] = folder
        return wd >= 0 or ctypes.get_errno() == errno.ENOENT

    def _events(self) -> list[tuple[int, int, str]]:
        """Every queued event: (mask, watch descriptor, file name)."""
        found: list[tuple[int, int, str]] = []
        while self.fd >= 0:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            offset = 0
            while offset < len(data):
                wd, mask, _, length = HEADER.unpack_from(data, offset)
                raw = data[offset + HEADER.size : offset + HEADER.size + length]
                offset += HEADER.size + length
                found.append((mask, wd, os.fsdecode(raw.rstrip(b"\0"))))
        return found
