"""The sample vault as the graph sees it: every note, its type, and the deliberate flaws."""

from __future__ import annotations

from pathlib import Path

from vaultmem.check.linting import lint
from vaultmem.vault import Vault

from .conftest import SAMPLE

TYPES = {
    "Agents/Rafael": "agent", "Agents/Strategist": "agent",
    "Daily/2026-11-25": "daily", "Daily/2026-11-26": "daily", "Daily/2026-11-27": "daily",
    "Daily/2026-11-28": "daily",
    "Decisions/Add handwriting support": "decision", "Decisions/Charge per document": "decision",
    "Decisions/Use PaddleOCR": "decision", "Decisions/Use Tesseract for OCR": "decision",
    "Facts/DataFlow - free beta": "fact", "Facts/Priya Nair - client count": "fact",
    "Home": "note", "KPIs/OCR Accuracy": "kpi", "KPIs/Processing Time": "kpi",
    "Learnings/ERRORS": "learning", "Learnings/FEATURE_REQUESTS": "learning",
    "Learnings/LEARNINGS": "learning",
    "Lessons/Rafael - Check currency symbol": "lesson",
    "Lessons/Rafael - Deskew before OCR": "lesson",
    "Lessons/Strategist - Ask for pilot data first": "lesson",
    "MEMORY": "core", "Meetings/2026-11-20 Pilot review": "note", "NOW": "now",
    "People/Henrik Olsen": "person", "People/Lucy Tan": "person", "People/Marco Diaz": "person",
    "People/Priya Nair": "person", "Projects/DataFlow": "project",
    "Projects/Invoice Inbox": "project",
}


def vault() -> Vault:
    return Vault(SAMPLE, use_cache=False)


def test_every_note_has_its_type_and_is_linked() -> None:
    v = vault()
    assert {note_id: note.type for note_id, note in v.notes.items()} == TYPES
    assert all(v.graph.degree(note_id) > 0 for note_id in TYPES)


def test_templates_and_excluded_notes_are_not_sources() -> None:
    v = vault()
    assert v.index.other == {"Archive/Old pricing notes": "excluded", "Templates/Daily": "template"}
    assert v.index.attachments == ["Attachments/ocr-sample.png"]


def test_the_one_link_to_a_note_to_write_is_the_only_finding() -> None:
    assert lint(vault()) == []  # nothing the owner must fix
    findings = lint(vault(), least=0.0)
    assert [(f.kind, f.notes, f.line, f.confidence) for f in findings] == [
        ("unwritten-link", ["Daily/2026-11-28"], 10, 0.4)  # "once Marco writes that spec"
    ]
    assert "[[Invoice Parser v2]]" in findings[0].message


def test_the_deliberate_conflict_is_parsed_as_a_field_about_lucy() -> None:
    daily = vault().notes["Daily/2026-11-26"]
    field = next(f for f in daily.fields if f.key == "timezone")
    assert (field.value, field.line) == ("UTC+7", 11)
    on_line = [link.resolved for link in daily.links if link.line == 11]
    assert on_line == ["People/Lucy Tan"]
    assert vault().notes["People/Lucy Tan"].frontmatter["timezone"] == "UTC+8"


def test_code_fence_decoys_are_not_indexed() -> None:
    rafael = vault().notes["Agents/Rafael"]
    assert "Not A Link" not in {link.target for link in rafael.links}
    assert "not-a-tag" not in rafael.tag_names()
    assert rafael.tag_names() == ["agent", "ocr"]


def test_heading_block_and_embed_links_resolve() -> None:
    v = vault()
    graph = v.graph
    assert graph.edges["Daily/2026-11-27", "Attachments/ocr-sample.png"]["kinds"] == ["embed"]
    assert graph.nodes["Attachments/ocr-sample.png"]["type"] == "attachment"
    block = [link for link in v.notes["MEMORY"].links if link.subpath == "#^pref-async"]
    assert [(b.resolved, b.line) for b in block] == [("People/Lucy Tan", 8)]
    assert graph.edges["Decisions/Use PaddleOCR", "Decisions/Use Tesseract for OCR"]["kinds"] == [
        "property:supersedes"
    ]


def test_kpi_table_escaped_pipe() -> None:
    kpi = vault().notes["KPIs/OCR Accuracy"]
    link = next(link for link in kpi.links if link.line == 19)
    assert (link.target, link.alias, link.resolved) == (
        "Use PaddleOCR", "PaddleOCR", "Decisions/Use PaddleOCR")
    assert (kpi.frontmatter["value"], kpi.frontmatter["target"]) == (0.87, 0.95)


def test_sample_vault_is_committed_as_plain_files() -> None:
    assert (SAMPLE / ".obsidian" / "daily-notes.json").is_file()
    assert all(path.read_bytes().endswith(b"\n") for path in Path(SAMPLE).rglob("*.md"))
