"""Passages in the index: those of each note's parse, kept right as notes change."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from vaultmem.config import load_config
from vaultmem.index import fts
from vaultmem.read.note_passages import note_passages
from vaultmem.read.parse import parse_with_body
from vaultmem.vault import Vault


def stored(vault: Vault) -> dict[str, list[tuple[object, ...]]]:
    """Each note's stored passages: (text, kind, start, end, block id), in order."""
    _ = vault.index  # scanned
    found: dict[str, list[tuple[object, ...]]] = {}
    for path, text, kind, start, end, block in vault.store.query(
            "SELECT path, text, kind, start_line, end_line, block_id FROM passages "
            "ORDER BY path, number"):
        found.setdefault(path, []).append((text, kind, start, end, block))
    return found


def parsed(root: Path) -> dict[str, list[tuple[object, ...]]]:
    """Each source note's passages as a fresh parse gives them."""
    config = load_config(root)
    found = {}
    for note_id in Vault(root, use_cache=False).notes:
        path = f"{note_id}.md"
        note = parse_with_body(path, (root / path).read_bytes(), config)
        found[path] = [(p.text, p.kind, p.start, p.end, p.block_id)
                       for p in note_passages(note)]
    return {path: rows for path, rows in found.items() if rows}


def vocabulary(vault: Vault) -> list[tuple[str, int, int]]:
    """The full-text index's terms with their passage and occurrence counts."""
    with sqlite3.connect(vault.store.path) as db:
        db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, passages_fts, row)")
        return sorted(db.execute("SELECT term, doc, cnt FROM temp.vocab"))


def test_every_note_s_passages_are_stored_as_parsed(sample: Path) -> None:
    assert stored(Vault(sample)) == parsed(sample)


def test_changed_removed_and_added_notes_leave_the_index_a_fresh_scan_makes(
        sample: Path, tmp_path: Path) -> None:
    vault = Vault(sample)
    found = fts.candidates(vault.index.store.db, "Singapore")
    assert "People/Lucy Tan.md" in {hit.path for hit in found}
    lucy = sample / "People" / "Lucy Tan.md"
    lucy.write_text(lucy.read_text().replace("Singapore", "Porto"))
    (sample / "NOW.md").unlink()
    (sample / "Ideas.md").write_text("# Ideas\n\n- a zeppelin for deliveries ^z1\n")
    again = Vault(sample)
    assert stored(again) == parsed(sample)
    hits = fts.candidates(again.store.db, "zeppelin")
    assert [(h.path, h.block_id) for h in hits] == [("Ideas.md", "z1")]
    assert all(h.path != "People/Lucy Tan.md" for h in fts.candidates(again.store.db, "Singapore"))
    fresh_root = tmp_path / "fresh"
    shutil.copytree(sample, fresh_root)
    fresh = Vault(fresh_root)
    assert stored(fresh) == stored(again)
    assert vocabulary(again) == vocabulary(fresh)
