"""Taking in only the files reported changed gives the index a whole scan gives."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vaultmem.index import scan as scan_module
from vaultmem.index.freshness.take_in import take_in
from vaultmem.recall.search import search
from vaultmem.vault import Vault
from vaultmem.write.journal import append_daily

GENERATED = "---\ngenerated_by: vaultmem\n---\n# Context\n\nSee [[Lucy Tan]].\n"


def observed(vault: Vault) -> dict[str, Any]:
    """What readers of the index see: notes and where their links go, the files and their
    roles, the stored link rows, names and tags, a search."""
    index = vault.index
    store = vault.store
    return {
        "notes": {i: (n.title, sorted((link.target, link.resolved or "", link.ambiguous)
                                      for link in n.links)) for i, n in index.notes.items()},
        "files": index.files, "other": index.other, "attachments": index.attachments,
        "problems": sorted((p.path, p.kind) for p in index.problems),
        "generated": sorted(index.generated),
        "links": store.query("SELECT source, target, node, missing, ambiguous, line FROM links "
                             "ORDER BY source, line, target"),
        "names": store.query("SELECT note, name, alias FROM names ORDER BY note, name"),
        "tags": store.query("SELECT tag, note FROM tags ORDER BY tag, note"),
        "search": [hit.id for hit in search(vault, "OCR engine Lucy")],
        "degrees": store.query("SELECT node, degree FROM degrees ORDER BY node"),
    }


def _edit(root: Path) -> list[str]:
    with (root / "People" / "Lucy Tan.md").open("a") as handle:
        handle.write("\nNow leads [[Atlas Migration]] with #ocr work.\n")
    return ["People/Lucy Tan.md"]


def _create_target(root: Path) -> list[str]:
    (root / "Projects" / "Atlas Migration.md").write_text("---\ntype: project\naliases: [Atlas]"
                                                          "\n---\n# Atlas\n\nWith [[Lucy Tan]].\n")
    return ["Projects/Atlas Migration.md"]


def _create_missing_target(root: Path) -> list[str]:
    (root / "Projects" / "Invoice Parser v2.md").write_text("# v2\n")  # a daily note links it
    return ["Projects/Invoice Parser v2.md"]


def _delete(root: Path) -> list[str]:
    (root / "People" / "Lucy Tan.md").unlink()
    return ["People/Lucy Tan.md"]


def _rename(root: Path) -> list[str]:
    os.replace(root / "People" / "Lucy Tan.md", root / "People" / "Lucy Tan-Okafor.md")
    return ["People/Lucy Tan.md", "People/Lucy Tan-Okafor.md"]


def _attachment(root: Path) -> list[str]:
    (root / "diagram.png").write_bytes(b"\x89PNG")
    (root / "People" / "Lucy Tan.md").open("a").write("\n![[diagram.png]]\n")
    return ["diagram.png", "People/Lucy Tan.md"]


def _generated(root: Path) -> list[str]:
    (root / "Context.md").write_text(GENERATED)
    return ["Context.md"]


def _becomes_generated(root: Path) -> list[str]:
    (root / "People" / "Lucy Tan.md").write_text(GENERATED)
    return ["People/Lucy Tan.md"]


def _template(root: Path) -> list[str]:
    (root / "Templates" / "Meeting.md").write_text("# {{title}}\n\nWith [[Lucy Tan]].\n")
    return ["Templates/Meeting.md"]


def _touched(root: Path) -> list[str]:
    os.utime(root / "People" / "Lucy Tan.md")
    return ["People/Lucy Tan.md", ".obsidian/workspace.json"]


def _not_a_file(root: Path) -> list[str]:
    os.mkfifo(root / "pipe.md")
    return ["pipe.md"]


CHANGES: dict[str, Callable[[Path], list[str]]] = {
    "edit": _edit, "create a note": _create_target,
    "create a missing link's target": _create_missing_target, "delete": _delete,
    "rename": _rename, "attachment": _attachment, "generated note": _generated,
    "note becomes generated": _becomes_generated, "template": _template, "touched": _touched,
    "named pipe": _not_a_file,
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_taking_in_the_changed_files_equals_a_whole_scan(
        sample: Path, change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = Vault(sample)
    _ = vault.index
    paths = CHANGES[change](sample)
    listed: list[int] = []
    real = scan_module.list_vault
    monkeypatch.setattr(scan_module, "list_vault", lambda c: listed.append(1) or real(c))
    vault.refresh(paths)
    seen = observed(vault)
    assert listed == []  # taken in from the paths alone
    whole = observed(Vault(sample, use_cache=False))  # scanned afresh, in memory
    assert seen == whole
    assert observed(Vault(sample)) == whole  # and as stored, for the next process


def test_a_folder_among_the_paths_lists_the_vault_again(sample: Path) -> None:
    vault = Vault(sample)
    before = vault.index
    (sample / "Later").mkdir()
    (sample / "Later" / "Old.md").write_text("old\n")
    assert take_in(vault.config, vault.store, before, ["Later"]) is None
    vault.refresh(["Later"])
    assert "Later/Old" in vault.index.notes  # by listing the vault


def test_notes_another_process_stored_meanwhile_make_it_list_again(sample: Path) -> None:
    vault = Vault(sample)
    before = vault.index
    _edit(sample)
    _ = Vault(sample).index  # another reader stores the edit
    (sample / "Zed.md").write_text("z\n")
    assert take_in(vault.config, vault.store, before, ["Zed.md", "People/Lucy Tan.md"])
    assert take_in(vault.config, vault.store, before, ["Zed.md"]) is None  # the edit unseen


def test_nothing_changed_stores_nothing(sample: Path) -> None:
    vault = Vault(sample)
    before = vault.index
    taken = take_in(vault.config, vault.store, before, ["People/Lucy Tan.md", "nothing.md"])
    assert taken is not None and taken.generation == before.generation
    assert (taken.stats.parsed, taken.stats.removed) == (0, 0)


def test_a_write_takes_in_only_the_file_it_wrote(sample: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    vault = Vault(sample)
    _ = vault.index
    listed: list[int] = []
    real = scan_module.list_vault
    monkeypatch.setattr(scan_module, "list_vault", lambda c: listed.append(1) or real(c))
    done = append_daily(vault, "Met [[Lucy Tan]] about OCR", title="OCR",
                        when=dt.datetime(2026, 12, 6, 9, 30))
    assert listed == [] and done.id in vault.index.notes
    assert done.id in [source for source, _ in vault.backlinks("People/Lucy Tan")]
