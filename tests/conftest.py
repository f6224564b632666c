"""Shared test helpers: a private cache folder, a pinned clock, sample vault copies, hashing."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_vault"
CORPUS = ROOT.parent / "shared" / "corpora" / "kepano-obsidian"
# The day every test runs on, whatever the system clock says: the day after the sample
# vault's last daily note. VAULTMEM_NOW reaches subprocesses; TZ makes file times read alike.
NOW = dt.datetime(2026, 11, 29, 10, 0)
FILE_TIME = dt.datetime(2026, 11, 29, 8, 0, tzinfo=dt.UTC).timestamp()

NO_CORPORA = ("needs the public real vaults of ../shared/corpora beside the checkout, which the "
              "repository does not hold; every other test runs without them")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own parse cache and no vault from the environment."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[dt.datetime]:
    """Pin vaultmem's clock to NOW and the time zone to UTC, for this process and its children."""
    monkeypatch.setenv("VAULTMEM_NOW", NOW.isoformat())
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield NOW
    monkeypatch.undo()
    time.tzset()


def set_file_times(root: Path, stamp: float = FILE_TIME) -> None:
    """Give every file under ``root`` the same modification time (a copy's are the copy's)."""
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (stamp, stamp))


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A private copy of sample_vault, every file last modified at FILE_TIME."""
    target = tmp_path / "vault"
    shutil.copytree(SAMPLE, target)
    set_file_times(target)
    return target


def hash_tree(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (hidden ones included), by relative path."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*")) if path.is_file()
    }


def write_notes(root: Path, notes: dict[str, str]) -> None:
    """Write each note's text at its path under ``root``, folders made as needed."""
    for rel, text in notes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
