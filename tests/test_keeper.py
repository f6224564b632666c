"""The index keeper: a watcher vouches for the index, and other processes skip listing the vault."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from vaultmem.index import scan as scanning
from vaultmem.index.freshness import watcher_answer as vouch
from vaultmem.index.store import Store
from vaultmem.live.keeper import IndexKeeper
from vaultmem.recall.search import search
from vaultmem.vault import Vault

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def wait_until_vouched(vault: Vault, timeout: float = 60.0) -> bool:
    """Poll until the vault's keeper answers that the index is current."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if vouch.watcher_vouches(vault.store):
            return True
        time.sleep(0.1)
    return False


def ask(path: Path) -> bytes:
    """The keeper's answer on ``path``, asked directly (a keeper never vouches to its own
    process's scans)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(60)
        client.connect(str(path))
        client.sendall(vouch.QUESTION)
        return client.recv(64)


@contextlib.contextmanager
def keeper_on(root: Path, env: dict[str, str] | None = None, cwd: Path | None = None
              ) -> Iterator[subprocess.Popen[str]]:
    """``vaultmem watch --no-notes`` on ``root`` in another process (as users run it; ``env``
    and ``cwd``: its environment and folder, this one's when not given), once it vouches for
    the index; stopped at the end, cleanly."""
    process = subprocess.Popen([sys.executable, "-m", "vaultmem", "--vault", str(root), "watch",
                                "--no-notes"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, cwd=cwd)
    if not wait_until_vouched(Vault(root)):
        process.terminate()
        pytest.fail(f"the keeper never vouched for the index: {process.communicate()[1]}")
    yield process
    process.terminate()
    _, err = process.communicate(timeout=30)
    assert process.returncode == 0 and "Traceback" not in err, err


@pytest.fixture
def keeper_process(sample: Path) -> Iterator[subprocess.Popen[str]]:
    """A keeper on the sample copy."""
    with keeper_on(sample) as process:
        yield process


@pytest.fixture
def no_listing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every listing of a vault this process makes; the keeper's answer is waited for
    as long as a busy machine needs (a late answer would mean listing, as it should)."""
    monkeypatch.setattr(vouch, "ANSWER_SECONDS", 60.0)
    listed: list[str] = []
    real = scanning.list_vault
    monkeypatch.setattr(scanning, "list_vault", lambda config: listed.append("listed")
                        or real(config))
    return listed


def test_a_vouched_index_is_read_without_listing_the_vault(
        sample: Path, keeper_process: subprocess.Popen[str], no_listing: list[str]) -> None:
    vault = Vault(sample)
    assert "Projects/DataFlow" in vault.index.notes and no_listing == []
    assert vault.note("Lucy Tan").title == "Lucy Tan"


def test_changes_made_just_before_a_command_are_in_its_index(
        sample: Path, keeper_process: subprocess.Popen[str], no_listing: list[str]) -> None:
    (sample / "Notes").mkdir(exist_ok=True)
    (sample / "Notes" / "Fresh idea.md").write_text("About [[DataFlow]] and fernwhistles.\n")
    (sample / "People" / "Lucy Tan.md").write_text("---\ntype: person\n---\nfernwhistles\n")
    (sample / "Projects" / "DataFlow.md").unlink()
    vault = Vault(sample)
    assert "Notes/Fresh idea" in vault.index.notes and "Projects/DataFlow" not in vault.index.notes
    assert {hit.id for hit in search(vault, "fernwhistles")[:2]} == {"Notes/Fresh idea",
                                                                     "People/Lucy Tan"}
    assert vault.note("Notes/Fresh idea").links[0].resolved is None  # DataFlow is gone
    assert no_listing == []


def test_without_a_keeper_the_vault_is_listed(sample: Path, no_listing: list[str]) -> None:
    assert "Projects/DataFlow" in Vault(sample).index.notes and no_listing == ["listed"]


def test_a_dead_keepers_socket_is_ignored_and_replaced(sample: Path, no_listing: list[str]
                                                       ) -> None:
    vault = Vault(sample)
    path = vouch.socket_path(vault.store)
    path.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(path))  # bound, never listening: as a keeper killed with -9 leaves it
    started = time.monotonic()
    assert "Projects/DataFlow" in vault.index.notes and no_listing == ["listed"]
    assert time.monotonic() - started < vouch.ANSWER_SECONDS
    keeper = IndexKeeper(vault)
    try:
        assert keeper.start() and ask(path) == vouch.CURRENT
    finally:
        keeper.close()
    assert not path.exists()


