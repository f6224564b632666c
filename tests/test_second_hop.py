"""The second hop: a name the best passages hold and the question does not leads to the
passages that hold it (the dog's name to its breed), never a name every passage holds (the
speaker), a weekday or a title-case heading's words, and nothing for a question the vault does
not hold."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from vaultmem.recall.context.answer_passages import answer
from vaultmem.recall.context.second_hop import bridge_names
from vaultmem.vault import Vault

from .conftest import write_notes

TODAY = dt.date(2026, 6, 1)
FILLER = ["Cleaned the flat on Monday, it took all morning", "The new head teacher is strict",
          "Made a risotto, it was fine", "Work was busy, three meetings in a row",
          "Watched a film about a lighthouse", "My phone battery keeps dying",
          "Went for a run by the river", "The neighbours are loud again"]
NOTES = {
    "People/Joel.md": "# Joel\n\nJoel teaches chemistry.\n",
    "Log/2026-03-01.md": "- [[Joel]]: We adopted a beagle from the shelter, he's called Pixel\n"
                         "- [[Joel]]: He already chewed a shoe\n",
    "Log/2026-04-10.md": "- [[Joel]]: Picked up a secondhand Zoe, and Pixel loves the back seat "
                         "of the new car\n",
    **{f"Log/2026-02-{day:02d}.md": "".join(f"- [[Joel]]: {FILLER[(day + at) % len(FILLER)]}\n"
                                            for at in range(3))
       for day in range(1, 25)},
}


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    write_notes(tmp_path, NOTES)
    found = Vault(tmp_path, use_cache=False)
    _ = found.notes  # the index is current
    return found


def _rank(found: list[tuple[str, int]], note: str) -> int | None:
    return next((at for at, (each, _) in enumerate(found) if each == note), None)


def test_a_name_in_the_best_passage_leads_to_the_passage_holding_it(vault: Vault) -> None:
    question = "Which breed is the dog that loves Joel's new car?"
    found = [(s.passage.note, s.passage.number) for s in answer(vault, question,
                                                               today=TODAY).passages]
    assert _rank(found, "Log/2026-04-10") == 0
    assert found[1] == ("Log/2026-03-01", 0)  # through Pixel: it shares no word of the question


def test_bridges_are_names_few_passages_hold(vault: Vault) -> None:
    best = [("## Shelter Pixel Joel", 1.5),  # a heading: its capitals name nothing
            ("[[Joel]]: Picked up a secondhand Zoe on Monday, and Pixel loves it", 1.2)]
    # Zoe is held by one passage only, Joel by every one, Monday is a day
    assert bridge_names(vault.store, best, "Which breed is the dog?") == {"pixel": 1.2}
    assert bridge_names(vault.store, best, "Does Pixel like maps?") == {}


def test_no_second_hop_for_a_question_the_vault_does_not_hold(vault: Vault) -> None:
    question = "How long should a lasagna with ricotta and bechamel rest on the back seat?"
    found = answer(vault, question, today=TODAY)
    assert not found.closest.close
    # neither the passages holding Pixel nor the one holding "back seat": the floor keeps no
    # weak match of a question nothing comes close to
    assert found.passages == [] and found.left_out == 1
