"""Sync tools' traces: conflict copies are reported, never read as a second truth."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vaultmem.check.linting import lint
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


def test_concatenated_versions_are_reported_where_the_note_starts_over(sample: Path) -> None:
    lucy = sample / "People" / "Lucy Tan.md"
    text = lucy.read_text()
    lucy.write_text(text + "\n" + text.replace("UTC+8", "UTC+7"))  # LiveSync's "Concat both"
    daily = sample / "Daily" / "2026-11-27.md"
    body = daily.read_text()
    entry = body[body.index("### 09:00"):body.index("### 14:10")]
    daily.write_text(body + "\n" + entry)  # one entry appended twice by a merge
    plain = "# Plan\n## Goals\n- ship\n## Risks\n- none\n"
    (sample / "Plan.md").write_text(plain + plain.replace("none", "GPU"))  # no frontmatter
    found = [(f.notes[0], f.line) for f in lint(Vault(sample)) if f.kind == "sync-duplicate"]
    assert found == [("Daily/2026-11-27", body.count("\n") + 2),
                     ("People/Lucy Tan", text.count("\n") + 2), ("Plan", 6)]
    code, out, _ = run(sample, "conflicts", "--kind", "sync-copy", "--json")
    assert code == 0 and [f["notes"] for f in json.loads(out)["findings"]] == [
        ["Daily/2026-11-27"], ["People/Lucy Tan"], ["Plan"]]


def test_repeated_headings_with_their_own_content_are_not_duplicates(sample: Path) -> None:
    daily = sample / "Daily" / "2026-11-27.md"
    daily.write_text(daily.read_text() + "\n### 09:00 — Weekly KPIs\nA second, different note.\n"
                     "\n## Notes\n\n## Notes\n\n---\ntype: daily\n---\n")
    assert [f for f in lint(Vault(sample)) if f.kind == "sync-duplicate"] == []


def test_conflict_markers_are_listed_by_conflicts_too(sample: Path) -> None:
    marco = sample / "People" / "Marco Diaz.md"
    lines = marco.read_text().count("\n")
    marco.write_text(marco.read_text() + MARKERS)
    code, out, _ = run(sample, "conflicts", "--kind", "sync-copy", "--json")
    found = json.loads(out)["findings"]
    assert code == 0 and [(f["notes"], f["line"]) for f in found] == [
        (["People/Marco Diaz"], lines + 2)]
    code, _, err = run(sample, "resolve", found[0]["id"], "--auto")
    assert code == 1 and "keep one version by hand" in err


@pytest.mark.parametrize("text", [
    # no frontmatter: a blank first line makes the block below plain text to Obsidian
    "\n---\naddress: Home\nemail: a@b.c\n---\n# Contact\n",
    # the same properties shown again inside a code block, as a template or a how-to does
    "---\ntype: note\ntags: x\n---\n# How to\n\n```yaml\n---\ntype: note\ntags: x\n---\n```\n",
    "---\ntype: note\n---\nBefore\n~~~\n---\ntype: note\n---\n~~~\nAfter\n",
    # a saved chat: the turns' headings alternate by design, each with its own text
    "##### You said:\nWhy?\n###### ChatGPT said:\nBecause.\n##### You said:\nAnd then?\n"
    "###### ChatGPT said:\nThen this.\n##### You said:\nThanks\n###### ChatGPT said:\nOK\n",
])
def test_a_block_that_is_not_a_second_copy_is_no_sync_duplicate(tmp_path: Path,
                                                                 text: str) -> None:
    (tmp_path / "Note.md").write_text(text)
    assert [p.kind for p in Vault(tmp_path, use_cache=False).index.problems] == []


def test_a_second_frontmatter_after_a_code_block_is_still_found(tmp_path: Path) -> None:
    (tmp_path / "Note.md").write_text("---\ntype: note\n---\n```\nx\n```\n---\ntype: note\n---\n")
    problems = Vault(tmp_path, use_cache=False).index.problems
    assert [(p.kind, p.line) for p in problems] == [("sync-duplicate", 7)]
