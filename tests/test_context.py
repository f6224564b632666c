"""The agent context: sections, sources, budget, determinism, secrets, context notes."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from vaultmem.recall.context.build import build_context
from vaultmem.recall.context.rendering import WHY_TITLE
from vaultmem.recall.token_budget import estimate_tokens, trim
from vaultmem.vault import Vault

from .conftest import SAMPLE, hash_tree
from .test_cli import run

TODAY = dt.date(2026, 11, 29)


@pytest.fixture(scope="module")
def vault() -> Vault:
    return Vault(SAMPLE, use_cache=False)


@pytest.mark.parametrize("budget", [120, 300, 500, 1000, 2000, 4000])
def test_budget_is_a_hard_cap_and_nothing_is_cut_mid_link(vault: Vault, budget: int) -> None:
    built = build_context(vault, agent="Rafael", query="OCR accuracy blockers", budget=budget,
                          today=TODAY)
    assert estimate_tokens(built.text) == built.tokens <= budget
    for line in built.text.splitlines():
        assert line.count("[[") == line.count("]]"), line
    for item in built.items:  # a trimmed item is a prefix of its source text, cut at a word end
        if item.text.endswith("…"):
            assert re.search(r"[\w.!?)\],;:]…$", item.text), item.text
            assert len(item.lines) <= item.text.count("\n") + 1


def test_sections_and_sources(vault: Vault) -> None:
    built = build_context(vault, agent="Rafael", query="what is the OCR accuracy now?",
                          budget=2000, today=TODAY)
    titles = re.findall(r"^## (.+)$", built.text, re.MULTILINE)
    assert titles == ["Core memory", "Now", "Agent", "Relevant", "Decisions", "KPIs", "People",
                      "Recent activity", "Open conflicts: ask the user before relying on these"]
    unasked = build_context(vault, agent="Rafael", budget=2000, today=TODAY)
    assert "\n## Recent activity\n" in unasked.text  # with a question it has no floor
    assert "- OCR Accuracy: 0.87 (target 0.95 ratio), trend 0.81 → 0.87 ([[KPIs/OCR Accuracy]])" \
        in built.text
    assert "Lesson (confirmed): Rafael - Deskew before OCR" in built.text
    assert "Use Tesseract for OCR (" not in built.text  # superseded decisions stay out
    blocks = re.split(r"\n(?=- |\n|## |### )", built.text)
    items = [block.rstrip() for block in blocks if block.startswith("- ")]
    assert len(items) == len(built.items)
    for item in built.items:  # a passage cites its block id or line under its note's heading
        if item.kind == "code":
            continue  # fenced, its source below it (test_context_items)
        assert "- " + item.text.replace("\n", "\n  ") + f" ({item.cite})" in items
        cite = r"\^[\w-]+|line \d+" if item.section == "relevant" else r"\[\[[^\]]+\]\]"
        assert re.fullmatch(cite, item.cite), item
    assert {item.section for item in built.items} == {
        "core", "now", "agent", "relevant", "decisions", "kpis", "people", "recent", "conflicts"}


def test_query_hit_in_a_daily_entry_brings_lines_and_person(vault: Vault) -> None:
    built = build_context(vault, query="Lucy moved, what timezone is she in now?", budget=1500,
                          today=TODAY)
    relevant = [i for i in built.items if i.section == "relevant"]
    daily = next(i for i in relevant if i.id == "Daily/2026-11-26")
    assert 11 in daily.lines and "[[Lucy Tan]] timezone: UTC+7" in daily.text  # a field as read
    lucy = [i for i in built.items if i.id == "People/Lucy Tan"]  # her role and timezone, once
    assert len([i for i in lucy if "UTC+8" in i.text]) == 1
    assert "timezone is stated differently" in built.text


def test_relevant_passages_are_whole_grouped_by_note_in_file_order(vault: Vault) -> None:
    built = build_context(vault, query="OCR accuracy deskew photos", budget=1000, today=TODAY)
    stored = {(path[:-3], start, text) for path, start, text in vault.store.query(
        "SELECT path, start_line, text FROM passages")}
    relevant = [item for item in built.items if item.section == "relevant"]
    assert relevant and all((i.id, i.lines[0], i.text) in stored for i in relevant)
    section = built.text.split("## Relevant\n")[1].split("\n## ")[0]
    headings = re.findall(r"^### \[\[([^\]]+)\]\]", section, re.MULTILINE)
    assert len(headings) == len(set(headings))  # one heading per note (or section of one)
    assert {h.split("#")[0] for h in headings} == {i.id for i in relevant}
    assert any("#" in h for h in headings)  # a passage under a heading names it
    for place in headings:
        under = section.split(f"### [[{place}]]")[1].split("\n### ")[0]
        shown = [under.index(i.text.replace("\n", "\n  "))
                 for i in sorted(relevant, key=lambda i: i.lines)
                 if i.group.startswith(f"[[{place}]]")]
        assert shown == sorted(shown)


@pytest.mark.parametrize("query", ["Lucy moved, what timezone is she in now?", "pilot pricing",
                                   "what happened on 2026-11-27?"])
def test_nothing_is_shown_twice(vault: Vault, query: str) -> None:
    built = build_context(vault, agent="Strategist", query=query, budget=3000, today=TODAY)
    for at, item in enumerate(built.items):
        for other in built.items[at + 1 :]:
            assert item.id != other.id or not set(item.lines) & set(other.lines), (item, other)


def test_deterministic(vault: Vault) -> None:
    first = build_context(vault, agent="Strategist", query="pricing", budget=800, today=TODAY)
    second = build_context(Vault(SAMPLE, use_cache=False), agent="Strategist", query="pricing",
                           budget=800, today=TODAY)
    assert first.to_dict() == second.to_dict()


def test_secrets_are_redacted(sample: Path) -> None:
    token = "ghp_" + "Z9y8X7w6" * 5
    memory = sample / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Team", f"## Team\n- Deploy key {token}", 1))
    code, out, _ = run(sample, "context", "--agent", "Rafael", "--budget", "3000")
    assert code == 0 and token not in out and token[:12] not in out
    assert "[REDACTED:GitHub token]" in out


def test_cli_json_and_small_budget(sample: Path) -> None:
    data = json.loads(run(sample, "context", "--agent", "Rafael", "--query", "deskew",
                          "--budget", "500", "--json")[1])
    assert set(data) == {"agent", "query", "budget", "tokens", "text", "items"}
    assert data["agent"] == "Agents/Rafael" and data["tokens"] <= 500
    assert set(data["items"][0]) >= {"id", "section", "tokens", "score"}
    code, _, err = run(sample, "context", "--agent", "Rafael", "--query", "x" * 400,
                       "--budget", "60")
    assert code == 2 and "too small" in err


def test_context_note_and_sync_rewrite_only_changes(sample: Path) -> None:
    code, _, err = run(sample, "context", "--agent", "Rafael", "--write")
    assert code == 0 and err == "updated _vaultmem/context/Rafael.md\n"
    note = (sample / "_vaultmem" / "context" / "Rafael.md").read_text()
    assert note.startswith("---\ngenerated_by: vaultmem\ntype: context\nbudget: 2000\n"
                           'agent: "[[Agents/Rafael]]"\n---\n# Context for Rafael\n')
    assert "\n## Sources\n- [[" in note and "\n## Neighbourhood\n```mermaid\nflowchart LR\n" in note
    out = run(sample, "sync")[1].splitlines()
    assert "unchanged _vaultmem/context/Rafael.md" in out
    assert "updated _vaultmem/context/Strategist.md" in out
    before = hash_tree(sample)
    assert {line.split()[0] for line in run(sample, "sync")[1].splitlines()} == {"unchanged"}
    assert hash_tree(sample) == before
    assert "_vaultmem/context/Rafael" not in Vault(sample).notes


def test_trim_keeps_links_whole() -> None:
    text = "Ask [[Lucy Tan]] before changing [[Charge per document]] pricing again."
    for limit in range(1, estimate_tokens(text) + 1):
        cut = trim(text, limit)
        assert estimate_tokens(cut) <= limit and cut.count("[[") == cut.count("]]")
        assert cut == "" or text.startswith(cut.rstrip("…"))


def test_a_context_note_names_the_note_of_every_source(sample: Path) -> None:
    code, _, _ = run(sample, "context", "--agent", "Rafael", "--query",
                     "what blocks OCR accuracy?", "--write")
    note = (sample / "_vaultmem" / "context" / "Rafael.md").read_text()
    sources = note.split("\n## Sources\n")[1].split("\n\n")[0].splitlines()
    assert code == 0 and sources == sorted(sources)
    assert all(line.startswith("- [[") for line in sources)  # never a bare "- line 15"
    cited = [line for line in sources if line.startswith("- [[KPIs/OCR Accuracy]] line")]
    assert len(cited) == 1 and re.fullmatch(r"- \[\[KPIs/OCR Accuracy\]\] lines (\d+(-\d+)?, )*"
                                            r"\d+(-\d+)?", cited[0])


def test_explain_says_why_each_item_is_in_after_the_context(sample: Path) -> None:
    """--explain prints the same context, then one line per item in the order shown: the
    parts of a passage's score with the question's words it holds, a section's rule else."""
    asked = ("context", "--query", "Lucy's timezone", "--budget", "400")
    code, plain, _ = run(sample, *asked)
    code_explained, explained, _ = run(sample, *asked, "--explain")
    context, why = explained.split(f"\n## {WHY_TITLE}\n")
    assert (code, code_explained) == (0, 0) and context == plain
    shown = [line for line in plain.splitlines() if line.startswith("- ")]
    assert len(why.splitlines()) == len(shown)
    assert why.splitlines()[0] == "- [[MEMORY#Team]]: a line of MEMORY.md"
    assert ("- [[Daily/2026-11-26]] line 11: words Lucy timezone +1.00; after a match +0.19; "
            "its note matches +0.30; names People/Lucy Tan +0.08") in why.splitlines()
    items = json.loads(run(sample, *asked, "--json")[1])["items"]
    assert next(i["reasons"] for i in items if i["id"] == "Daily/2026-11-26" and 11 in i["lines"]) \
        == ["words Lucy timezone +1.00", "after a match +0.19", "its note matches +0.30",
            "names People/Lucy Tan +0.08"]
