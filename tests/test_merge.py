"""Merging a note into another: aliases, tags and list properties joined, the body kept under a
heading, disagreeing properties held both ways, every link reaching the note kept; undone byte
for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.caller import Caller
from vaultmem.check.conflicts import find_conflicts
from vaultmem.vault import Vault
from vaultmem.write.apply import OutsideScope
from vaultmem.write.merge import merge

from .conftest import hash_tree
from .test_cli import run
from .test_conflicts import LABELLED
from .test_rename import vault_of

NOTES = {
    "People/Ana.md": "---\ntype: person\naliases: [Ana R]\ntags: [team]\ncity: Lisbon\n---\n"
                     "# Ana\n\nWorks on billing. ^role\n",
    "People/ana-ribeiro.md": "---\ntype: person\naliases: [anaribeiro]\ntags: [team, github]\n"
                             "city: Porto\ngithub: anaribeiro\n---\n# ana-ribeiro\n\n"
                             "Renamed GitHub account. ^role\n\n## Repos\n- billing-api ^repos\n",
    "Log.md": "Ping [[ana-ribeiro]], [[ana-ribeiro#^role|her role]], [[ana-ribeiro#Repos]], "
              "![[ana-ribeiro#^repos]] and [[Ana]].\n",
}
MERGED = ("---\ntype: person\naliases:\n  - Ana R\n  - anaribeiro\n  - ana-ribeiro\n"
          "tags:\n  - team\n  - github\ncity: Lisbon\ngithub: anaribeiro\n"
          "merged_from:\n  - People/ana-ribeiro\n---\n# Ana\n\nWorks on billing. ^role\n\n"
          "## ana-ribeiro\n\ncity:: Porto\n\nRenamed GitHub account. ^role-2\n\n### Repos\n"
          "- billing-api ^repos\n")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return vault_of(tmp_path / "v", NOTES)


def test_everything_of_the_old_note_is_joined_into_the_kept_one(root: Path) -> None:
    done = merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro")
    assert (root / "People/Ana.md").read_text(encoding="utf-8") == MERGED
    assert done.disagreeing == ("city",) and done.links == 4
    assert (root / ".trash/ana-ribeiro.md").read_text(encoding="utf-8") == \
        NOTES["People/ana-ribeiro.md"]
    assert not (root / "People/ana-ribeiro.md").exists()


def test_every_link_reaches_the_kept_note_showing_what_it_showed(root: Path) -> None:
    merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro")
    assert (root / "Log.md").read_text(encoding="utf-8") == (
        "Ping [[Ana|ana-ribeiro]], [[Ana#^role-2|her role]], [[Ana#Repos|ana-ribeiro > Repos]], "
        "![[Ana#^repos]] and [[Ana]].\n")
    vault = Vault(root, use_cache=False)
    assert [link.resolved for link in vault.notes["Log"].links] == ["People/Ana"] * 5
    assert not vault.notes["Log"].problems


def test_the_property_held_both_ways_is_a_conflict_to_settle(root: Path) -> None:
    merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro")
    found = [f for f in find_conflicts(Vault(root, use_cache=False)) if "city" in f.message]
    assert found and "Lisbon" in found[0].message and "Porto" in found[0].message


def test_a_duplicate_finding_names_the_merge() -> None:
    found = find_conflicts(Vault(LABELLED), kinds=("duplicate",))
    assert [f.suggestion for f in found] == [
        'merge one into the other: vaultmem merge "Projects/Mobile App" "Projects/Mobile-App" '
        "--dry-run (or rename one if they are two entries)"]


def test_a_dry_run_writes_nothing_and_undo_puts_every_byte_back(root: Path) -> None:
    kept = hash_tree(root)
    code, out, _ = run(root, "merge", "Ana", "ana-ribeiro", "--dry-run")
    assert code == 0 and hash_tree(root) == kept
    assert out.startswith("Would merge People/ana-ribeiro into People/Ana: 4 link(s) written "
                          "again; nothing was written\n  held both ways until settled: city")
    assert run(root, "merge", "Ana", "ana-ribeiro")[0] == 0
    assert run(root, "undo")[0] == 0
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem/")} == kept


def test_redirect_leaves_the_old_note_saying_where_it_went(root: Path) -> None:
    merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro", redirect=True)
    assert (root / "People/ana-ribeiro.md").read_text(encoding="utf-8") == \
        '---\nmerged_into: "[[People/Ana]]"\n---\nMerged into [[People/Ana]].\n'
    assert not (root / ".trash").exists()


def test_a_token_must_cover_every_note_the_merge_touches(root: Path) -> None:
    kept = hash_tree(root)
    with pytest.raises(OutsideScope, match=r"Log\.md is outside the folders"):
        merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro",
              caller=Caller(name="agent", folders=("People",)))
    assert hash_tree(root) == kept
    (root / "Log.md").unlink()  # the trash is everyone's: People is all it touches then
    merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro",
          caller=Caller(name="agent", folders=("People",)))
    assert (root / ".trash/ana-ribeiro.md").is_file()


def test_the_old_text_can_go_into_a_chosen_section(root: Path) -> None:
    (root / "People/Ana.md").write_text(NOTES["People/Ana.md"] + "\n## Work\n\nBilling.\n\n"
                                        "## Links\n\n- x\n", encoding="utf-8")
    merge(Vault(root, use_cache=False), "Ana", "ana-ribeiro", under="work")
    text = (root / "People/Ana.md").read_text(encoding="utf-8")
    assert text.endswith("## Work\n\nBilling.\n\n### ana-ribeiro\n\ncity:: Porto\n\n"
                         "Renamed GitHub account. ^role-2\n\n#### Repos\n- billing-api ^repos\n\n"
                         "## Links\n\n- x\n")
    code, _, err = run(root, "undo")
    assert code == 0, err
    code, _, err = run(root, "merge", "Ana", "ana-ribeiro", "--under", "Nowhere")
    assert code == 1 and "People/Ana has no heading 'Nowhere'" in err


def test_the_trash_record_knows_the_merged_note_and_undo_takes_it_back(root: Path) -> None:
    kept = hash_tree(root)
    assert run(root, "merge", "Ana", "ana-ribeiro")[0] == 0
    code, out, _ = run(root, "trash")
    assert code == 0 and "ana-ribeiro.md  (from People/ana-ribeiro.md)" in out
    assert run(root, "undo")[0] == 0
    assert {k: v for k, v in hash_tree(root).items() if not k.startswith(".vaultmem/")} == kept
