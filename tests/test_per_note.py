"""Link findings kept note by note: after an edit only the notes it touched are checked again,
and the findings always equal those of checking every note of the vault as it is."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

import pytest

from vaultmem.check import linting, per_note, summaries
from vaultmem.check.linting import lint
from vaultmem.check.summaries import scan_summary
from vaultmem.index.freshness import changes
from vaultmem.model import Finding
from vaultmem.vault import Vault

Edit = Callable[[Path], None]


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[list[str] | None]:
    """The notes each link check was asked for (None: every note)."""
    asked: list[list[str] | None] = []
    real = linting.link_findings

    def recorded(vault: Vault, *, notes: Collection[str] | None = None,
                 **options: bool) -> list[Finding]:
        asked.append(None if notes is None else sorted(notes))
        return list(real(vault, notes=notes, **options))

    monkeypatch.setattr(linting, "link_findings", recorded)
    monkeypatch.setattr(summaries, "link_findings", recorded)
    return asked


def whole(root: Path) -> list[Finding]:
    """Every link finding of the vault, every note checked (nothing kept is used)."""
    return sorted(linting.link_findings(Vault(root)), key=lambda f: f.notes[0])


def kept(root: Path) -> list[Finding]:
    """The link findings as ``lint`` gets them: kept ones brought up to date."""
    vault = Vault(root)
    return per_note.findings_per_note(vault, "lint-links", lambda notes: linting.link_findings(
        vault, notes=notes), subpaths=True)


def append(path: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        note = root / path
        note.write_text(note.read_text(encoding="utf-8") + text, encoding="utf-8")
    return edit


def replace(path: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        note = root / path
        text = note.read_text(encoding="utf-8")
        assert old in text
        note.write_text(text.replace(old, new), encoding="utf-8")
    return edit


def test_an_edit_checks_that_note_again_and_no_other(sample: Path,
                                                     checked: list[list[str] | None]) -> None:
    first = lint(Vault(sample), least=0)
    henrik = "People/Henrik Olsen"  # no note links a heading or block of his
    line = len((sample / f"{henrik}.md").read_text().splitlines()) + 2
    append(f"{henrik}.md", "\nSee [[Budget Plan 2031]] and [[Data-Flow]].\n")(sample)
    after = lint(Vault(sample), least=0)
    assert checked == [None, [henrik]]
    new = sorted((f.kind, f.message) for f in after if f not in first)
    assert new == [
        ("broken-link", f"{henrik}.md:{line}: [[Data-Flow]] does not resolve"),
        ("unwritten-link", f"{henrik}.md:{line}: [[Budget Plan 2031]] links a note nobody "
                           "wrote yet")]
    assert [f for f in after if f.notes[0] != henrik] == [f for f in first if f.notes[0] != henrik]


def test_an_edit_checks_again_the_notes_linking_its_headings_or_blocks(
        sample: Path, checked: list[list[str] | None]) -> None:
    kept(sample)
    append("People/Lucy Tan.md", "\nOne more line.\n")(sample)
    kept(sample)
    assert checked == [None, ["Agents/Strategist", "Daily/2026-11-26", "MEMORY",
                              "People/Lucy Tan"]]  # each links [[Lucy Tan#^pref-async]]


def test_a_renamed_heading_is_seen_by_the_unchanged_note_linking_it(
        sample: Path, checked: list[list[str] | None]) -> None:
    append("People/Lucy Tan.md", "\nSee [[DataFlow#Status]].\n")(sample)

    assert not [f for f in kept(sample) if f.kind == "missing-heading"]
    replace("Projects/DataFlow.md", "## Status", "## State")(sample)
    missing = [f for f in kept(sample) if f.kind == "missing-heading"]
    assert [f.notes for f in missing] == [["People/Lucy Tan"]]
    assert "People/Lucy Tan" in (checked[-1] or []) and "Projects/DataFlow" in (checked[-1] or [])


@pytest.mark.parametrize("edit", [
    append("People/Marco Diaz.md", "\naliases: ignored, in the body\n"),  # no alias change
    replace("People/Marco Diaz.md", "type: person", "type: person\naliases: [Data-Flow]"),
    lambda root: (root / "Data-Flow.md").write_text("A note of that name now.\n"),
    lambda root: (root / "Projects" / "DataFlow.md").unlink(),
    lambda root: (root / "Projects" / "DataFlow.md").rename(root / "Projects" / "Flow.md"),
])
def test_findings_equal_checking_every_note_after_any_edit(sample: Path, edit: Edit) -> None:
    append("People/Lucy Tan.md", "\n[[Data-Flow]], [[DataFlow#Status]], [[Nobody yet]].\n")(sample)
    assert kept(sample) == whole(sample)
    edit(sample)
    assert kept(sample) == whole(sample)


def test_new_aliases_or_files_check_every_note_again(sample: Path,
                                                     checked: list[list[str] | None]) -> None:
    append("People/Lucy Tan.md", "\nSee [[The ML engineer]].\n")(sample)
    kept(sample)
    replace("People/Marco Diaz.md", "type: person", "type: person\naliases: [The ML engineer]")(
        sample)
    fixed = [f for f in kept(sample) if "[[The ML engineer]]" in f.message]
    assert [f.suggestion for f in fixed] == ["'The ML engineer' is an alias of [[People/Marco "
                                             "Diaz]]: write [[Marco Diaz|The ML engineer]]"]
    (sample / "The ML engineer.md").write_text("Now a note of its own.\n")
    assert not [f for f in kept(sample) if "[[The ML engineer]]" in f.message]
    assert checked == [None, None, None]


def test_changes_older_than_those_kept_check_every_note_again(
        sample: Path, checked: list[list[str] | None], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(changes, "KEPT_GENERATIONS", 2)
    kept(sample)
    for n in range(2):
        append("People/Lucy Tan.md", f"\nLine {n}.\n")(sample)
        assert Vault(sample).index.generation  # a storing scan, with no check after it
    append("People/Lucy Tan.md", "\n[[Nobody yet]]\n")(sample)
    found = kept(sample)
    assert checked == [None, None] and found == whole(sample)


def test_scan_keeps_its_link_problems_note_by_note(sample: Path,
                                                   checked: list[list[str] | None]) -> None:
    before = scan_summary(Vault(sample))["problems"]
    line = len((sample / "People" / "Lucy Tan.md").read_text().splitlines()) + 2
    append("People/Lucy Tan.md", "\n![[Budget Plan 2031]]\n")(sample)
    after = scan_summary(Vault(sample))["problems"]
    assert checked == [None, ["People/Lucy Tan"]]
    assert [p["message"] for p in after if p not in before] == [
        f"People/Lucy Tan.md:{line}: ![[Budget Plan 2031]] does not resolve"]
