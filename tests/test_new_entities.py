"""`new` creates no second note for an entity that exists (its name reordered, initialled or
without a middle name); --force creates it and flags the pair for `conflicts`; a daily note
starts with no example entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import hash_tree
from .test_cli import run

AT = ("--date", "2026-11-29", "--time", "14:05")


@pytest.mark.parametrize("title", ["Tan Lucy", "Lucy T.", "L. Tan", "lucy  tan"])
def test_a_person_named_another_way_is_refused(sample: Path, title: str) -> None:
    before = hash_tree(sample)
    code, out, err = run(sample, "new", "person", title, *AT)
    assert (code, out) == (1, "")
    assert "did you mean [[People/Lucy Tan]]? (to create it anyway: --force; MCP force=true)" in err
    assert hash_tree(sample) == before


def test_a_name_written_another_way_is_refused_whatever_the_note_type(sample: Path) -> None:
    """A vault without types (a plain note per person) holds the name reordered."""
    (sample / "Mauro Toselli.md").write_text("Works on [[DataFlow]].\n", encoding="utf-8")
    before = hash_tree(sample)
    code, out, err = run(sample, "new", "person", "Toselli Mauro", *AT)
    assert (code, out) == (1, "")
    assert "did you mean [[Mauro Toselli]]? (to create it anyway: --force; MCP force=true)" in err
    assert hash_tree(sample) == before


def test_forced_duplicate_is_flagged_until_merged(sample: Path) -> None:
    code, out, _ = run(sample, "new", "person", "Tan Lucy", "--force", *AT)
    assert (code, out) == (0, "created People/Tan Lucy.md\n  named like [[People/Lucy Tan]]: both "
                           "are listed by `vaultmem conflicts` as a possible duplicate until "
                           "one is merged\n")
    text = (sample / "People" / "Tan Lucy.md").read_text(encoding="utf-8")
    assert 'possible_duplicate_of: "[[Lucy Tan]]"\n' in text
    found = json.loads(run(sample, "conflicts", "--json", "--kind", "duplicate")[1])["findings"]
    assert [(f["notes"], f["message"]) for f in found] == [(
        ["People/Lucy Tan", "People/Tan Lucy"],
        "[[People/Lucy Tan]] and [[People/Tan Lucy]] look like the same entry "
        "([[People/Tan Lucy]] was created as a possible duplicate)")]


def test_a_title_ending_in_a_dot_says_so(sample: Path) -> None:
    code, _, err = run(sample, "new", "project", "Atlas v2.", *AT)
    assert code == 1
    assert "ends with '.'" in err and "write 'Atlas v2'" in err


def test_a_decision_is_proposed_unless_told(sample: Path) -> None:
    run(sample, "decide", "Try Surya OCR", "--topic", "ocr-trial", *AT)
    run(sample, "decide", "Ship OCR v2", "--topic", "ocr-ship", "--status", "approved", *AT)
    decisions = sample / "Decisions"
    assert "status: proposed\n" in (decisions / "Try Surya OCR.md").read_text(encoding="utf-8")
    assert "status: approved\n" in (decisions / "Ship OCR v2.md").read_text(encoding="utf-8")


def test_a_new_daily_note_holds_only_what_was_written(sample: Path) -> None:
    code, _, _ = run(sample, "daily", "Called the bank", "--date", "2026-12-07", "--time",
                       "09:30")
    assert code == 0
    text = (sample / "Daily" / "2026-12-07.md").read_text(encoding="utf-8")
    assert "First task of the day" not in text and "— Plan" not in text
    assert text.rstrip().endswith("### 09:30 — Called the bank")


def test_a_name_written_another_way_finds_the_note_a_slug_or_folder_note_holds(
        tmp_path: Path) -> None:
    """Real-vault shapes: a slug-named project note and a client's folder note."""
    from vaultmem.errors import NoteNotFound
    from vaultmem.vault import Vault
    from vaultmem.write.entries import DuplicateNote, new_note

    (tmp_path / ".obsidian").mkdir()
    (tmp_path / "00-home").mkdir()
    (tmp_path / "00-home" / "agh-iberica.md").write_text("---\ntype: project\n---\n# AGH\n")
    (tmp_path / "clientes" / "centro-elphis").mkdir(parents=True)
    (tmp_path / "clientes" / "centro-elphis" / "index.md").write_text("# Centro Elphis — HUB\n")
    (tmp_path / "Other.md").write_text("nothing\n")
    vault = Vault(tmp_path)
    for title in ("AGH Iberica", "agh iberica", "AGH Ibérica"):
        with pytest.raises(DuplicateNote, match=r"did you mean \[\[00-home/agh-iberica\]\]"):
            new_note(vault, "project", title)
    with pytest.raises(DuplicateNote, match=r"\[\[clientes/centro-elphis/index\]\]"):
        new_note(vault, "person", "Centro Elphis")
    assert vault.note("Centro Elphis").id == "clientes/centro-elphis/index"
    assert vault.note("AGH Ibérica").id == "00-home/agh-iberica"
    with pytest.raises(NoteNotFound):
        vault.note("AGH")  # part of a name is not the name
    assert not (tmp_path / "Projects").exists()
    from vaultmem.write.link_review.review import review_links

    review = review_links(vault, "Met [[AGH Ibérica]] and [[Centro Elphis]].", source="Other")
    assert review.text == "Met [[agh-iberica]] and [[index|Centro Elphis]]." and not review.problems
