"""council-json export and import: shape, round trip, duplicates, validation, dry run, secrets."""

from __future__ import annotations

import copy
import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from vaultmem.curate.council import export_council
from vaultmem.curate.council_check import CouncilFormatError
from vaultmem.curate.council_import import import_council
from vaultmem.model import Json
from vaultmem.secrets import SecretRefused
from vaultmem.vault import Vault

from .conftest import SAMPLE, hash_tree
from .test_cli import run

WHEN = dt.datetime(2026, 11, 29, 10, 0)
FAKE_GITHUB = "ghp_" + "A1b2C3d4" * 5
FactTuple = tuple[str, str, str, str]


def fresh(tmp_path: Path) -> Path:
    """An empty vault (no notes) with the sample vault's Obsidian settings (Daily folder)."""
    root = tmp_path / "fresh"
    shutil.copytree(SAMPLE / ".obsidian", root / ".obsidian")
    return root


def facts(data: Json) -> set[FactTuple]:
    """(entity, attribute, value, valid_from) of every exported fact."""
    return {(f["entity"], f["attribute"], json.dumps(f["value"]), f["valid_from"])
            for f in data["facts"]}


def ids(data: Json, section: str) -> list[tuple[str, str]]:
    """(id, status) of a section's items."""
    return [(item["id"], item.get("status", "")) for item in data[section]]


def test_export_shape_and_values(sample: Path) -> None:
    data = export_council(Vault(sample))
    assert list(data) == ["format", "version", "facts", "decisions", "kpis", "lessons",
                          "sessions"]
    assert (data["format"], data["version"]) == ("council-json", 1)
    for section in ("facts", "decisions", "kpis", "lessons", "sessions"):
        assert [item["id"] for item in data[section]] == sorted(i["id"] for i in data[section])
    beta = next(f for f in data["facts"] if f["id"] == "Facts/DataFlow - free beta")
    assert beta | {"history": []} == {
        "id": "Facts/DataFlow - free beta", "kind": "fact-note", "entity": "Projects/DataFlow",
        "attribute": "pricing", "value": "free beta", "valid_from": "2026-03-01",
        "valid_until": "2026-06-30", "confidence": 1.0, "status": "active",
        "source": "Decisions/Charge per document", "history": []}
    inline = {(f["entity"], f["attribute"]): f["value"] for f in data["facts"]
              if f["kind"] == "field"}
    assert inline[("People/Priya Nair", "clients")] == 42  # numbers stay numbers
    assert inline[("People/Lucy Tan", "timezone")] == "UTC+7"
    paddle = next(d for d in data["decisions"] if d["title"] == "Use PaddleOCR")
    assert (paddle["made_by"], paddle["supersedes"]) == ("People/Lucy Tan",
                                                         "Decisions/Use Tesseract for OCR")
    kpi = next(k for k in data["kpis"] if k["name"] == "OCR Accuracy")
    assert (kpi["value"], kpi["target"], kpi["history"][0]) == (
        0.87, 0.95, {"date": "2026-10-23", "value": 0.81})
    deskew = next(le for le in data["lessons"] if le["pattern_key"] == "ocr.deskew")
    assert deskew["rule"].startswith("deskew and crop every page")
    day = next(s for s in data["sessions"] if s["id"] == "2026-11-25")
    assert day["entries"][0]["time"] == "09:10"
    assert day["entries"][0]["title"] == "Pilot call with Priya"


def test_export_is_deterministic_and_reads_only(sample: Path) -> None:
    before = hash_tree(sample)
    first = json.dumps(export_council(Vault(sample)), sort_keys=True)
    assert json.dumps(export_council(Vault(sample, use_cache=False)), sort_keys=True) == first
    assert hash_tree(sample) == before


def test_round_trip_keeps_every_fact(sample: Path, tmp_path: Path) -> None:
    exported = export_council(Vault(sample))
    target = fresh(tmp_path)
    import_council(Vault(target), exported, when=WHEN)
    again = export_council(Vault(target))
    assert facts(exported) <= facts(again)
    # the only new fact is the project template's own default start date
    assert facts(again) - facts(exported) == {
        ("Projects/Invoice Inbox", "started", '"2026-11-29"', "")}
    for section in ("decisions", "kpis", "lessons"):
        assert ids(again, section) == ids(exported, section)
    assert again["decisions"] == exported["decisions"]
    assert again["kpis"] == exported["kpis"]
    assert again["sessions"] == exported["sessions"]


