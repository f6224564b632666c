"""Context items read as text: a note asked for, code, citations, empty answers."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from vaultmem.model import Heading, Note
from vaultmem.recall.context.build import build_context
from vaultmem.recall.context.candidates import cite, link_heading
from vaultmem.vault import Vault

TODAY = dt.date(2026, 11, 29)
KYOTO = """---
categories:
  - "[[Places]]"
type: "[[Cities]]"
rating: 7
---
## Trips
![[Trips.base#Location]]

## Places
![[Map.base#Location]] ![[Places.base#Location]]

## Plans
- [ ] book the ryokan
- [x] buy the rail pass
"""


def write(root: Path, name: str, text: str) -> None:
    """Write a note of the vault at ``root``."""
    path = root / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_note_asked_for_shows_its_properties_and_passages_not_its_embeds(
        tmp_path: Path) -> None:
    write(tmp_path, "References/Kyoto", KYOTO)
    built = build_context(Vault(tmp_path), note="Kyoto", budget=500, today=TODAY)
    assert built.text == ("# Context\n\n## Relevant\n### [[References/Kyoto]]\n"
                          "- categories: Places; type: Cities; rating: 7 (line 2)\n"
                          "- [ ] book the ryokan (line 14)\n- [x] buy the rail pass (line 15)\n")


def test_code_is_fenced_with_its_source_below(tmp_path: Path) -> None:
    write(tmp_path, "Tools", "# Tools\nThe deploy script:\n\n~~~sh\nmake deploy\necho ```\n~~~\n")
    built = build_context(Vault(tmp_path), query="deploy script", budget=500, today=TODAY)
    assert "### [[Tools]]\n- ````\n  make deploy\n  echo ```\n  ````\n  (line 5)\n" in built.text
    # the label before it ranks below the code it names and holds less: left out
    assert [item.kind for item in built.items] == ["code"]


def test_a_citation_names_a_heading_as_a_link_can() -> None:
    note = Note(id="IT/CPU", path="IT/CPU.md", title="CPU", headings=[
        Heading("[[Arithmetic Logic Unit]]", 2, 3), Heading("09:15 — Call #ops | ^x", 3, 8),
        Heading("[[]]", 2, 12)])
    assert cite(note, 4) == "[[IT/CPU#Arithmetic Logic Unit]]"
    assert cite(note, 9) == "[[IT/CPU#09 15 — Call ops x]]"
    assert cite(note, 13) == "[[IT/CPU]]"
    assert cite(note, 13, "blk") == "[[IT/CPU#^blk]]"
    assert link_heading("[[a|b]]: c%%d") == "a b c d"


def test_core_memory_cites_a_heading_that_holds_a_link(tmp_path: Path) -> None:
    write(tmp_path, "MEMORY", "# Memory\n## [[Arithmetic Logic Unit]]\n- adds and compares\n")
    built = build_context(Vault(tmp_path), budget=300, today=TODAY)
    assert "- adds and compares ([[MEMORY#Arithmetic Logic Unit]])\n" in built.text


def test_an_empty_context_says_why(tmp_path: Path) -> None:
    write(tmp_path, "Note", "Some words here.\n")
    vault = Vault(tmp_path)
    assert build_context(vault, query="{}", budget=300, today=TODAY).text == (
        "# Context\n\nQuestion: {}\n\nThe question has no words to search the vault for.\n")
    nothing = build_context(vault, query="zebras", budget=300, today=TODAY)
    assert nothing.text == ("# Context\n\nQuestion: zebras\n\n"
                            "No passage holds much of the question (no note holds zebras).\n")
    assert nothing.tokens <= 300 and nothing.items == []


def test_a_person_s_listed_properties_read_as_a_list(tmp_path: Path) -> None:
    write(tmp_path, "People/Ana", '---\ntype: person\nrole: [CTO, "[[Board]]"]\norg: Acme\n---\n'
                                  "Ana leads the platform team.\n")
    built = build_context(Vault(tmp_path), query="platform team", budget=500, today=TODAY)
    assert "## People\n- Ana: CTO, [[Board]], Acme ([[People/Ana]])\n" in built.text


def test_with_a_question_other_sections_hold_only_what_it_asks_or_what_answers_link(
        tmp_path: Path) -> None:
    write(tmp_path, "Decisions/Use Postgres", "---\ntype: decision\nstatus: approved\n"
                                              "date: 2026-11-01\n---\nOne database.\n")
    write(tmp_path, "Decisions/Ship weekly", "---\ntype: decision\nstatus: approved\n"
                                             "date: 2026-11-02\n---\nEvery Friday.\n")
    write(tmp_path, "KPIs/Churn", "---\ntype: kpi\nunit: percent\n---\nNot measured yet.\n")
    write(tmp_path, "KPIs/Uptime", "---\ntype: kpi\nvalue: 99.5\ntarget: 99.9\n---\nUp.\n")
    write(tmp_path, "Ops", "The database backups run nightly, see [[Use Postgres]].\n")
    asked = build_context(Vault(tmp_path), query="When do database backups run?", budget=800,
                          today=TODAY)
    assert "- Use Postgres (2026-11-01)" in asked.text  # linked from the passage that answers
    assert "Ship weekly" not in asked.text and "Uptime" not in asked.text
    unasked = build_context(Vault(tmp_path), budget=800, today=TODAY)
    assert "- Ship weekly (2026-11-02)" in unasked.text and "- Uptime: 99.5" in unasked.text
    assert "Churn" not in unasked.text and "Churn" not in asked.text  # no value, no target


def test_weaker_passages_are_named_not_shown_and_the_budget_left_is_said(
        tmp_path: Path) -> None:
    write(tmp_path, "Robots/Kraken X60", "# Kraken X60\nThe Kraken X60 motor is our primary "
                                         "drive motor: 3.6 Nm stall torque at 12 volts.\n")
    for n in range(6):  # each holds two of the question's words, less than half of it
        write(tmp_path, f"Logs/Day {n}", f"Day {n}.\n\nThe spare motor lost torque.\n")
    for n in range(30):  # words elsewhere: "motor" and "torque" are not in every note
        write(tmp_path, f"Other/Note {n}", f"Meeting {n} about budgets and hiring.\n")
    built = build_context(Vault(tmp_path), query="Kraken motor stall torque", budget=1000,
                          today=TODAY)
    relevant = [i for i in built.items if i.section == "relevant"]
    assert [(i.id, i.kind) for i in relevant if i.kind != "pointer"] == [
        ("Robots/Kraken X60", "paragraph")]
    assert built.text.endswith(
        "### Also near the question (not shown: open with `vaultmem show`)\n"
        + "".join(f"- [[Logs/Day {n}]]: holds motor, torque (line 1)\n" for n in range(5))
        + f"\nLeft out 6 passages that hold less of the question; {1000 - built.tokens} of "
        "1000 tokens unused.\n")


def test_a_question_answered_in_daily_notes_gets_every_passage_found(tmp_path: Path) -> None:
    for n in range(1, 10):  # a journal: the flight is spoken of a little each day
        write(tmp_path, f"Daily/2026-11-0{n}", f"# 2026-11-0{n}\n\n- Called about the flight "
                                               f"to Osaka, step {n}.\n\n- Lunch.\n")
    for n in range(30):
        write(tmp_path, f"Other/Note {n}", f"Meeting {n} about budgets and hiring.\n")
    built = build_context(Vault(tmp_path), query="flight to Osaka", budget=1000, today=TODAY)
    days = sorted({i.id for i in built.items if i.section == "relevant"})
    assert days == [f"Daily/2026-11-0{n}" for n in range(1, 10)]  # 9 > 8 at 1,000 tokens
    assert not any(i.kind == "pointer" for i in built.items)
