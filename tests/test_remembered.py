"""Whole-vault checks are kept in the index: computed once per state of the vault, read back
while nothing changed, and computed again after any change."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from vaultmem.check import linting, summaries
from vaultmem.check.linting import lint
from vaultmem.check.summaries import scan_summary
from vaultmem.model import Finding
from vaultmem.similar_names import NameIndex
from vaultmem.vault import Vault


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every time link findings are computed."""
    runs: list[str] = []
    real = linting.link_findings

    def counted(vault: Vault, **options: bool) -> list[Finding]:
        runs.append("computed")
        return list(real(vault, **options))

    monkeypatch.setattr(linting, "link_findings", counted)
    monkeypatch.setattr(summaries, "link_findings", counted)
    return runs


def ids(vault_root: Path, **options: float) -> list[str]:
    """The ids of ``lint``'s findings, in a fresh vault object."""
    return [found.id for found in lint(Vault(vault_root), **options)]  # type: ignore[arg-type]


def test_lint_of_an_unchanged_vault_is_read_back(sample: Path, computed: list[str]) -> None:
    first = lint(Vault(sample), least=0)
    again = lint(Vault(sample), least=0)
    assert computed == ["computed"] and again == first and first
    assert ids(sample) == [f.id for f in first if f.confidence >= 0.5]
    assert computed == ["computed"]


def test_lint_after_an_edit_sees_the_edit(sample: Path, computed: list[str]) -> None:
    before = ids(sample)
    lucy = sample / "People" / "Lucy Tan.md"
    lucy.write_text(lucy.read_text() + "\n![[Budget Plan 2031]]\n")
    after = lint(Vault(sample))
    assert computed == ["computed"] * 2
    new = [f for f in after if f.id not in before]
    assert [(f.kind, f.notes) for f in new] == [("broken-link", ["People/Lucy Tan"])]


def test_a_file_that_cannot_be_read_is_seen_though_no_note_changed(sample: Path) -> None:
    _ = lint(Vault(sample))
    os.mkfifo(sample / "Pipe.md")
    kinds = {(f.kind, f.notes[0]) for f in lint(Vault(sample))}
    assert ("unreadable", "Pipe") in kinds


def test_ignoring_a_finding_applies_to_the_kept_findings(sample: Path) -> None:
    first = lint(Vault(sample), least=0)
    (sample / ".vaultmem").mkdir(exist_ok=True)
    (sample / ".vaultmem" / "ignored.txt").write_text(f"finding {first[0].id}\n")
    assert ids(sample, least=0) == [f.id for f in first[1:]]


def test_scan_counts_and_issues_are_read_back(sample: Path, computed: list[str]) -> None:
    first = scan_summary(Vault(sample))
    again = scan_summary(Vault(sample))
    assert computed == ["computed"]
    for summary in (first, again):
        del summary["cache"]
    assert again == first and first["notes"] == 30


def test_title_lookups_are_kept_while_no_title_changes(sample: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[str] = []
    real = NameIndex.closest

    def counted(self: NameIndex, name: str, **options: Any) -> list[str]:
        looked.append(name)
        return real(self, name, **options)

    monkeypatch.setattr(NameIndex, "closest", counted)
    lucy = sample / "People" / "Lucy Tan.md"
    lucy.write_text(lucy.read_text() + "\nAsk [[Marco Dias]] and [[Henrik Olsne]].\n")
    first = lint(Vault(sample), least=0)
    once = len(looked)
    assert {"henrik olsne", "marco dias"} <= set(looked) and once == len(set(looked))
    lucy.write_text(lucy.read_text() + "\nOne more line.\n")
    assert lint(Vault(sample), least=0) == first and len(looked) == once
    (sample / "People" / "Marco Dias.md").write_text("Marco's namesake.\n")  # a new title
    fixes = {f.message: f.suggestion for f in lint(Vault(sample), least=0)}
    assert len(looked) == 2 * once - 1  # every name again, but the one now written
    assert not any("[[Marco Dias]]" in message for message in fixes)
    assert any("[[People/Henrik Olsen]]" in s for s in fixes.values())


def orphans(root: Path) -> set[str]:
    """The notes ``lint`` calls orphans, in a fresh vault object."""
    return {f.notes[0] for f in lint(Vault(root), least=0) if f.kind == "orphan"}


def unlinked_in_graph(root: Path) -> set[str]:
    """The source notes, daily ones aside, with no link in or out in the whole graph."""
    vault = Vault(root, use_cache=False)
    degree = vault.graph.to_undirected(as_view=True).degree
    return {i for i in vault.notes if degree(i) == 0 and vault.notes[i].type != "daily"}


def test_orphans_follow_edits_as_the_whole_graph_does(sample: Path) -> None:
    assert orphans(sample) == unlinked_in_graph(sample)
    (sample / "Alone.md").write_text("Nothing links here, [[Alone]] only links itself.\n")
    assert "Alone" in orphans(sample) and orphans(sample) == unlinked_in_graph(sample)
    (sample / "Alone.md").write_text("Now about [[DataFlow]].\n")
    assert "Alone" not in orphans(sample) and orphans(sample) == unlinked_in_graph(sample)
    (sample / "Alone.md").write_text("No links any more.\n")
    assert "Alone" in orphans(sample) and orphans(sample) == unlinked_in_graph(sample)


def test_links_checked_a_few_notes_at_a_time_give_the_same_findings(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lucy = sample / "People" / "Lucy Tan.md"
    lucy.write_text(lucy.read_text() + "\nSee [[DataFlow#No such part]] and [[Nobody yet]].\n")
    whole = list(linting.link_findings(Vault(sample)))
    monkeypatch.setattr(linting, "CHECKED_TOGETHER", 1)
    assert list(linting.link_findings(Vault(sample))) == whole
    assert {f.kind for f in whole} >= {"missing-heading", "unwritten-link"}
