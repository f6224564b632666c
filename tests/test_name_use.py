"""A vault's name statistics: a title the vault writes as an ordinary word far more than it
links (``Work``) is not a name in a question, a mention worth a link or a "names it" reason; a
title it links as often stays a name however many notes write it."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.check.link_suggestions import mention_findings
from vaultmem.index.name_use import NameUse, name_use
from vaultmem.recall.context.named_notes import named_in
from vaultmem.recall.related.notes import related, related_inputs
from vaultmem.vault import Vault

from .conftest import write_notes


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    """Thirty days that write "work" as a word (one links the note Work) and link Lucy Tan
    wherever they write her name."""
    notes = {"Work.md": "# Work\n\nWhere I keep what work means to me.\n",
             "People/Lucy Tan.md": "---\ntype: person\n---\nLeads OCR.\n"}
    for day in range(1, 31):
        lucy = "[[Lucy Tan]]" if day % 2 else "Lucy Tan"
        work = "[[Work]]" if day == 1 else "work"
        notes[f"Days/Day {day}.md"] = f"Long day of {work} on the OCR pipeline with {lucy}.\n"
    write_notes(tmp_path, notes)
    return Vault(tmp_path)


def test_a_name_written_far_more_than_linked_is_a_word(vault: Vault) -> None:
    _ = vault.index  # current first
    with vault.store.held() as db:
        assert name_use(db, "Work", "Work") == NameUse(31, 1)  # the note Work writes it too
        assert name_use(db, "Lucy Tan", "People/Lucy Tan") == NameUse(30, 15)
    assert NameUse(31, 1).ordinary and not NameUse(30, 15).ordinary


def test_a_question_names_lucy_but_not_work(vault: Vault) -> None:
    assert named_in(vault, "How is work with Lucy Tan going?") == {
        "People/Lucy Tan": ["lucy tan"]}


def test_a_mention_of_an_ordinary_word_is_unsure_and_of_a_name_is_offered(vault: Vault) -> None:
    found = {f.message.split("'")[1]: f for f in mention_findings(vault, ["Days/Day 2"])}
    assert found["work"].confidence < 0.5
    assert found["work"].reason == ("31 notes write 'work' and 1 link it: a word more than a "
                                    "name here")
    assert found["Lucy Tan"].confidence >= 0.5


def test_related_gives_no_names_it_reason_for_an_ordinary_word(vault: Vault) -> None:
    graph, inputs = related_inputs(vault, "Days/Day 2")
    reasons = {hit.id: hit.reasons for hit in related(graph, "Days/Day 2", limit=50, **inputs)}
    named = sorted(note for note, said in reasons.items()
                   if any(reason.startswith("[[Day 2]] names it") for reason in said))
    assert named == ["People/Lucy Tan"]  # not Work, which the day writes as a word


def test_a_name_linked_by_its_note_s_path_or_by_an_alias_stays_a_name(tmp_path: Path) -> None:
    notes = {"Tech/Node.js.md": "A runtime.\n",
             "People/Lucy Tan.md": "---\naliases: [Lucibel]\n---\nLeads OCR.\n"}
    notes |= {f"Days/Day {n}.md": f"Worked on [[Node.js]] with [[Lucy Tan|Lucibel]]; Lucibel "
              f"said hi, day {n}.\n" for n in range(30)}
    write_notes(tmp_path, notes)
    vault = Vault(tmp_path)
    assert named_in(vault, "What did Lucibel say of Node.js?") == {
        "People/Lucy Tan": ["lucibel"], "Tech/Node.js": ["node js"]}
