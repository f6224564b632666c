"""Renaming a note: every link to it written again as Obsidian would, showing what it showed;
one transaction of the History that undo puts back byte for byte; nothing half done."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from vaultmem.errors import ChangedMeanwhile, NothingToUndo, RenameRefused
from vaultmem.vault import Vault
from vaultmem.write import transaction
from vaultmem.write.merge import merge
from vaultmem.write.rename import plan_rename, rename
from vaultmem.write.transaction import HISTORY, commit, history, recover, undo

from .conftest import hash_tree, write_notes
from .test_cli import run

NOTES = {
    "A/Old.md": "# Old\n\nSee [[Old#Plan]] below.\n\n## Plan\n\nShip it. ^ship\n",
    "A/Src.md": '---\nproject: "[[Old]]"\nrel: ["[[Old|O]]", "x"]\n---\n'
                "See [[Old]], [[Old|shown]], [[Old#Plan]], [[Old#^ship]] and ![[Old]].\n"
                "A [md](Old.md) link, `[[Old]]` in code, and [[Zed]].\n"
                "field:: [[Old]]\n\n| who | what |\n| --- | --- |\n| [[Old]] | 1 |\n",
    "B/Other.md": "Links [[A/Old]] and [[New]].\n",
    "C/New.md": "# New, another note of that name\n",
    "Zed.md": "# Zed\n",
}
RENAMED_SRC = (
    '---\nproject: "[[B/New|Old]]"\nrel: ["[[B/New|O]]", "x"]\n---\n'
    "See [[B/New|Old]], [[B/New|shown]], [[B/New#Plan|Old > Plan]], [[B/New#^ship|Old > ^ship]]"
    " and ![[B/New]].\nA [md](B/New.md) link, `[[Old]]` in code, and [[Zed]].\n"
    "field:: [[B/New|Old]]\n\n| who | what |\n| --- | --- |\n| [[B/New\\|Old]] | 1 |\n")


def vault_of(folder: Path, notes: dict[str, str]) -> Path:
    """A vault (``.obsidian`` and ``notes``) at ``folder``."""
    write_notes(folder, notes)
    (folder / ".obsidian").mkdir(parents=True)
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return vault_of(tmp_path / "v", NOTES)


def _reached(root: Path) -> dict[str, list[tuple[str, str | None]]]:
    """Every note's links, as (raw, the note each reaches), the vault read afresh."""
    vault = Vault(root, use_cache=False)
    return {note_id: [(link.raw, link.resolved) for link in note.links]
            for note_id, note in sorted(vault.notes.items())}


def test_every_link_form_is_written_again_showing_what_it_showed(root: Path) -> None:
    before = _reached(root)
    done = rename(Vault(root, use_cache=False), "A/Old", "B/New")
    assert (root / "B" / "New.md").is_file() and not (root / "A" / "Old.md").exists()
    assert (root / "A" / "Src.md").read_text(encoding="utf-8") == RENAMED_SRC
    assert (root / "B" / "Other.md").read_text(encoding="utf-8") == \
        "Links [[B/New|A/Old]] and [[C/New|New]].\n"  # the bare [[New]] keeps meaning C/New
    assert (root / "B" / "New.md").read_text(encoding="utf-8") == \
        NOTES["A/Old.md"].replace("[[Old#Plan]]", "[[B/New#Plan|Old > Plan]]")  # [[New]] is C's
    after = _reached(root)
    for note_id, links in before.items():  # every link reaches what it did (Old: B/New)
        moved = "B/New" if note_id == "A/Old" else note_id
        assert [("B/New" if r == "A/Old" else r) for _, r in links] == \
            [r for _, r in after[moved]], note_id
    assert done.links == 13 and done.record is not None


def test_a_dry_run_shows_the_diff_and_writes_nothing(root: Path) -> None:
    kept = hash_tree(root)
    code, out, _ = run(root, "rename", "A/Old", "B/New", "--dry-run")
    assert code == 0 and hash_tree(root) == kept
    assert out.startswith("Would rename A/Old -> B/New: 13 link(s) in 3 note(s) written again")
    assert "-See [[Old]], [[Old|shown]]" in out and "+Links [[B/New|A/Old]]" in out


