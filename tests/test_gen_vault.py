"""The benchmark generator's vault parses exactly as its ground truth says."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from vaultmem.vault import Vault

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_vault import generate
from truth import differences


def test_generated_vault_matches_its_ground_truth(tmp_path: Path) -> None:
    truth = generate(300, tmp_path / "vault", seed=3)
    assert differences(Vault(tmp_path / "vault", use_cache=False), truth) == []
    assert json.loads((tmp_path / "vault.truth.json").read_text())["n"] == 300


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generate(60, tmp_path / "a", seed=5)
    generate(60, tmp_path / "b", seed=5)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.md"))
    assert files_a == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.md"))
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
               for f in files_a)
