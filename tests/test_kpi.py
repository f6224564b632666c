"""KPIs: listing against targets, recording values with a history row and a trend."""

from __future__ import annotations

import json
from pathlib import Path

from vaultmem.vault import Vault

from .conftest import hash_tree
from .test_cli import run

AT = ("--date", "2026-12-04")


def test_list_against_targets(sample: Path) -> None:
    code, out, _ = run(sample, "kpi")
    assert (code, out) == (0, "[[KPIs/OCR Accuracy]]: 0.87 ratio (target 0.95), up, towards "
                              "target, updated 2026-11-27\n[[KPIs/Processing Time]]: 4.2 seconds "
                              "per page (target 3), down, towards target, updated 2026-11-27\n")
    data = json.loads(run(sample, "kpi", "OCR Accuracy", "--json")[1])["kpis"][0]
    assert data["history"][0] == ["2026-10-23", 0.81] and data["value"] == 0.87


def test_record_adds_a_row_of_the_tables_width(sample: Path) -> None:
    note = sample / "KPIs" / "OCR Accuracy.md"
    before = note.read_text()
    code, out, _ = run(sample, "kpi", "OCR Accuracy", "0.88", "--note", "currency fix", *AT)
    assert (code, out) == (0, "updated KPIs/OCR Accuracy.md\n  up, towards target\n")
    after = note.read_text()
    assert after == before.replace("value: 0.87", "value: 0.88").replace(
        "updated: 2026-11-27", "updated: 2026-12-04").replace(
        "| 2026-11-27 | 0.87 | |\n",
        "| 2026-11-27 | 0.87 | |\n| 2026-12-04 | 0.88 | currency fix |\n")
    code, out, _ = run(sample, "kpi", "Processing Time", "4.4", "--target", "3.5", *AT)
    assert out.endswith("  up, away from target\n")
    assert Vault(sample).note("Processing Time").frontmatter["target"] == 3.5


def test_kpi_without_history_gets_a_table(sample: Path) -> None:
    (sample / "KPIs" / "Churn.md").write_text("---\ntype: kpi\nvalue: 3\n---\n# Churn\n")
    run(sample, "kpi", "Churn", "2.5", "--unit", "%", *AT)
    assert (sample / "KPIs" / "Churn.md").read_text() == (
        "---\ntype: kpi\nvalue: 2.5\nupdated: 2026-12-04\nunit: \"%\"\n---\n# Churn\n\n"
        "## History\n| date | value |\n| --- | --- |\n| 2026-12-04 | 2.5 |\n")


def test_refusals_write_nothing(sample: Path) -> None:
    before = hash_tree(sample)
    code, _, err = run(sample, "kpi", "Lucy Tan", "3")
    assert code == 2 and "is a person, not a KPI" in err
    code, _, err = run(sample, "kpi", "OCR Accuracy", "high")
    assert code == 2 and "a KPI value is a number" in err
    code, out, _ = run(sample, "kpi", "OCR Accuracy", "0.9", "--dry-run", *AT)
    assert code == 0 and "+| 2026-12-04 | 0.9 | |" in out
    assert hash_tree(sample) == before
