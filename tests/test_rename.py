"""Renaming a note: every link to it written again as Obsidian would, showing what it showed;
one transaction of the History that undo puts back byte for byte; nothing half done."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from vaultmem.errors import ChangedMeanwhile, NothingToUndo, RenameRefused
from vaultmem.vault import Vault
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
    (folder / ".obsidian").mkdir()
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
