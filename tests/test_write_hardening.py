"""Write, conflict and context edge cases found in review: each one now behaves."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vaultmem.check.conflicts import find_conflicts
from vaultmem.recall.context.build import build_context
from vaultmem.recall.token_budget import estimate_tokens
from vaultmem.vault import Vault
from vaultmem.write.sections import append_to_section, replace_section

from .conftest import hash_tree
from .test_cli import run
from .test_conflicts import TODAY

AT = ("--date", "2026-11-29", "--time", "10:00")
TOKEN = "ghp_" + "Q7w8E9r0" * 5
PASSWORD = "password: Xk2v9Lq7w"


def test_fact_on_a_note_with_a_bom_keeps_the_old_value(sample: Path) -> None:
    (sample / "People" / "Kim.md").write_bytes(
        "\ufeff---\ntype: person\nrole: dev\nversion: 3\n---\n# Kim\n".encode())
    code, out, _ = run(sample, "fact", "Kim", "role", "lead", *AT)
    assert code == 0 and out.startswith("updated People/Kim.md (version 4)\n  conflict detected")
    text = (sample / "People" / "Kim.md").read_bytes().decode()
    assert text.startswith("\ufeff---\n") and "- v3 (until 2026-11-29): role = dev\n" in text


@pytest.mark.parametrize("args", [
    ["new", "person", "Ann Bee", "--field", "password=Xk2v9Lq7w"],
    ["new", "person", "Cid Dee", "--link", f"org={TOKEN}"],
    ["new", "person", "Eve Fox", "--field", f"{TOKEN}=1"],
    ["fact", "Marco Diaz", "role", "cto", "--source", TOKEN],
    ["decide", "Use Vault", "--topic", "secrets", "--by", TOKEN],
])
def test_every_write_path_is_guarded(sample: Path, args: list[str]) -> None:
    before = hash_tree(sample)
    code, _, err = run(sample, *args, *AT)
    assert code == 1 and "refused to store a credential" in err
    assert hash_tree(sample) == before


def test_context_redacts_the_question_and_daily_headings(sample: Path) -> None:
    daily = sample / "Daily" / "2026-11-28.md"
    daily.write_text(daily.read_text() + f"\n### 18:00 — New db {PASSWORD}\nRotated it.\n")
    code, out, _ = run(sample, "context", "--query", f"db password rotated {TOKEN}",
                       "--budget", "3000")
    assert code == 0 and "Xk2v9Lq7w" not in out and TOKEN[:12] not in out


def test_config_folders_and_links_cannot_lead_outside(sample: Path, tmp_path: Path) -> None:
    (sample / ".vaultmem").mkdir()
    (sample / ".vaultmem" / "config.toml").write_text('context_folder = "../escaped"\n')
    code, _, err = run(sample, "context", "--agent", "Rafael", "--write")
    assert code == 2 and "outside the vault" in err
    assert not (tmp_path / "escaped").exists()
    (sample / ".vaultmem" / "config.toml").unlink()
    outside = tmp_path / "elsewhere.md"
    outside.write_text("mine\n")
    os.symlink(outside, sample / "People" / "Linked.md")
    code, _, err = run(sample, "fact", "Linked", "role", "x", *AT)
    assert code == 1 and "no note named 'Linked'" in err and outside.read_text() == "mine\n"


def test_property_spelling_is_kept_and_resolve_converges(sample: Path) -> None:
    lucy = sample / "People" / "Lucy Tan.md"
    lucy.write_text(lucy.read_text().replace("timezone:", "Timezone:"))
    finding = find_conflicts(Vault(sample), today=TODAY)[0].id
    assert run(sample, "resolve", finding, "--keep", "Daily/2026-11-26", *AT)[0] == 0
    text = lucy.read_text()
    assert "Timezone: UTC+7\n" in text and "timezone:" not in text
    assert find_conflicts(Vault(sample), today=TODAY) == []


def test_values_keep_their_form(sample: Path) -> None:
    run(sample, "fact", "Henrik Olsen", "code", "007", *AT)
    run(sample, "fact", "Henrik Olsen", "phone", "+4915112345678", *AT)
    fm = Vault(sample).note("Henrik Olsen").frontmatter
    assert (fm["code"], fm["phone"]) == ("007", "+4915112345678")
    code, _, err = run(sample, "fact", "Henrik Olsen", "note", "two\nlines", *AT)
    assert code == 2 and "one line" in err


def test_history_records_a_hand_edited_value(sample: Path) -> None:
    run(sample, "fact", "Henrik Olsen", "clients", "42", *AT)
    note = sample / "People" / "Henrik Olsen.md"
    note.write_text(note.read_text().replace("clients: 42", "clients: 4"))
    run(sample, "fact", "Henrik Olsen", "clients", "5", *AT)
    assert "): clients = 4\n" in note.read_text()


def test_link_topics_and_quoted_values_compare_as_meant(tmp_path: Path) -> None:
    for name, topic in (("A", '"[[OCR engine]]"'), ("B", '"[[ocr engine|OCR]]"')):
        (tmp_path / f"{name}.md").write_text(f"---\ntype: decision\nstatus: approved\n"
                                             f"topic: {topic}\n---\n")
    (tmp_path / "OCR engine.md").write_text("x\n")
    (tmp_path / "Marco.md").write_text("---\nrole: ML engineer\n---\n")
    (tmp_path / "Log.md").write_text('- [[Marco]] role:: "ML engineer"\n')
    found = find_conflicts(Vault(tmp_path), today=TODAY)
    assert [(f.kind, f.notes) for f in found] == [("decision-conflict", ["A", "B"])]


def test_keeping_the_superseded_one_is_refused(sample: Path) -> None:
    old = sample / "Decisions" / "Use Tesseract for OCR.md"
    old.write_text(old.read_text().replace("status: superseded", "status: approved"))
    finding = find_conflicts(Vault(sample), today=TODAY, kinds=("superseded-active",))[0].id
    before = hash_tree(sample)
    code, _, err = run(sample, "resolve", finding, "--keep", "Use Tesseract for OCR")
    assert code == 1 and "remove `supersedes`" in err and hash_tree(sample) == before


def test_agents_with_one_name_get_two_context_notes(sample: Path) -> None:
    for team in ("A", "B"):
        (sample / "Agents" / team).mkdir()
        (sample / "Agents" / team / "Helper.md").write_text("---\ntype: agent\nrole: x\n---\n")
    out = run(sample, "sync", "--no-index", "--no-conflicts")[1]
    assert "updated _vaultmem/context/A - Helper.md" in out
    assert "updated _vaultmem/context/B - Helper.md" in out


def test_now_done_removes_a_numbered_priority_and_unblock_needs_the_item(sample: Path) -> None:
    run(sample, "now", "done", "Scope [[Invoice Inbox]] with [[Marco Diaz]].", *AT)
    assert "Scope [[Invoice Inbox]]" not in (sample / "NOW.md").read_text().split(
        "## Priorities")[1].split("##")[0]
    code, _, err = run(sample, "now", "unblock", "nothing like this")
    assert code == 1 and "no item" in err


def test_decide_supersedes_only_decisions_and_writes_nothing_else(sample: Path) -> None:
    before = hash_tree(sample)
    code, _, err = run(sample, "decide", "Hire", "--topic", "t", "--supersedes", "Lucy Tan")
    assert code == 2 and "takes a decision" in err and hash_tree(sample) == before


def test_bad_property_names_are_usage_errors(sample: Path) -> None:
    code, _, err = run(sample, "new", "person", "Gus Hay", "--field", "my key=x")
    assert code == 2 and "not a property name" in err


@pytest.mark.parametrize("budget", range(50, 400, 7))
def test_context_never_exceeds_its_budget(budget: int) -> None:
    from .conftest import SAMPLE

    vault = Vault(SAMPLE, use_cache=False)
    for agent, query in (("Strategist", "pricing"), ("Rafael", "deskew photos"), (None, "Lucy")):
        built = build_context(vault, agent=agent, query=query, budget=budget, today=TODAY)
        assert estimate_tokens(built.text) <= budget


def test_sections_skip_quotes_and_understand_setext() -> None:
    text = "> ## History\n> quoted\n\nCurrent Task\n------------\nold\n\n## Other\nx\n"
    assert replace_section(text, "Current Task", ["new"]) == (
        "> ## History\n> quoted\n\nCurrent Task\n------------\nnew\n\n## Other\nx\n")
    assert append_to_section(text, "History", ["- v1"]).endswith("x\n\n## History\n- v1\n")


def test_kpi_comment_with_a_pipe_stays_one_cell(sample: Path) -> None:
    run(sample, "kpi", "OCR Accuracy", "0.88", "--note", "a | b", *AT)
    assert "| 2026-11-29 | 0.88 | a \\| b |\n" in (sample / "KPIs" / "OCR Accuracy.md").read_text()
