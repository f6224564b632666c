"""Sync tools' traces: conflict copies are reported, never read as a second truth."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from vaultmem.linting import lint
from vaultmem.recall.search import search
from vaultmem.vault import Vault

from .test_cli import run

MARKERS = "\n<<<<<<< HEAD\n- Lucy is in Lisbon.\n=======\n- Lucy is in Porto.\n>>>>>>> laptop\n"


def test_conflict_copies_are_reported_not_indexed(sample: Path) -> None:
    lucy = sample / "People" / "Lucy Tan.md"
    shutil.copy(lucy, lucy.with_name("Lucy Tan.sync-conflict-20261129-101500-ABCDEFG.md"))
    shutil.copy(sample / "NOW.md", sample / "NOW (Marco's conflicted copy 2026-11-29).md")
    vault = Vault(sample)
    assert not [i for i in vault.notes if "conflict" in i]
    assert [h.id for h in search(vault, "Lucy Tan sync-conflict", limit=50)
            if "conflict" in h.id] == []
    found = [(f.kind, f.notes[0], f.suggestion) for f in lint(vault) if f.kind == "sync-copy"]
    assert found == [
        ("sync-copy", "NOW (Marco's conflicted copy 2026-11-29)",
         "merge what differs into [[NOW]], then delete the copy"),
        ("sync-copy", "People/Lucy Tan.sync-conflict-20261129-101500-ABCDEFG",
         "merge what differs into [[People/Lucy Tan]], then delete the copy")]
    code, _, _ = run(sample, "lint", "--kind", "sync-copy", "--check")
    assert code == 1


def test_git_conflict_markers_are_reported_with_their_line(sample: Path) -> None:
    marco = sample / "People" / "Marco Diaz.md"
    lines = marco.read_text().count("\n")
    marco.write_text(marco.read_text() + MARKERS)
    henrik = sample / "People" / "Henrik Olsen.md"
    henrik.write_text(henrik.read_text() + "\n```diff" + MARKERS + "```\n")  # documented, fine
    found = [(f.notes[0], f.line) for f in lint(Vault(sample)) if f.kind == "conflict-markers"]
    assert found == [("People/Marco Diaz", lines + 2)]


def test_conflicts_lists_copies_and_resolve_leaves_them_to_a_person(sample: Path) -> None:
    lucy = sample / "People" / "Lucy Tan.md"
    copy = lucy.with_name("Lucy Tan.sync-conflict-20261129-101500-ABCDEFG.md")
    shutil.copy(lucy, copy)
    code, out, _ = run(sample, "conflicts", "--kind", "sync-copy", "--json")
    found = json.loads(out)["findings"]
    assert code == 0 and [f["notes"] for f in found] == [
        ["People/Lucy Tan", "People/Lucy Tan.sync-conflict-20261129-101500-ABCDEFG"]]
    code, _, err = run(sample, "resolve", found[0]["id"], "--keep", "Lucy Tan")
    assert code == 1 and "merge what differs into [[People/Lucy Tan]]" in err
    assert copy.exists()
