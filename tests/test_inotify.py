"""The vault watch a long-running server asks before each call, and the tools that use it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from vaultmem.index import scan as scan_module
from vaultmem.live.inotify import VaultWatch
from vaultmem.live.mcp_tools import Tools
from vaultmem.recall.related.notes import related_notes
from vaultmem.vault import Vault

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@pytest.fixture
def watched(tmp_path: Path) -> tuple[Path, VaultWatch]:
    """A small vault with a sub-folder and a dot folder, watched, nothing pending."""
    root = tmp_path / "vault"
    (root / "People").mkdir(parents=True)
    (root / ".obsidian").mkdir()
    (root / "People" / "Ana.md").write_text("# Ana\n")
    watch = VaultWatch(root)
    assert watch.changed() is False
    return root, watch


@linux
@pytest.mark.parametrize("change", [
    "append", "rewrite in place", "new note", "delete", "rename", "new folder with a note",
    "note moved into a new folder", "attribute change"])
def test_every_kind_of_change_is_seen_once(watched: tuple[Path, VaultWatch], change: str) -> None:
    root, watch = watched
    ana = root / "People" / "Ana.md"
    if change == "append":
        with ana.open("a") as handle:
            handle.write("more\n")
    elif change == "rewrite in place":
        ana.write_text("# Ana\n")  # same text, same size
    elif change == "new note":
        (root / "Bob.md").write_text("x\n")
    elif change == "delete":
        ana.unlink()
    elif change == "rename":
        ana.rename(root / "People" / "Ana Ruiz.md")
    elif change == "new folder with a note":
        (root / "Projects").mkdir()
        assert watch.changed() is True
        (root / "Projects" / "P.md").write_text("x\n")  # the new folder is watched too
    elif change == "note moved into a new folder":
        (root / "Archive").mkdir()
        ana.rename(root / "Archive" / "Ana.md")
    else:
        os.utime(ana, (1, 1))
    assert watch.changed() is True
    assert watch.changed() is False


@linux
def test_dot_folders_are_not_memory(watched: tuple[Path, VaultWatch]) -> None:
    root, watch = watched
    (root / ".obsidian" / "workspace.json").write_text("{}")
    (root / "People" / ".Ana.md.swp").write_text("x")
    assert watch.changed() is False


def test_without_inotify_every_look_says_changed(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ctypes.util.find_library", lambda name: None)
    watch = VaultWatch(tmp_path)
    assert (watch.changed(), watch.changed()) == (True, True)


@linux
def test_an_unchanged_vault_is_answered_without_listing_it(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = Tools(Vault(sample))
    listed = []
    real = scan_module.list_vault
    monkeypatch.setattr(scan_module, "list_vault", lambda config: listed.append(1) or real(config))
    first = tools.show(note="Priya Nair")
    assert tools.show(note="Priya Nair") == first and len(listed) == 1
    with (sample / "People" / "Priya Nair.md").open("a") as handle:
        handle.write("\nPrefers calls on Fridays.\n")
    assert "Prefers calls on Fridays." in tools.show(note="Priya Nair")
    assert len(listed) == 1  # only the file reported changed was read again
    (sample / "Projects" / "Atlas").mkdir()  # a folder: which files it holds is not reported
    assert "Prefers calls on Fridays." in tools.show(note="Priya Nair")
    assert len(listed) == 2
    checking = Tools(Vault(sample), watch=False)
    checking.show(note="Priya Nair")
    checking.show(note="Priya Nair")
    assert len(listed) == 4  # every call lists the vault (and reuses the index)


@linux
def test_changes_are_the_paths_of_the_files_that_changed(tmp_path: Path) -> None:
    (tmp_path / "People").mkdir()
    (tmp_path / "People" / "a.md").write_text("a\n")
    watch = VaultWatch(tmp_path)
    assert watch.changes() == set()
    (tmp_path / "People" / "a.md").write_text("b\n")
    (tmp_path / "b.md").write_text("b\n")
    (tmp_path / ".hidden.md").write_text("h\n")
    os.replace(tmp_path / "b.md", tmp_path / "c.md")
    assert watch.changes() == {"People/a.md", "b.md", "c.md"}
    (tmp_path / "Projects").mkdir()
    assert watch.changes() is None  # a folder came: its files are not known
    (tmp_path / "Projects" / "d.md").write_text("d\n")
    assert watch.changes() == {"Projects/d.md"}  # watched since


@linux
def test_a_symlinked_folder_is_watched_as_it_is_listed(tmp_path: Path) -> None:
    root, elsewhere = tmp_path / "vault", tmp_path / "elsewhere"
    (elsewhere / "Deep").mkdir(parents=True)
    (elsewhere / "Deep" / "c.md").write_text("x\n")
    root.mkdir()
    (root / "Linked").symlink_to(elsewhere, target_is_directory=True)
    (root / "Loop").symlink_to(root, target_is_directory=True)  # followed once, no loop
    watch = VaultWatch(root)
    assert watch.changed() is False
    with (root / "Linked" / "Deep" / "c.md").open("a") as handle:
        handle.write("more\n")
    assert watch.changed() is True


@linux
def test_calls_that_load_nothing_new_freeze_no_garbage(
        sample: Path) -> None:
    import gc

    tools = Tools(Vault(sample))
    for note in ("Priya Nair", "Lucy Tan", "Priya Nair"):  # whatever lasts is loaded now
        tools.related(note=note)
        tools.search(query="pricing")
    frozen = gc.get_freeze_count()
    for _ in range(5):
        tools.related(note="Lucy Tan")
        tools.search(query="pricing")
    assert gc.get_freeze_count() <= frozen  # frozen objects may be freed; none are added


@linux
def test_what_a_server_remembers_between_calls_follows_the_files(sample: Path) -> None:
    tools = Tools(Vault(sample))
    first = json.loads(tools.related(note="Lucy Tan"))
    assert any("same person [[Henrik Olsen]]" in r["reasons"] for r in first["results"])
    tools.related(note="Priya Nair")  # the attributes of Henrik Olsen's node are remembered
    henrik = sample / "People" / "Henrik Olsen.md"
    henrik.write_text(henrik.read_text().replace("type: person", "type: lesson"))
    after = json.loads(tools.related(note="Lucy Tan"))
    assert not any("same person [[Henrik Olsen]]" in r["reasons"] for r in after["results"])
    _, fresh = related_notes(Vault(sample), "Lucy Tan")
    assert after["results"] == [item.to_dict() for item in fresh]
