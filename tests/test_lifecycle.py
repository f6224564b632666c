"""Lifecycle: stale entries, archive, forget to the trash, restore, purge after the retention."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from vaultmem.curate.lifecycle import StillLinked, forget, restore, stale, trash
from vaultmem.errors import UsageError
from vaultmem.vault import Vault

from .conftest import hash_tree
from .test_cli import run

TODAY = dt.date(2026, 11, 29)


def test_stale_entries(sample: Path) -> None:
    old = dt.datetime(2026, 5, 1).timestamp()
    os.utime(sample / "Facts" / "Priya Nair - client count.md", (old, old))
    os.utime(sample / "Projects" / "Invoice Inbox.md", (old, old))
    found = {s.id: s.reason for s in stale(Vault(sample), today=TODAY)}
    assert found["Facts/DataFlow - free beta"] == "expired on 2026-06-30"
    assert found["Facts/Priya Nair - client count"] == (
        "not updated since 2026-05-01 and not referenced in the last 30 days")
    assert "Projects/Invoice Inbox" not in found  # NOW.md links it
    assert "People/Lucy Tan" not in found
    assert "Meetings/2026-11-20 Pilot review" not in found  # a record, not an entry
    out = run(sample, "stale")[1]
    assert "[[Facts/DataFlow - free beta]]: expired on 2026-06-30\n" in out
    run(sample, "archive", "Facts/DataFlow - free beta")  # stale -> archived
    assert "Facts/DataFlow - free beta" not in {s.id for s in stale(Vault(sample), today=TODAY)}


def test_archive_keeps_the_note_in_place(sample: Path) -> None:
    code, out, _ = run(sample, "archive", "Use Tesseract for OCR", "--date", "2026-11-29")
    assert (code, out) == (0, "updated Decisions/Use Tesseract for OCR.md\n")
    note = Vault(sample).note("Use Tesseract for OCR")
    assert note.frontmatter["status"] == "archived"
    assert (sample / "Decisions" / "Use Tesseract for OCR.md").read_text().endswith(
        "- 2026-11-29: archived\n")


def test_forget_needs_force_when_linked_and_restore_puts_it_back(sample: Path) -> None:
    original = (sample / "Decisions" / "Use Tesseract for OCR.md").read_bytes()
    with pytest.raises(StillLinked, match="--force"):
        forget(Vault(sample), "Use Tesseract for OCR")
    moved = forget(Vault(sample), "Use Tesseract for OCR", force=True,
                   when=dt.datetime(2026, 11, 1))
    assert moved == ".trash/Use Tesseract for OCR.md"
    assert not (sample / "Decisions" / "Use Tesseract for OCR.md").exists()
    record = json.loads((sample / ".trash" / ".vaultmem-trash.json").read_text())
    assert record == {"Use Tesseract for OCR.md": {"from": "Decisions/Use Tesseract for OCR.md",
                                                   "deleted": "2026-11-01"}}
    vault = Vault(sample)
    assert "Decisions/Use Tesseract for OCR" not in vault.notes
    assert restore(vault, "Use Tesseract for OCR") == "Decisions/Use Tesseract for OCR.md"
    assert (sample / "Decisions" / "Use Tesseract for OCR.md").read_bytes() == original


def test_trash_retention_with_a_fake_clock(sample: Path) -> None:
    forget(Vault(sample), "Facts/DataFlow - free beta", force=True, when=dt.datetime(2026, 10, 1))
    forget(Vault(sample), "Processing Time", force=True, when=dt.datetime(2026, 11, 20))
    rows = trash(Vault(sample), purge=True, today=TODAY)
    assert [(r["name"], r["purged"]) for r in rows] == [
        ("DataFlow - free beta.md", True), ("Processing Time.md", False)]
    assert not (sample / ".trash" / "DataFlow - free beta.md").exists()
    assert (sample / ".trash" / "Processing Time.md").exists()
    assert [r["name"] for r in trash(Vault(sample), today=TODAY)] == ["Processing Time.md"]


def test_same_name_twice_in_the_trash(sample: Path) -> None:
    (sample / "Notes").mkdir()
    (sample / "Notes" / "NOW.md").write_text("another NOW\n")
    first = forget(Vault(sample), "Notes/NOW", force=True)
    (sample / "Notes" / "NOW.md").write_text("and again\n")
    second = forget(Vault(sample), "Notes/NOW", force=True)
    assert (first, second) == (".trash/NOW.md", ".trash/NOW 2.md")


def test_cli_forget_restore_trash(sample: Path) -> None:
    code, _, err = run(sample, "forget", "Use PaddleOCR")
    assert code == 1 and "--force" in err
    assert run(sample, "forget", "Home", "--force")[1] == "moved to .trash/Home.md\n"
    assert run(sample, "trash")[1].endswith("  Home.md  (from Home.md)\n")
    assert run(sample, "restore", "Home")[1] == "restored Home.md\n"
    assert run(sample, "trash")[1] == "The trash is empty.\n"
    code, _, err = run(sample, "restore", "Nothing")
    assert code == 1 and "no note 'Nothing'" in err


def test_archived_lesson_leaves_the_agent_section(sample: Path) -> None:
    line = "- Lesson (confirmed): Rafael - Deskew before OCR"
    ask = ("context", "--agent", "Rafael", "--query", "deskew")
    assert line in run(sample, *ask)[1]
    run(sample, "archive", "Rafael - Deskew before OCR")
    assert "- Lesson (" not in run(sample, *ask)[1].split("## Relevant")[0]


def test_dry_runs_change_nothing(sample: Path) -> None:
    before = hash_tree(sample)
    out = run(sample, "forget", "Home", "--force", "--dry-run")[1]
    assert out == "would move to .trash/Home.md\n"
    assert hash_tree(sample) == before
    forget(Vault(sample), "Home", force=True, when=dt.datetime(2026, 1, 1))
    before = hash_tree(sample)
    assert run(sample, "trash", "--purge", "--dry-run")[1].endswith("Home.md  (from Home.md)"
                                                                     "  would be purged\n")
    assert run(sample, "restore", "Home", "--dry-run")[1] == "would restore Home.md\n"
    assert hash_tree(sample) == before


def test_restore_by_trash_name_and_refuses_a_guess(sample: Path) -> None:
    for folder in ("A", "B", "C"):
        (sample / folder).mkdir()
        (sample / folder / "X.md").write_text(f"from {folder}\n")
    moved = [forget(Vault(sample), f"{folder}/X") for folder in ("A", "B", "C")]
    assert moved == [".trash/X.md", ".trash/X 2.md", ".trash/X 3.md"]
    assert restore(Vault(sample), "X") == "A/X.md"  # X.md is exactly a trash name
    with pytest.raises(UsageError, match="more than one note in the trash"):
        restore(Vault(sample), "x")
    assert restore(Vault(sample), "C/X") == "C/X.md"
