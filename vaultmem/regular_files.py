"""Reading a file that must be a regular one, never blocking on a named pipe or a device."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotRegularFile(OSError):
    """The path names something else than a regular file (a named pipe, a socket, a device)."""


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``); NotRegularFile for any
    other kind of file, found without waiting (opening a named pipe would block)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"{path} is not a regular file ({_kind(mode)})")
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read() if limit is None else handle.read(limit)
    finally:
        os.close(fd)


def note_text(data: bytes) -> str:
    """A note file's bytes as the text every reader sees: UTF-8 (a bad byte as U+FFFD), without
    a byte order mark."""
    return data.decode("utf-8", "replace").removeprefix("\ufeff")


def read_note_text(path: str | Path, limit: int) -> str:
    """The text of the note file at ``path`` as :func:`note_text` gives it ("" when it cannot be
    read: it is gone, or is no regular file)."""
    try:
        return note_text(read_regular(path, limit))
    except OSError:
        return ""


def _kind(mode: int) -> str:
    """What kind of file ``mode`` describes, in words."""
    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"
