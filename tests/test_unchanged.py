"""A scan whose listing is the one the index was left holding reads the index as it is."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from vaultmem.index import parsing
from vaultmem.index.store import Store
from vaultmem.read.record import Entry
from vaultmem.vault import Vault


@pytest.fixture
def no_states(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every time a scan reads every stored note's state."""
    read: list[str] = []
    real = Store.states
    def counted(self: Store, paths: list[str] | None = None) -> dict[str, Entry]:
        if paths is None:
            read.append("states")
        return real(self, paths)

    monkeypatch.setattr(Store, "states", counted)
    return read


def test_an_unchanged_vault_is_read_from_the_index_as_it_is(sample: Path,
                                                            no_states: list[str]) -> None:
    full = Vault(sample).index
    assert no_states == ["states"]
    vault = Vault(sample)
    again = vault.index
    assert no_states == ["states"] and again.notes._all is None
    assert (again.stats.parsed, again.stats.reused) == (0, len(full.notes))
    assert list(again.notes) == list(full.notes) and again.other == full.other
    assert again.attachments == full.attachments and again.files == full.files
    assert again.problems == full.problems and again.generated.keys() == full.generated.keys()
    assert vault.note("Lucy Tan").to_dict() == full.notes["People/Lucy Tan"].to_dict()


def test_a_changed_file_is_parsed_and_then_read_as_it_is(sample: Path,
                                                         no_states: list[str]) -> None:
    _ = Vault(sample).index
    lucy = sample / "People" / "Lucy Tan.md"
    lucy.write_text(lucy.read_text() + "\nNow also on [[Invoice Inbox]].\n")
    changed = Vault(sample)
    assert changed.index.stats.parsed == 1 and no_states == ["states"] * 2
    assert "Projects/Invoice Inbox" in changed.graph.successors("People/Lucy Tan")
    settled = Vault(sample)
    assert settled.index.stats.parsed == 0 and no_states == ["states"] * 2
    assert "Projects/Invoice Inbox" in settled.graph.successors("People/Lucy Tan")


def test_a_touched_file_with_the_same_size_and_mtime_is_still_seen(sample: Path) -> None:
    _ = Vault(sample).index
    lucy = sample / "People" / "Lucy Tan.md"
    before = lucy.stat()
    lucy.write_text(lucy.read_text().replace("Lucy", "Lucz", 1))
    os.utime(lucy, ns=(before.st_atime_ns, before.st_mtime_ns))  # only the change time moved
    assert Vault(sample).index.stats.parsed == 1


def test_another_processes_store_makes_the_next_scan_compare_states(
        sample: Path, no_states: list[str]) -> None:
    vault = Vault(sample)
    _ = vault.index
    assert vault.store is not None
    vault.store.stored()  # as a scan of another process storing would
    assert Vault(sample).index.stats.reused == len(vault.notes) and len(no_states) == 2


def test_excluding_a_folder_is_seen_though_no_file_changed(sample: Path) -> None:
    assert "People/Lucy Tan" in Vault(sample).index.notes
    (sample / ".obsidian").mkdir(exist_ok=True)
    (sample / ".obsidian" / "app.json").write_text(json.dumps({"userIgnoreFilters": ["People/"]}))
    index = Vault(sample).index
    assert "People/Lucy Tan" not in index.notes and index.other["People/Lucy Tan"] == "excluded"


def test_a_note_that_failed_to_parse_is_tried_again_though_no_file_changed(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("a bug in the parser")  # a missing package stops the scan instead

    with monkeypatch.context() as patched:
        patched.setattr(parsing, "_entry", broken)
        failed = Vault(sample).index
        assert {p.kind for p in failed.problems} == {"parse-error"}
    again = Vault(sample)
    assert again.index.stats.parsed == len(failed.notes) == 30
    assert not [p for p in again.index.problems if p.kind == "parse-error"]
    assert Vault(sample).index.stats.parsed == 0


def test_equal_listings_have_one_digest_whatever_objects_they_share() -> None:
    from vaultmem.index.freshness.unchanged import listing_digest
    from vaultmem.read.walk import FileInfo, Listing

    role = "".join(["sour", "ce"])  # equal to "source", another object
    shared = Listing([FileInfo("a.md", 1, 2, "source", 3, 4), FileInfo("b.md", 1, 2, "source")])
    apart = Listing([FileInfo("a.md", 1, 2, role, 3, 4), FileInfo("b.md", 1, 2, "".join(role))])
    assert listing_digest(shared) == listing_digest(apart)
    assert listing_digest(shared) != listing_digest(
        Listing([FileInfo("a.md", 1, 2, "source", 3, 5), FileInfo("b.md", 1, 2, "source")]))