def test_a_keeper_that_does_not_answer_is_waited_for_briefly(
        sample: Path, no_listing: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vouch, "ANSWER_SECONDS", 0.5)
    vault = Vault(sample)
    path = vouch.socket_path(vault.store)
    path.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as hung:
        hung.bind(str(path))
        hung.listen(1)  # accepts connections, never answers
        started = time.monotonic()
        assert "Projects/DataFlow" in vault.index.notes and no_listing == ["listed"]
        assert 0.5 <= time.monotonic() - started < 5


def test_one_keeper_per_vault(sample: Path, keeper_process: subprocess.Popen[str]) -> None:
    second = IndexKeeper(Vault(sample))
    assert not second.start()
    second.close()
    assert wait_until_vouched(Vault(sample), timeout=5)  # the first one still answers


def test_an_index_stored_since_the_watchers_listing_is_listed_again(
        sample: Path, monkeypatch: pytest.MonkeyPatch, no_listing: list[str]) -> None:
    vault = Vault(sample)
    index = vault.index
    vouch.save_listing(vault.store, index.listing, index.generation)
    monkeypatch.setattr(scanning, "watcher_vouches", lambda store, **_: True)
    assert "Projects/DataFlow" in Vault(sample).index.notes and no_listing == ["listed"]
    vault.store.stored()  # as another process storing a change would
    assert "Projects/DataFlow" in Vault(sample).index.notes and no_listing == ["listed"] * 2


def test_a_kept_index_reads_only_what_is_asked(
        sample: Path, monkeypatch: pytest.MonkeyPatch, no_listing: list[str]) -> None:
    full = Vault(sample).index
    found = [hit.id for hit in search(Vault(sample), "OCR")]
    vouch.save_listing(full.store, full.listing, full.generation)
    monkeypatch.setattr(scanning, "watcher_vouches", lambda store, **_: True)
    real = Store.states
    monkeypatch.setattr(Store, "states", lambda self, paths=None: real(self, paths) if paths
                        is not None else pytest.fail("every note's state read"))
    vault = Vault(sample)
    lucy = vault.note("Lucy Tan")
    assert "layout" not in vault.index.__dict__ and vault.index.notes._all is None
    assert lucy.to_dict() == full.notes["People/Lucy Tan"].to_dict()
    assert [hit.id for hit in search(vault, "OCR")] == found
    kept = vault.index
    assert list(kept.notes) == list(full.notes) and kept.other == full.other
    assert kept.attachments == full.attachments and kept.files == full.files
    assert kept.problems == full.problems and kept.generated.keys() == full.generated.keys()
    assert kept.resolver.resolve("DataFlow", "") == full.resolver.resolve("DataFlow", "")
    assert kept.stats.reused == len(full.notes) and no_listing == ["listed"] * 2


def test_a_keeper_in_this_process_does_not_slow_its_own_scans(sample: Path) -> None:
    keeper = IndexKeeper(Vault(sample))
    try:
        assert keeper.start()
        (sample / "People" / "Lucy Tan.md").write_text("---\ntype: person\n---\nfernwhistles\n")
        started = time.monotonic()
        assert search(Vault(sample), "fernwhistles")[0].id == "People/Lucy Tan"
        assert time.monotonic() - started < vouch.ANSWER_SECONDS  # it never asks itself
    finally:
        keeper.close()