def test_undo_puts_every_byte_back_once(root: Path) -> None:
    kept = hash_tree(root)
    assert run(root, "rename", "A/Old", "B/New")[0] == 0
    code, out, _ = run(root, "undo")
    assert code == 0 and out.startswith("Put back rename A/Old -> B/New (")
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem/")} == kept
    assert [r.state for r in history(root)] == ["undone"]
    code, _, err = run(root, "undo")
    assert code == 1 and "nothing to undo" in err


def test_a_moved_note_keeping_a_unique_name_changes_no_link(root: Path) -> None:
    done = rename(Vault(root, use_cache=False), "Zed", "Archive/")
    assert (done.new, done.links) == ("Archive/Zed", 0)
    assert (root / "A" / "Src.md").read_text(encoding="utf-8") == NOTES["A/Src.md"]


@pytest.mark.parametrize(("new", "message"), [
    ("C/New", "C/New.md already exists"), ("c/new", "c/new.md already exists"),
    ("Old", "is no new name for A/Old"), ("../Out", "outside the vault")])
def test_a_taken_or_bad_name_is_refused_and_nothing_changes(root: Path, new: str,
                                                           message: str) -> None:
    kept = hash_tree(root)
    code, _, err = run(root, "rename", "A/Old", new)
    assert code in (1, 2) and message in err and hash_tree(root) == kept


def test_a_note_changed_after_the_plan_stops_the_rename_with_nothing_done(root: Path) -> None:
    planned = plan_rename(Vault(root, use_cache=False), "A/Old", "B/New")
    (root / "B" / "Other.md").write_text("Someone saved [[A/Old]] meanwhile.\n", encoding="utf-8")
    kept = hash_tree(root)
    with pytest.raises(ChangedMeanwhile, match=r"B/Other\.md was changed"):
        commit(root, list(planned.changes), what="rename")
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem/")} == \
        {k: v for k, v in kept.items() if not k.startswith(".vaultmem/")}
    assert [r.state for r in history(root)] == ["rolled back"]


def test_undo_refuses_when_a_note_it_would_put_back_was_changed_since(root: Path) -> None:
    rename(Vault(root, use_cache=False), "A/Old", "B/New")
    (root / "B" / "New.md").write_text("# Edited after the rename\n", encoding="utf-8")
    with pytest.raises(ChangedMeanwhile, match=r"B/New\.md was changed after"):
        undo(root)
    assert (root / "B" / "New.md").read_text(encoding="utf-8") == "# Edited after the rename\n"


KILLED = """
import os, signal, sys
from vaultmem.vault import Vault
from vaultmem.write import transaction
from vaultmem.write.rename import rename
transaction.move = lambda *_: os.kill(os.getpid(), signal.SIGKILL)  # after the links, at the move
rename(Vault(sys.argv[1], use_cache=False), "A/Old", "B/New")
"""


def test_a_rename_killed_halfway_is_put_back_by_the_next_run(root: Path) -> None:
    kept = hash_tree(root)
    done = subprocess.run([sys.executable, "-c", KILLED, str(root)], timeout=120)
    assert done.returncode == -signal.SIGKILL
    assert [r.state for r in history(root)] == ["pending"]
    assert (root / "A" / "Src.md").read_text(encoding="utf-8") == RENAMED_SRC  # half done
    assert [r.state for r in recover(root)] == ["pending"]  # what it found and put back
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem")} == kept
    assert [r.state for r in history(root)] == ["rolled back"]
    with pytest.raises(NothingToUndo):
        undo(root)


def test_the_history_record_holds_every_text_before_and_after(root: Path) -> None:
    done = rename(Vault(root, use_cache=False), "A/Old", "B/New")
    assert done.record is not None
    data = json.loads((root / HISTORY / done.record.name).read_text(encoding="utf-8"))
    assert data["what"] == "rename A/Old -> B/New" and data["state"] == "done"
    by_path = {c["path"]: c for c in data["changes"]}
    assert by_path["A/Src.md"]["before"] == NOTES["A/Src.md"]
    assert by_path["A/Old.md"]["moved_to"] == "B/New.md"


def test_renaming_a_missing_note_says_so(root: Path) -> None:
    with pytest.raises(Exception, match="no note named 'Nope'"):
        rename(Vault(root, use_cache=False), "Nope", "X")
    with pytest.raises(RenameRefused):
        rename(Vault(root, use_cache=False), "A/Old", "A/Old.md")


