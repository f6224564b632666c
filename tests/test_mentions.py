"""Unlinked mentions: a note's title or alias written as plain words elsewhere, found both ways
(the notes naming one note, the notes one note names) with the same rules, and the edit that
links them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultmem.check.mentions import mentioned_by, mentions_of
from vaultmem.vault import Vault

from .conftest import write_notes
from .test_cli import run

NOTES = {
    "People/Lucy Tan.md": "---\naliases: [Lucy, LT]\n---\nFounder.\n",
    "Maths/线性映射.md": "保持加法和数乘的映射。\n",
    "Log.md": ("Met lucy tan at noon.\n"  # 1: any case
               "Then [[Lucy Tan]] left; `Lucy Tan` in code.\n"  # 2: a link, a code span
               "Lucyana is someone else; LT is too short to look for.\n"  # 3: no
               "```\nLucy Tan in a code block\n```\n"  # 4-6: no
               "Later Lucy called.\n"  # 7: the alias
               "这是线性映射的例子。\n"),  # 8: CJK, no word boundaries
    "Notes/Plans.md": "---\nowner: Lucy Tan\n---\nAsk Lucy Tan about the plan.\n",
}


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    write_notes(tmp_path, NOTES)
    return Vault(tmp_path, use_cache=False)


def test_the_notes_naming_a_note_in_plain_words(vault: Vault) -> None:
    found = mentions_of(vault, "People/Lucy Tan")
    assert [(m.source, m.line, m.words, m.linked, m.edit) for m in found] == [
        ("Log", 1, "lucy tan", True, "[[Lucy Tan|lucy tan]]"),
        ("Log", 7, "Lucy", True, "[[Lucy Tan|Lucy]]"),
        ("Notes/Plans", 2, "Lucy Tan", False, '"[[Lucy Tan]]"'),  # a property: quoted
        ("Notes/Plans", 4, "Lucy Tan", False, "[[Lucy Tan]]")]
    assert [(m.source, m.line, m.edit) for m in mentions_of(vault, "Maths/线性映射")] == [
        ("Log", 8, "[[线性映射]]")]


def test_the_notes_a_note_names_in_plain_words_follow_the_same_rules(vault: Vault) -> None:
    named = {(m.target, m.line, m.words) for m in mentioned_by(vault, "Log")}
    assert named == {("People/Lucy Tan", 1, "lucy tan"), ("People/Lucy Tan", 7, "Lucy"),
                     ("Maths/线性映射", 8, "线性映射")}
    both = {(m.source, m.line, m.target) for target in ("People/Lucy Tan", "Maths/线性映射")
            for m in mentions_of(vault, target)}
    every = {(m.source, m.line, m.target) for note in vault.notes
             for m in mentioned_by(vault, note)}
    assert every == both


def test_mentions_command_lists_them_with_the_link_to_write(vault: Vault) -> None:
    code, out, _ = run(vault.root, "mentions", "Lucy Tan")
    assert (code, out) == (0, "Notes/Plans.md:2  'Lucy Tan' -> \"[[Lucy Tan]]\"  owner: Lucy Tan\n"
                              "Notes/Plans.md:4  'Lucy Tan' -> [[Lucy Tan]]  Ask Lucy Tan about "
                              "the plan.\n2 unlinked mention(s); 2 more in notes that already "
                              "link it elsewhere: --all lists them.\n")
    data = json.loads(run(vault.root, "mentions", "lucy", "--all", "--json")[1])
    assert data["note"] == "People/Lucy Tan"
    assert [(r["id"], r["line"], r["edit"]) for r in data["results"]] == [
        ("Log", 1, "[[Lucy Tan|lucy tan]]"), ("Log", 7, "[[Lucy Tan|Lucy]]"),
        ("Notes/Plans", 2, '"[[Lucy Tan]]"'), ("Notes/Plans", 4, "[[Lucy Tan]]")]
    assert run(vault.root, "mentions", "Nobody")[0] == 1


def test_lint_suggests_the_links_a_note_lacks_once_per_note_named(vault: Vault) -> None:
    (vault.root / "Today.md").write_text("Now Lucy Tan called, then lucy tan again; now NOW.\n"
                                         "On 2026-11-27.\n")
    (vault.root / "NOW.md").write_text("Board.\n")
    (vault.root / "2026-11-27.md").write_text("A day.\n")
    found = json.loads(run(vault.root, "lint", "--suggest-links", "--all", "--json")[1])
    mine = [(f["line"], f["confidence"], f["suggestion"]) for f in found["findings"]
            if f["notes"] == ["Today"] and f["kind"] == "unlinked-mention"]
    assert mine == [
        (1, 0.6, "write [[Lucy Tan]] for 'Lucy Tan' on line 1"),
        (1, 0.6, "write [[NOW]] for 'NOW' on line 1")]  # the last: as written, a name
    # a date is not a name: the daily note 2026-11-27 is not offered
    assert "unlinked-mention" not in {f["kind"] for f in json.loads(
        run(vault.root, "lint", "--all", "--json")[1])["findings"]}  # only when asked


def test_aliases_and_tags_are_no_mentions(tmp_path: Path) -> None:
    (tmp_path / "Linear map.md").write_text("A map keeping sums.\n")
    (tmp_path / "Linear transformation.md").write_text(
        "---\naliases:\n  - Linear map\ntags: [linear map]\nsee: Linear map\n---\nx\n")
    found = mentions_of(Vault(tmp_path, use_cache=False), "Linear map")
    assert [(m.source, m.line, m.edit) for m in found] == [
        ("Linear transformation", 5, '"[[Linear map]]"')]  # the value of see: only


def test_a_paragraph_stored_in_many_pieces_is_read_once_and_data_is_no_words(
        tmp_path: Path) -> None:
    data = "![chart](data:image/png;base64," + "iVBORw0KGgoAAAANSUhEUg" * 20_000 + ")"
    write_notes(tmp_path, {**NOTES, "Board.md": f"Lucy Tan drew this: {data} Lucy Tan\n",
                           "Lucy Tanner.md": "Someone else.\n"})
    vault = Vault(tmp_path, use_cache=False)
    assert "Board" in vault.notes
    pieces = vault.store.query("SELECT COUNT(*) FROM passages WHERE path = 'Board.md'")[0][0]
    assert pieces > 10  # the long paragraph is stored in pieces, each with its one line
    assert [(m.source, m.line, m.words) for m in mentions_of(vault, "People/Lucy Tan")
            if m.source == "Board"] == [("Board", 1, "Lucy Tan")]
    assert [(m.target, m.line) for m in mentioned_by(vault, "Board")] == [
        ("People/Lucy Tan", 1)]
