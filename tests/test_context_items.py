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
    assert built.text.endswith("### [[Tools]]\n- The deploy script: (line 2)\n"
                               "- ````\n  make deploy\n  echo ```\n  ````\n  (line 5)\n")
    assert sorted(item.kind for item in built.items) == ["code", "paragraph"]  # a label, its code


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
