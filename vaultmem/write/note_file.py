"""Open a note to edit: only a regular file (never waiting on a named pipe), only UTF-8."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import VaultmemError
from ..read.walk import file_kind
from .paths import inside
from .watched import read_all


class NotWritable(VaultmemError):
    """A note cannot be edited safely (not UTF-8, not a regular file, unusable frontmatter)."""


def read_text(root: Path, rel: str) -> str | None:
    """The text of vault note ``rel`` as the writer reads it (None: there is no such file),
    refused alike when it cannot be rewritten (for dry runs)."""
    fd = open_note(inside(root, rel), rel)
    if fd is None:
        return None
    try:
        return decode(rel, read_all(fd))
    finally:
        os.close(fd)


def open_note(path: Path, rel: str) -> int | None:
    """A read-only descriptor of the note (None: there is no such file); NotWritable when it
    is not a regular file. Opening never waits, as it would on a named pipe with no writer."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError:
        if path.exists() and not path.is_file():  # a socket cannot be opened at all
            _refuse_special(rel, os.stat(path).st_mode)
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        _refuse_special(rel, mode)
    os.set_blocking(fd, True)
    return fd


def _refuse_special(rel: str, mode: int) -> None:
    """Raise NotWritable for a vault path that is not a regular file."""
    raise NotWritable(f"{rel} is not a regular file ({file_kind(mode)}); vaultmem reads and "
                      "writes only regular note files; remove it or rename it without .md")


def decode(rel: str, data: bytes) -> str:
    """Text of a note to edit; refuses what cannot be rewritten without loss."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotWritable(f"{rel} is not valid UTF-8 (byte {exc.start}); vaultmem will not "
                          "rewrite it; re-save it as UTF-8 first") from exc
