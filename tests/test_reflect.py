"""reflect: the nightly maintenance on a copy of the sample vault, and its idempotence."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from vaultmem.curate.learn import entries_of
from vaultmem.curate.reflect import reflect
from vaultmem.vault import Vault
from vaultmem.write.journal import now_update
from vaultmem.write.sections import section_lines

from .conftest import hash_tree
from .test_cli import run

NEXT_DAY = dt.date(2026, 11, 30)


def test_reflect_does_the_nightly_jobs_and_a_second_run_changes_nothing(sample: Path) -> None:
    got = reflect(Vault(sample), today=NEXT_DAY)
    changed = [r.path for r in got.changed]
    assert changed[:5] == ["Learnings/ERRORS.md", "Lessons/pdf.md", "Daily/2026-11-29.md",
                           "Daily/2026-11-29.md", "NOW.md"]
    assert {"_vaultmem/Stale.md", "_vaultmem/Conflicts.md",
            "_vaultmem/index/Memory index.md"} <= set(changed)
    errors = entries_of((sample / "Learnings" / "ERRORS.md").read_text())
    assert [(e.value("Pattern-Key"), e.value("Status")) for e in errors] == [
        ("pdf.password-protected", "promoted"), ("ocr.timeout-large-pdf", "pending")]
    lesson = (sample / "Lessons" / "pdf.md").read_text()
    assert "## Rule\n- Detect encryption before OCR, skip the file and ask the customer for an " \
           "unlocked copy.\n" in lesson and "- ERR-20261118-001 ([[ERRORS]])" in lesson
    daily = (sample / "Daily" / "2026-11-29.md").read_text()
    assert daily.endswith("### 23:59 — Done: Weekly KPI notes updated\n\n"
                          "### 23:59 — Done: Second GPU installed\n")
    assert section_lines((sample / "NOW.md").read_text(), "Today's Completions") == []
    assert "- [[Facts/DataFlow - free beta]]: expired on 2026-06-30" in (
        sample / "_vaultmem" / "Stale.md").read_text()
    before = hash_tree(sample)
    assert reflect(Vault(sample), today=NEXT_DAY).changed == []
    assert hash_tree(sample) == before


def test_dry_run_writes_nothing(sample: Path) -> None:
    before = hash_tree(sample)
    got = reflect(Vault(sample), today=NEXT_DAY, dry_run=True)
    assert got.changed and all(r.action.startswith("would ") for r in got.changed)
    assert hash_tree(sample) == before


def test_completions_of_today_stay_and_logged_ones_are_not_logged_twice(sample: Path) -> None:
    day = dt.datetime(2026, 12, 1, 9, 30)
    now_update(Vault(sample), "done", "Ship the Xero export", when=day)
    reflect(Vault(sample), today=day.date())
    assert "Ship the Xero export" in (sample / "NOW.md").read_text()
    reflect(Vault(sample), today=day.date() + dt.timedelta(days=1))
    daily = (sample / "Daily" / "2026-12-01.md").read_text()
    assert daily.count("Done: Ship the Xero export") == 1
    assert "Ship the Xero export" not in (sample / "NOW.md").read_text()


def test_long_memory_warns(sample: Path) -> None:
    with (sample / "MEMORY.md").open("a") as memory:
        memory.write("".join(f"- fact {i}\n" for i in range(30)))
    got = reflect(Vault(sample), today=NEXT_DAY)
    assert got.warnings == ["MEMORY.md has 54 lines (more than 30); move detail into notes and "
                            "keep links there"]


def test_cli_reflect_twice(sample: Path) -> None:
    code, out, _ = run(sample, "reflect", "--json")
    assert code == 0 and json.loads(out)["changed"]
    code, out, _ = run(sample, "reflect")
    assert (code, out.splitlines()[-1].split(";")[0]) == (0, "0 change(s)")


def test_stale_list_is_stable_once_index_notes_exist(sample: Path) -> None:
    later = dt.date(2027, 6, 1)
    first = reflect(Vault(sample), today=later)
    listed = (sample / "_vaultmem" / "Stale.md").read_text()
    assert "[[Facts/Priya Nair - client count]]" in listed  # not saved by the index's links
    assert first.changed and reflect(Vault(sample), today=later).changed == []
    assert (sample / "_vaultmem" / "Stale.md").read_text() == listed


def test_a_due_key_named_like_another_note_gets_its_own_lesson(sample: Path) -> None:
    errors = sample / "Learnings" / "ERRORS.md"
    errors.write_text(errors.read_text() + "".join(
        f"\n## [ERR-2026112{i}-001] Upload timed out\n**Pattern-Key**: dataflow.timeout\n"
        f"**Count**: {i}\n**Status**: pending\n**Logged**: 2026-11-2{i}\n\n### Action\n"
        "Retry uploads once.\n" for i in (1, 2, 3)))
    got = reflect(Vault(sample), today=NEXT_DAY)
    assert got.warnings == []
    lesson = (sample / "Lessons" / "dataflow lessons.md").read_text()
    assert "## Rule\n- Retry uploads once.\n" in lesson
    assert "**Promoted-To**: [[dataflow lessons]]" in errors.read_text()


def test_long_and_unchecked_completions(sample: Path) -> None:
    day = dt.datetime(2026, 12, 1, 9, 30)
    long = ("Migrated the whole invoice pipeline to the new PaddleOCR server with GPU "
            "batching and retries")
    now_update(Vault(sample), "done", long, when=day)
    board = sample / "NOW.md"
    board.write_text(board.read_text() + "- [ ] Not finished yet\n")
    reflect(Vault(sample), today=day.date() + dt.timedelta(days=1))
    daily = (sample / "Daily" / "2026-12-01.md").read_text()
    assert daily.count("Migrated the whole invoice pipeline") == 2  # title and text, once
    assert "Not finished yet" not in daily
