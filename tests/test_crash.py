"""A writer killed at random moments leaves every note whole and no temp file in view."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vaultmem.write import files

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from crash_trials import failed, run_trials


def test_killed_writers_leave_whole_notes_and_no_visible_temp_file(tmp_path: Path) -> None:
    tally = run_trials(10, seed=7, work=tmp_path)
    assert tally.trials == 10 and tally.mid_write > 0
    assert (tally.partial, tally.visible_temp, tally.wrong_state) == (0, 0, 0)
    assert not failed(tally), tally.failures


def test_a_write_removes_only_its_own_notes_old_temp_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Note.md").write_text("x\n")
    names = [".Note.md.abcd_123.tmp", ".Other.md.abcd_123.tmp", ".Note.md.x.md.abcd_123.tmp",
             ".Note.md.backup.tmp"]
    for name in names:
        (tmp_path / name).write_text("left over\n")
    files.update(tmp_path, "Note.md", lambda text: text)
    assert (tmp_path / names[0]).exists()  # too new: it might be a live writer's
    monkeypatch.setattr(files, "STALE_TEMP", 0.0)
    files.update(tmp_path, "Note.md", lambda text: text)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == \
        sorted(names[1:])
