"""The parse cache, kept outside the vault (so sync never copies it), keyed by its real path."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path

from .. import __version__
from ..model import Note
from ..write.atomic import atomic_write, private_dir

FORMAT = 1
Entries = dict[str, tuple[int, int, Note]]
PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache
def code_stamp() -> str:
    """A hash of the parsing code, so a changed parser never reuses old results."""
    digest = hashlib.sha256()
    for source in sorted([PACKAGE / "model.py", PACKAGE / "config.py",
                          *(PACKAGE / "read").glob("*.py")]):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/vaultmem`` (default ``~/.cache/vaultmem``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "vaultmem"


class Cache:
    """Parsed notes of one vault by path, with the (mtime, size) they were parsed at."""

    def __init__(self, vault_root: Path, fingerprint: str) -> None:
        key = hashlib.sha256(str(vault_root.resolve()).encode()).hexdigest()[:20]
        self.path = cache_root() / key / "notes.pickle"
        self.stamp = (FORMAT, __version__, code_stamp(), fingerprint)

    def load(self) -> Entries:
        """The cached entries; a missing, stale or damaged cache is simply empty."""
        try:
            with open(self.path, "rb") as handle:
                stamp, entries = pickle.load(handle)
        except Exception:  # any damage means "rebuild", never a crash
            return {}
        return entries if stamp == self.stamp and isinstance(entries, dict) else {}

    def save(self, entries: Entries) -> None:
        """Store ``entries`` atomically in a private folder."""
        private_dir(self.path.parent)
        data = pickle.dumps((self.stamp, entries), protocol=pickle.HIGHEST_PROTOCOL)
        atomic_write(self.path, data, mode=0o600)
