"""``related`` tuned on the vault's own links: links hidden one at a time (cut, or left as
words), the weights that find them chosen and kept in the index while the vault is much the
same, the shipped ones otherwise."""

from __future__ import annotations

import json
from pathlib import Path

from vaultmem.recall.related.evidence import Evidence
from vaultmem.recall.related.link_hiding import hidden_text, names_left
from vaultmem.recall.related.notes import WEIGHTS, related, related_inputs, related_notes
from vaultmem.recall.related.own_weights import own_weights, tune_related
from vaultmem.recall.related.weight_fit import Held, fit_weights, found_share
from vaultmem.vault import Vault

from .conftest import write_notes
from .test_cli import run

E = Evidence()


def test_the_fit_weighs_the_part_that_finds_the_hidden_links() -> None:
    # each target shares only the note's words; twelve others share its neighbours
    held = [Held(f"t{i}", {f"t{i}": E._replace(words=0.4 + i / 100),
                           **{f"hub{j}": E._replace(adamic=0.5, words=0.1) for j in range(12)}})
            for i in range(6)]
    assert found_share(held, WEIGHTS) == 0.0
    fitted = fit_weights(held)
    assert found_share(held, fitted) == 1.0 and fitted.words > 0
    assert fitted.link_out == WEIGHTS.link_out and fitted.recent == WEIGHTS.recent


def test_a_tie_across_the_tenth_place_counts_as_a_share_of_a_find() -> None:
    held = [Held("t", {"t": E._replace(tags=1.0), **{f"o{j}": E._replace(tags=1.0)
                                                     for j in range(19)}})]
    assert found_share(held, WEIGHTS) == 0.5  # 20 tied for 10 places


def test_a_hidden_link_is_cut_or_left_as_the_words_a_reader_sees(tmp_path: Path) -> None:
    write_notes(tmp_path, {
        "People/Lucy Tan.md": "---\naliases: [Lucy]\n---\nFounder.\n",
        "Ops.md": "Runbooks.\n",
        "Log.md": ("Met [[Lucy Tan|Lucy]] about [[Ops]].\n"
                   "| who | note |\n| --- | --- |\n| [[People/Lucy Tan\\|LT]] | x |\n")})
    vault = Vault(tmp_path, use_cache=False)
    cut, still = hidden_text(vault, "Log", "People/Lucy Tan", cut=True)
    assert cut.split("\n")[0] == "Met  about [[Ops]]." and "Lucy" not in cut
    assert still == {"Ops"}
    words, _ = hidden_text(vault, "Log", "People/Lucy Tan", cut=False)
    assert words.split("\n")[0] == "Met Lucy about [[Ops]]." and "| LT | x |" in words
    assert names_left(vault, "Log", "People/Lucy Tan") == {"People/Lucy Tan": 1}
    assert names_left(vault, "Log", "Ops") == {"Ops": 1}


def test_tuned_weights_are_kept_and_used_until_the_vault_changes_much(sample: Path) -> None:
    vault = Vault(sample)
    fit = tune_related(vault)
    assert fit.held == 80 and set(fit.found) == {"own", "shipped", "adamic-adar", "words"}
    assert fit.found[fit.chosen] == max(fit.found.values())
    assert own_weights(Vault(sample)) == fit.weights
    again = Vault(sample)
    note_id, found = related_notes(again, "Priya Nair")
    graph, inputs = related_inputs(again, note_id, every_word=fit.weights.words > 0)
    assert found == related(graph, note_id, weights=fit.weights, **inputs)
    write_notes(sample, {f"Inbox/idea {i}.md": f"Idea {i}.\n" for i in range(7)})  # 30 -> 37
    assert own_weights(Vault(sample)) == WEIGHTS


def test_tuning_a_vault_with_few_links_keeps_the_shipped_weights(tmp_path: Path) -> None:
    write_notes(tmp_path, {"A.md": "[[B]] and [[C]]\n", "B.md": "b\n", "C.md": "c\n"})
    code, out, _ = run(tmp_path, "tune-related")
    assert code == 0 and out.startswith("Only 2 of this vault's links can be hidden")
    assert "related keeps the shipped weights" in out
    found = json.loads(run(tmp_path, "tune-related", "--json")[1])
    assert (found["chosen"], found["held"], found["weights"]) == ("shipped", 2,
                                                                   WEIGHTS._asdict())
    assert own_weights(Vault(tmp_path)) == WEIGHTS
