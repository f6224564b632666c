"""The relevance floor and the notes a question names: weak matches stay out of a context,
a person is named by a first name only one person has."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.index.lookup import StoredPassage
from vaultmem.recall.context.build import build_context
from vaultmem.recall.context.named_notes import named_in
from vaultmem.recall.context.relevance_floor import above_floor, distinct
from vaultmem.recall.context.scored import Scored
from vaultmem.vault import Vault

from .conftest import write_notes

PERSON = "---\ntype: person\n---\n"
NOTES = {
    "People/Marco Diaz.md": PERSON + "# Marco Diaz\n\nOwns the pipeline.\n\n"
                            "Likes concrete examples: send him the failing image.\n",
    "People/Priya Shah.md": PERSON + "# Priya Shah\n\nRuns sales.\n",
    "People/Priya Nair.md": PERSON + "# Priya Nair\n\nRuns support.\n",
    "Places/Marco Polo Bridge.md": "# Marco Polo Bridge\n\nA bridge.\n",
    "Ocr.md": "# OCR\n\nThe OCR pipeline reads invoices. A bad scan gives a bad result.\n",
}


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    write_notes(tmp_path, NOTES)
    return Vault(tmp_path, use_cache=False)


@pytest.mark.parametrize(("question", "named"), [
    ("How should I report a bad OCR result to Marco?",
     {"People/Marco Diaz": ["marco"], "Ocr": ["ocr"]}),
    ("Ask Marco Diaz", {"People/Marco Diaz": ["marco diaz"]}),
    ("What does Priya run?", {}),  # two people are Priya: neither is meant
    ("Where is the Marco Polo Bridge?", {"Places/Marco Polo Bridge": ["marco polo bridge"]}),
])
def test_a_question_names_a_person_by_a_first_name_only_one_person_has(
        vault: Vault, question: str, named: dict[str, list[str]]) -> None:
    assert named_in(vault, question) == named


def test_a_person_named_by_first_name_brings_their_note_past_the_floor(vault: Vault) -> None:
    built = build_context(vault, query="How should I report a bad OCR result to Marco?",
                          budget=400)
    relevant = "\n".join(item.text for item in built.items if item.section == "relevant")
    assert "Likes concrete examples: send him the failing image." in relevant


def _scored(note: str, number: int, score: float, text: str = "text", date: str = "") -> Scored:
    return Scored(StoredPassage(note, number, "paragraph", "", number, number, "", text),
                  score, date)


def test_the_floor_keeps_every_passage_of_a_close_question() -> None:
    found = [_scored("a", 1, 2.0), _scored("b", 1, 0.1)]
    assert above_floor(found, {}, set(), close=True) == (found, 0)


def test_the_floor_keeps_only_meaning_and_anchors_when_no_passage_is_close() -> None:
    found = [_scored("a", 1, 2.0), _scored("b", 1, 1.0), _scored("c", 1, 0.8),
             _scored("d", 1, 0.7)]
    floored = above_floor(found, {("b", 1): 0.45, ("c", 1): 0.55}, {("d", 1)}, close=False)
    assert [s.passage.note for s in floored.kept] == ["c", "d"]
    assert floored.left_out == 2


def test_a_line_said_again_or_a_copied_paragraph_is_shown_once() -> None:
    copied = "A long paragraph copied from one note into another, word for word, " * 2
    found = [_scored("Daily/2026-01-02", 3, 2.0, "[[Joel]]: Enjoy!", "2026-01-02"),
             _scored("Daily/2026-01-09", 7, 1.5, "[[joel]]:  enjoy!", "2026-01-09"),
             _scored("Zettel", 1, 1.2, copied), _scored("Inbox/Capture", 4, 1.1, copied),
             _scored("Projects/A", 2, 1.0, "- [ ] Write tests"),
             _scored("Projects/B", 2, 0.9, "- [ ] Write tests")]
    assert [(s.passage.note, s.passage.number) for s in distinct(found)] == [
        ("Daily/2026-01-02", 3), ("Zettel", 1), ("Projects/A", 2), ("Projects/B", 2)]