def test_a_table_link_with_an_escaped_pipe_and_json_properties(tmp_path: Path) -> None:
    """A Digital Garden export: a link's pipe escaped in a table row, properties as JSON."""
    root = vault_of(tmp_path / "v", {
        "Garden/Old.md": '---\n{"dg-publish":true,"alias":"o"}\n---\n# Old\n',
        "Shelf.md": "| note | n |\n| --- | --- |\n| [[Garden/Old\\|old one]] | 3 |\n",
        "Garden/Dup.md": '---\n{"tags":["x"],"alias":"d"}\n---\nMore.\n'})
    rename(Vault(root, use_cache=False), "Garden/Old", "Garden/New")
    assert (root / "Shelf.md").read_text(encoding="utf-8") == \
        "| note | n |\n| --- | --- |\n| [[New\\|old one]] | 3 |\n"  # shortest, as Obsidian
    merge(Vault(root, use_cache=False), "Garden/New", "Garden/Dup")
    kept = Vault(root, use_cache=False).notes["Garden/New"]
    assert kept.frontmatter == {"dg-publish": True, "alias": ["o", "d", "Dup"], "tags": ["x"],
                                "merged_from": ["Garden/Dup"]}
    assert (root / "Garden/New.md").read_text(encoding="utf-8").startswith(
        '---\n{"dg-publish":true,"alias":["o","d","Dup"],"tags":["x"],'
        '"merged_from":["Garden/Dup"]}\n---\n')


def test_undo_refuses_while_a_new_note_sits_where_the_old_one_was(root: Path) -> None:
    rename(Vault(root, use_cache=False), "Zed", "Archive/Zed")
    (root / "Zed.md").write_text("# A new Zed\n", encoding="utf-8")
    with pytest.raises(ChangedMeanwhile, match=r"Zed\.md exists again"):
        undo(root)
    assert (root / "Archive/Zed.md").is_file()


def test_a_move_cut_between_its_two_names_is_put_back_to_one(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = hash_tree(root)
    planned = plan_rename(Vault(root, use_cache=False), "A/Old", "B/New")

    def half_move(vault_root: Path, source: str, target: str) -> None:
        os.link(vault_root / source, vault_root / target)  # and dies before the unlink
        raise OSError("the disk went away")
    monkeypatch.setattr(transaction, "move", half_move)
    with pytest.raises(OSError, match="the disk went away"):
        commit(root, list(planned.changes), what="rename")
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem")} == kept


def test_a_merged_note_with_windows_line_ends_is_undone_byte_for_byte(tmp_path: Path) -> None:
    root = vault_of(tmp_path / "v", {})
    (root / "Keep.md").write_bytes(b"---\r\ntags: [a]\r\n---\r\n# Keep\r\n\r\nKept.\r\n")
    (root / "Old.md").write_bytes(b"---\r\ntags: [b]\r\n---\r\n# Old\r\n\r\nOld text.\r\n")
    kept = hash_tree(root)
    merge(Vault(root, use_cache=False), "Keep", "Old")
    assert (root / "Keep.md").read_bytes().endswith(b"\r\n\r\n## Old\r\n\r\nOld text.\r\n")
    undo(root)
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem")} == kept


def test_a_write_to_json_properties_keeps_them_json(tmp_path: Path) -> None:
    """Properties written as one JSON object (a Digital Garden export) stay one JSON object
    when any write sets a property (before, YAML lines were added inside it)."""
    root = vault_of(tmp_path / "v", {"Note.md": '---\n{"dg-publish":true}\n---\n# Note\n'})
    code, _, err = run(root, "fact", "Note", "status", "done", "--date", "2026-11-29")
    assert code == 0, err
    text = (root / "Note.md").read_text(encoding="utf-8")
    assert text.startswith('---\n{"dg-publish":true,"status":"done"')
    assert Vault(root, use_cache=False).notes["Note"].frontmatter["status"] == "done"


def test_an_agents_context_note_moves_with_the_agent(sample: Path) -> None:
    assert run(sample, "sync")[0] == 0
    context = sample / "_vaultmem/context"
    assert run(sample, "rename", "Agents/Rafael", "Agents/Rafael OCR")[0] == 0
    assert sorted(p.name for p in context.iterdir()) == ["Rafael OCR.md", "Strategist.md"]
    assert run(sample, "undo")[0] == 0
    assert sorted(p.name for p in context.iterdir()) == ["Rafael.md", "Strategist.md"]
