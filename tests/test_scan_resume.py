"""A first scan stopped part way (Ctrl-C, a kill) keeps the notes it stored; the next scan
parses only the rest and ends with the index a scan in one go makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.index import scan
from vaultmem.index.store import Store
from vaultmem.vault import Vault

from .conftest import write_notes


def _vault(root: Path) -> None:
    write_notes(root, {f"Notes/N{i:03d}.md": f"# N{i}\n\nLinks [[N{(i + 1) % 120:03d}]] and "
                       f"#topic{i % 7}.\n" for i in range(120)})


def test_a_stopped_first_scan_goes_on_from_what_it_stored(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _vault(tmp_path / "vault")
    monkeypatch.setattr(scan, "STORE_EVERY", 20)
    stored = Store.store_notes
    calls = []

    def stopped(self: Store, batch: dict[str, object]) -> None:
        if len(calls) == 2:
            raise KeyboardInterrupt  # as Ctrl-C while the third batch is stored
        calls.append(len(batch))
        stored(self, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "store_notes", stopped)
    with pytest.raises(KeyboardInterrupt):
        _ = Vault(tmp_path / "vault").notes
    monkeypatch.setattr(Store, "store_notes", stored)
    parsed = []
    parse_all = scan.parse_all

    def counted(config, todo, progress, resolver):  # type: ignore[no-untyped-def]
        parsed.append(len(todo))
        return parse_all(config, todo, progress, resolver)

    monkeypatch.setattr(scan, "parse_all", counted)
    again = Vault(tmp_path / "vault")
    assert len(again.notes) == 120 and parsed == [120 - sum(calls)] and sum(calls) == 40
    monkeypatch.setattr(scan, "parse_all", parse_all)
    whole = Vault(tmp_path / "vault", use_cache=False)
    assert sorted(again.notes) == sorted(whole.notes)
    assert again.graph.number_of_edges() == whole.graph.number_of_edges() == 120