def test_second_import_changes_nothing(sample: Path, tmp_path: Path) -> None:
    exported = export_council(Vault(sample))
    target = fresh(tmp_path)
    first = import_council(Vault(target), exported, when=WHEN)
    assert first.results and all(r.action in ("created", "updated", "appended")
                                 for r in first.results)
    before = hash_tree(target)
    second = import_council(Vault(target), exported, when=WHEN)
    assert second.results == []
    assert len(second.skipped) == sum(len(exported[s]) for s in ("facts", "decisions", "kpis",
                                                                  "lessons")) + sum(
        len(s["entries"]) for s in exported["sessions"])
    assert hash_tree(target) == before


def test_import_into_its_own_vault_is_a_no_op(sample: Path) -> None:
    before = hash_tree(sample)
    report = import_council(Vault(sample), export_council(Vault(sample)), when=WHEN)
    assert report.results == []
    assert hash_tree(sample) == before


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["facts"][3].pop("entity"), "facts[3]: missing 'entity'"),
    (lambda d: d["facts"][0].update(value=[1, 2]), "facts[0]: 'value' must be"),
    (lambda d: d["decisions"][1].update(title="a/b"), "decisions[1]:"),
    (lambda d: d["sessions"][2].update(date="yesterday"), "sessions[2]: 'date'"),
    (lambda d: d["sessions"][0]["entries"][1].update(time="noon"), "sessions[0].entries[1]"),
    (lambda d: d.update(kpis={}), "kpis: expected a list"),
    (lambda d: d.update(format="other"), "not a council-json document"),
    (lambda d: d["sessions"][2].update(date="2026-02-30"), "sessions[2]: 'date'"),
    (lambda d: d["sessions"][0]["entries"][1].update(time="25:99"), "sessions[0].entries[1]"),
    (lambda d: d["kpis"][0].update(history=["0.9"]), "kpis[0]: 'history' must be a list of"),
    (lambda d: d["decisions"][0].update(history=[{"text": "x"}]), "decisions[0]: 'history'"),
    (lambda d: d["lessons"][0].update(sources="abc"), "lessons[0]: 'sources' must be a list"),
    (lambda d: d["decisions"][0].update(date="soon"), "decisions[0]: 'date' must be a date"),
    (lambda d: d["facts"][0].update(attribute="two words"), "facts[0]: 'two words' cannot"),
])
def test_invalid_document_writes_nothing(sample: Path, tmp_path: Path, change: object,
                                         message: str) -> None:
    data = copy.deepcopy(export_council(Vault(sample)))
    change(data)  # type: ignore[operator]
    target = fresh(tmp_path)
    before = hash_tree(target)
    with pytest.raises(CouncilFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
        import_council(Vault(target), data, when=WHEN)
    assert hash_tree(target) == before


def test_not_an_object_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CouncilFormatError, match="JSON object"):
        import_council(Vault(fresh(tmp_path)), [], when=WHEN)


def test_dry_run_writes_nothing(sample: Path, tmp_path: Path) -> None:
    target = fresh(tmp_path)
    before = hash_tree(target)
    report = import_council(Vault(target), export_council(Vault(sample)), dry_run=True,
                            when=WHEN)
    assert report.results and all(r.action.startswith("would ") for r in report.results)
    assert hash_tree(target) == before


def test_secret_in_a_value_is_refused_before_any_write(sample: Path, tmp_path: Path) -> None:
    data = copy.deepcopy(export_council(Vault(sample)))
    data["facts"][-1]["value"] = f"token {FAKE_GITHUB}"
    target = fresh(tmp_path)
    before = hash_tree(target)
    with pytest.raises(SecretRefused) as caught:
        import_council(Vault(target), data, when=WHEN)
    assert FAKE_GITHUB not in str(caught.value)
    assert hash_tree(target) == before


