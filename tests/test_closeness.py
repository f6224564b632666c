"""A question about something the vault does not hold: the context says no passage holds much
of it and which of its words no note holds; questions the vault holds, or naming a note as a
name, are close (CJK questions too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.index.term_counts import terms_held
from vaultmem.recall.context.build import build_context
from vaultmem.recall.context.unanswered import NOTHING_CLOSE
from vaultmem.recall.question_weights import share_held, term_weights
from vaultmem.vault import Vault

from .conftest import write_notes

NOTES = {
    "Dogs.md": "# Dogs\n\nTrain your dog to stay calm when you leave the house.\n\n"
               "Feed the dog twice a day, after a walk.\n",
    "Cooking.md": "# Cooking\n\nA good recipe is one you can cook on a weekday evening. "
                  + "Keep a list of them and cook the list in turn, week after week. " * 8 + "\n",
    "Work.md": "# Work\n\nGood work takes time. Plan the week on Monday.\n",
    "People/Ana Silva.md": "---\naliases: [Ana]\n---\n# Ana Silva\n\nAna plays the cello.\n",
    "Notes/线性变换.md": "# 线性变换\n\n线性变换的核，就是零空间。\n",  # noqa: RUF001
    "Notes/问题.md": "# 问题\n\n这是什么意思？\n",  # noqa: RUF001
    **{f"Log/Day {day}.md": f"# Day {day}\n\nA good day. Plan the week and rest.\n"
       for day in range(30)},
}


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    write_notes(tmp_path, NOTES)
    return Vault(tmp_path, use_cache=False)


def _relevant(built_text: str) -> str:
    return built_text.split("## Relevant\n", 1)[1] if "## Relevant\n" in built_text else ""


def test_a_question_on_nothing_the_vault_holds_says_so_and_keeps_no_weak_match(
        vault: Vault) -> None:
    built = build_context(vault, query="What is a good lasagna?", budget=400)
    assert built.text.endswith(f"\n\n{NOTHING_CLOSE} (no note holds lasagna).\n\nLeft out 26 "
                               f"passages that hold less of the question; "
                               f"{400 - built.tokens} of 400 tokens unused.\n")
    assert not built.items and built.tokens < 100  # "a good day", "a good recipe": weak


def test_a_question_the_vault_holds_keeps_its_passages(vault: Vault) -> None:
    built = build_context(vault, query="How do I train my dog to stay calm?", budget=400)
    assert NOTHING_CLOSE not in built.text
    assert "Train your dog to stay calm" in _relevant(built.text)


@pytest.mark.parametrize("question", ["What does Ana play?", "线性变换的核是什么？"])  # noqa: RUF001
def test_a_question_naming_a_note_or_held_in_cjk_pairs_is_close(vault: Vault,
                                                                question: str) -> None:
    built = build_context(vault, query=question, budget=400)
    assert NOTHING_CLOSE not in built.text and _relevant(built.text)


def test_a_common_word_titling_a_note_does_not_make_a_question_close(vault: Vault) -> None:
    built = build_context(vault, query="What time does the ferry to Santorini leave?",
                          budget=400)
    assert NOTHING_CLOSE in built.text  # "time" is no name of [[Work]] or any note


def test_terms_weigh_by_rarity_and_a_lone_unheld_cjk_pair_weighs_nothing(vault: Vault) -> None:
    _ = vault.notes  # the index is made
    weights, unheld, _ = term_weights(vault.store, "good lasagna")
    assert unheld == ["\"lasagna\""] and weights['"lasagna"'] > weights['"good"'] > 0
    cjk, _, _ = term_weights(vault.store, "线性变换的核是什么")
    assert cjk['"核是"'] == 0.0 and cjk['"线性"'] > 0  # the edge of two words
    held = terms_held(vault.store, weights, [("Cooking", 0), ("Work", 0), ("Dogs", 0)])
    assert held == {("Cooking", 0): {'"good"'}, ("Work", 0): {'"good"'}}
    assert share_held(weights, held[("Cooking", 0)]) < 0.25
