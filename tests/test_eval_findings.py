"""The findings evaluation on real vaults: its labels are well formed and its sample is stable."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from eval_findings import (
    LABELS,
    STAND_INS,
    allocate,
    copy_vault,
    key,
    label_of,
    read_labels,
    sample,
)


def finding(vault: str, kind: str, n: int, command: str = "lint") -> dict[str, Any]:
    """A made-up finding, the n-th of its kind."""
    return {"vault": vault, "command": command, "id": f"{kind}:{n:08x}", "kind": kind,
            "notes": [f"Note {n}"], "line": n, "message": f"{kind} number {n}"}


def test_every_label_is_well_formed_and_says_why() -> None:
    lines = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    assert lines, "benchmarks/labels/findings.jsonl holds the labels"
    for entry in lines:
        assert entry["label"] in ("act", "noise"), entry
        assert entry["why"].strip() and entry["pattern"].strip() and entry["run"], entry
        assert entry["command"] in ("lint", "conflicts") and entry["kind"], entry
        assert entry["id"].startswith(entry["kind"] + ":"), entry
    assert len({key(entry) for entry in lines}) == len(lines), "one label a finding"
    assert len({id(e) for e in read_labels(LABELS).values()}) == len(lines)


def test_stand_ins_name_files_inside_a_vault() -> None:
    for line in STAND_INS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            vault, _, path = line.partition("/")
            assert vault and path and ".." not in Path(path).parts, line


def test_allocation_gives_every_kind_its_floor_and_fills_the_size() -> None:
    counts = Counter({"broken-link": 976, "orphan": 173, "missing-heading": 47, "frontmatter": 21,
                      "placeholder": 19, "ambiguous-link": 14, "sync-duplicate": 13,
                      "missing-block": 3})
    take = allocate(counts, 100, 10)
    assert sum(take.values()) == 100
    assert all(take[kind] >= min(10, n) for kind, n in counts.items())
    assert all(take[kind] <= n for kind, n in counts.items())
    assert take["broken-link"] > take["orphan"] > take["missing-block"] == 3
    assert allocate(Counter({"a": 3, "b": 2}), 100, 10) == {"a": 3, "b": 2}
    assert sum(allocate(Counter({"a": 500, "b": 7}), 100, 10).values()) == 100


def test_a_finding_stays_in_the_sample_while_its_id_does() -> None:
    findings = [finding("v", kind, n) for kind in ("broken-link", "orphan") for n in range(300)]
    chosen = sample(findings, 40, 10)
    assert len(chosen) == 40 and sample(list(reversed(findings)), 40, 10) == chosen
    # after a change that removes findings nobody sampled, the sample is the same
    kept = chosen + [item for item in findings if item not in chosen][::2]
    assert sample(kept, 40, 10) == chosen


def test_a_label_follows_its_finding_by_id_or_by_its_words(tmp_path: Path) -> None:
    labels_file = tmp_path / "labels.jsonl"
    labelled = {**finding("v", "orphan", 1), "label": "noise", "why": "a template",
                "pattern": "template", "run": "before"}
    labels_file.write_text(json.dumps(labelled) + "\n", encoding="utf-8")
    labels = read_labels(labels_file)
    assert label_of(finding("v", "orphan", 1), labels) == labelled
    assert label_of({**finding("v", "orphan", 1), "id": "orphan:ffffffff"}, labels) == labelled
    assert label_of({**finding("v", "orphan", 1), "line": 2}, labels) is None
    assert label_of(finding("w", "orphan", 1), labels) is None


def test_the_copy_puts_back_what_the_corpus_left_out(tmp_path: Path) -> None:
    source = tmp_path / "corpus" / "vault"
    (source / "Notes").mkdir(parents=True)
    (source / "Notes" / "A.md").write_text("![[big.pdf]]\n", encoding="utf-8")
    (source / ".MISSING.txt").write_text(
        "Attachments over 300 KB left out (links to them resolve in the real vault):\n"
        "Files/big (1).pdf (2154162 bytes)\n", encoding="utf-8")
    (source / "Notes").chmod(0o555)
    try:
        copy = copy_vault(source, tmp_path / "work")
    finally:
        (source / "Notes").chmod(0o755)
    assert (copy / "Files" / "big (1).pdf").read_bytes() == b""
    assert (copy / "Notes" / "A.md").read_text(encoding="utf-8") == "![[big.pdf]]\n"
    assert not (source / "Files").exists()