def test_new_fact_is_written_once(sample: Path) -> None:
    data: Json = {"format": "council-json", "version": 1, "facts": [
        {"entity": "People/Lucy Tan", "attribute": "city", "value": "Bangkok"},
        {"entity": "Nobody Here", "attribute": "clients", "value": 3,
         "valid_from": "2026-11-01"}]}
    report = import_council(Vault(sample), data, when=WHEN)
    assert [(r.action, r.path) for r in report.results] == [
        ("updated", "People/Lucy Tan.md"), ("created", "Facts/Nobody Here - clients.md")]
    assert Vault(sample).note("Lucy Tan").frontmatter["city"] == "Bangkok"
    before = hash_tree(sample)
    assert import_council(Vault(sample), data, when=WHEN).results == []
    assert hash_tree(sample) == before


def test_cli_export_then_import_twice(sample: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "memory.json"
    code, out, err = run(sample, "export", "--format", "council-json", "-o", str(out_file))
    assert (code, out, err) == (0, "", f"wrote {out_file}\n")
    assert json.loads(out_file.read_text()) == export_council(Vault(sample))
    assert json.loads(run(sample, "export")[1]) == export_council(Vault(sample))
    target = fresh(tmp_path)
    code, out, _ = run(target, "import", "council-json", str(out_file))
    assert code == 0 and out.endswith(" write(s); 5 already in the vault.\n")
    code, out, _ = run(target, "import", "council-json", str(out_file))
    assert (code, out) == (0, "0 write(s); 56 already in the vault.\n")
    (tmp_path / "broken.json").write_text("{")
    code, _, err = run(target, "import", "council-json", str(tmp_path / "broken.json"))
    assert code == 2 and "not a JSON file" in err


def test_undated_facts_and_untitled_entries_import_once(tmp_path: Path) -> None:
    data = {"format": "council-json", "version": 1,
            "facts": [{"entity": "Projects/Moonshot", "attribute": "budget", "value": 5000,
                       "kind": "fact-note", "id": "Facts/Moonshot budget"}],
            "sessions": [{"date": "2026-11-02", "entries": [{"time": "10:00",
                                                             "text": "only text here"}]}]}
    target = fresh(tmp_path)
    first = import_council(Vault(target), data, when=WHEN)
    assert [r.path for r in first.results] == ["Daily/2026-11-02.md", "Facts/Moonshot budget.md"]
    before = hash_tree(target)
    assert import_council(Vault(target), data, when=WHEN).results == []
    assert hash_tree(target) == before


def test_people_typed_by_their_categories_export_their_facts(tmp_path: Path) -> None:
    from vaultmem.vault import Vault

    (tmp_path / "References").mkdir()
    (tmp_path / "References" / "Steph Ango.md").write_text(
        '---\ncategories:\n  - "[[People]]"\ntwitter: kepano\n---\nCEO.\n')
    (tmp_path / "References" / "Kyoto.md").write_text(
        '---\ncategories:\n  - "[[Places]]"\ncountry: Japan\n---\n')
    facts = export_council(Vault(tmp_path, use_cache=False))["facts"]
    assert [(f["entity"], f["attribute"], f["value"]) for f in facts] == [
        ("References/Steph Ango", "twitter", "kepano")]  # a place is no entity


def test_an_agent_s_entry_keeps_its_stamp_through_export_and_import(sample: Path,
                                                                    tmp_path: Path) -> None:
    from vaultmem.caller import Caller
    from vaultmem.write.journal import append_daily

    append_daily(Vault(sample), "Checked the OCR queue.", title="OCR queue", when=WHEN,
                 caller=Caller(agent="Rafael"))
    exported = export_council(Vault(sample))
    day = next(s for s in exported["sessions"] if s["date"] == "2026-11-29")
    entry = next(e for e in day["entries"] if e["title"] == "OCR queue")
    assert entry["by"] == "Agents/Rafael" and entry["text"] == "Checked the OCR queue."
    target = tmp_path / "target"
    shutil.copytree(sample, target)
    (target / "Daily" / "2026-11-29.md").unlink()
    import_council(Vault(target), exported, when=WHEN)
    daily = (target / "Daily" / "2026-11-29.md").read_text()
    assert "### 10:00 — OCR queue\nby [[Rafael]]\nChecked the OCR queue.\n" in daily
    assert export_council(Vault(target))["sessions"] == exported["sessions"]
