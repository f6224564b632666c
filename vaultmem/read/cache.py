"""The parse cache, kept outside the vault (so sync never copies it), keyed by its real path."""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .. import __version__
from ..write.files import atomic_write, private_dir
from .record import Entry

FORMAT = 4
SHARDS = 16
Entries = dict[str, Entry]
PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache
def code_stamp() -> str:
    """A hash of the code that makes what the cache holds (parser, search and facts shards), so
    a changed vaultmem never reuses results of an older one."""
    digest = hashlib.sha256()
    sources = [PACKAGE / "model.py", PACKAGE / "config.py", PACKAGE / "secrets.py",
               PACKAGE / "recall" / "doc.py",
               PACKAGE / "recall" / "text.py", PACKAGE / "recall" / "inverted.py",
               PACKAGE / "curate" / "extract.py", *(PACKAGE / "read").glob("*.py")]
    for source in sorted(sources):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def folder_stamp(folder: str) -> str:
    """A hash of one package folder's code (results computed by it are keyed by it too)."""
    digest = hashlib.sha256()
    for source in sorted((PACKAGE / folder).glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/vaultmem`` (default ``~/.cache/vaultmem``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "vaultmem"


class Cache:
    """Parsed notes of one vault by path, with the (mtime, size) they were parsed at.

    Split into shards by a hash of the path, so a change to one note rewrites one small file.
    Stored with marshal, which is specific to the Python version (part of the stamp) and trusts
    its input: the folder is private to the user (0700).
    """

    def __init__(self, vault_root: Path, fingerprint: str) -> None:
        key = hashlib.sha256(str(vault_root.resolve()).encode()).hexdigest()[:20]
        self.folder = cache_root() / key
        self.stamp = f"{FORMAT}|{__version__}|{sys.version}|{code_stamp()}|{fingerprint}"

    def make_private(self) -> None:
        """Create the cache folders (``vaultmem/`` and this vault's) readable by the owner only."""
        private_dir(self.folder.parent)
        private_dir(self.folder)

    def shard_path(self, shard: int) -> Path:
        """The file holding one shard."""
        return self.folder / f"notes-{shard:02d}.marshal"

    def load(self) -> Entries:
        """The cached entries; a missing, stale or damaged shard is simply empty."""
        entries: Entries = {}
        for shard in range(SHARDS):
            try:
                stamp, part = marshal.loads(self.shard_path(shard).read_bytes())
            except Exception:  # any damage means "parse again", never a crash
                continue
            if stamp == self.stamp and isinstance(part, dict):
                entries.update(part)
        return entries

    def save(self, entries: Entries, changed: Iterable[str] | None = None) -> None:
        """Store the shards holding ``changed`` paths (all when None), atomically, privately.

        No fsync: a cache lost in a crash is rebuilt.
        """
        self.make_private()
        dirty = set(range(SHARDS)) if changed is None else {shard_of(p) for p in changed}
        parts: dict[int, Entries] = {shard: {} for shard in dirty}
        for path, entry in entries.items():
            part = parts.get(shard_of(path))
            if part is not None:
                part[path] = entry
        for shard, part in parts.items():
            data = marshal.dumps((self.stamp, part))
            atomic_write(self.shard_path(shard), data, mode=0o600, durable=False)


    def derived_path(self, kind: str, shard: int) -> Path:
        """The file holding one shard of a derived index (``search`` or ``facts``)."""
        return self.folder / f"{kind}-{shard:02d}.marshal"

    def load_derived(self, kind: str) -> dict[int, Any]:
        """Stored shards of a derived index by number (missing or stale ones left out)."""
        found = {}
        for shard in range(SHARDS):
            try:
                stamp, data = marshal.loads(self.derived_path(kind, shard).read_bytes())
            except Exception:  # a damaged shard is rebuilt
                continue
            if stamp == self.stamp:
                found[shard] = data
        return found

    def load_result(self, name: str, key: str) -> Any:
        """A stored result computed from the vault state ``key``, or None."""
        try:
            stamp, stored_key, data = marshal.loads((self.folder / f"{name}.marshal").read_bytes())
        except Exception:  # missing or damaged: compute again
            return None
        return data if stamp == self.stamp and stored_key == key else None

    def save_result(self, name: str, key: str, data: Any) -> None:
        """Store a result computed from the vault state ``key``."""
        self.make_private()
        atomic_write(self.folder / f"{name}.marshal", marshal.dumps((self.stamp, key, data)),
                     mode=0o600, durable=False)

    def save_derived(self, kind: str, shard: int, data: Any) -> None:
        """Store one shard of a derived index."""
        self.make_private()
        atomic_write(self.derived_path(kind, shard), marshal.dumps((self.stamp, data)),
                     mode=0o600, durable=False)


def shard_of(path: str) -> int:
    """The shard a vault path belongs to (stable across runs and machines)."""
    return zlib.crc32(path.encode("utf-8")) % SHARDS


def refresh(cache: Cache, updates: Entries) -> None:
    """Replace the cached entries of a few paths (after vaultmem wrote them)."""
    shards = {shard_of(path) for path in updates}
    entries = {path: entry for path, entry in cache.load().items() if shard_of(path) in shards}
    entries.update(updates)
    cache.save(entries, list(updates))
