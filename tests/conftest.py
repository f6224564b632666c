"""Shared test helpers: a private cache folder, sample vault copies, vault hashing."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_vault"
CORPUS = ROOT.parent / "shared" / "corpora" / "kepano-obsidian"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own parse cache and no vault from the environment."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A private copy of sample_vault."""
    target = tmp_path / "vault"
    shutil.copytree(SAMPLE, target)
    return target


def hash_tree(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (hidden ones included), by relative path.

    Lock files (``.vaultmem/locks/``, empty, outside Obsidian's view) are left out: a refused
    write may have taken its lock.
    """
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".vaultmem/locks" not in path.relative_to(root).as_posix()
    }
