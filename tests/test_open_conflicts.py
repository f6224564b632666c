"""The open conflicts kept for a state of the vault and brought up to date from each change
equal those found again in every note, whatever the change."""

from __future__ import annotations

import random
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from vaultmem.check import conflicts
from vaultmem.check.open_conflicts import open_conflicts
from vaultmem.model import Finding
from vaultmem.vault import Vault

from .conftest import ROOT
from .test_conflicts import TODAY

sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_vault import generate

NOTES = {
    "People/Ana.md": "---\ntype: person\n---\n# Ana\n",
    "People/Ben.md": "---\ntype: person\ncity: Porto\n---\n# Ben\n\n## History\n"
                     "- v1 (2026-01-01): city = Porto\n",
    "Daily/2026-10-01.md": "- [[Ana]] role:: engineer\n- [[Dora]] team:: red\n",
    "Daily/2026-10-02.md": "- [[Ana]] role:: designer\n- [[Dora]] team:: blue\n",
    "Daily/2026-10-03.md": "- [[Ben]] city:: Braga\n",
    "Notes/Trip.md": "---\nproject: Apollo\n---\n- [[Ana]] city:: Quito\n",
    "Facts/Ana city.md": '---\ntype: fact\nentity: "[[Ana]]"\nattribute: city\nvalue: Lima\n'
                         "---\n",
    # A supersedes C through B, which has no topic: A and C do not compete while B says so
    "Decisions/A.md": '---\ntype: decision\nstatus: approved\ntopic: db\nsupersedes: "[[B]]"\n'
                      "---\n",
    "Decisions/B.md": '---\ntype: decision\nstatus: superseded\nsupersedes: "[[C]]"\n---\n',
    "Decisions/C.md": "---\ntype: decision\nstatus: superseded\ntopic: db\n---\n",
    "Decisions/Tea.md": "---\ntype: decision\nstatus: approved\ntopic: drinks\n---\n",
    "Decisions/Coffee.md": "---\ntype: decision\nstatus: approved\ntopic: drinks\n---\n",
    "Lessons/Old.md": "---\nstatus: active\n---\n",
    "Lessons/New.md": '---\nstatus: active\nsupersedes: "[[Old]]"\n---\n',
    "Facts/Old phone.md": '---\ntype: fact\nentity: "[[Ben]]"\nattribute: phone\nvalue: 555\n'
                          "valid_until: 2020-01-01\n---\n",
    "Agents/Bot.md": "---\ntype: agent\n---\nCall via [[Old phone]].\n",
    # two ways of naming one file no vault holds yet: two values until it comes
    "Notes/Contract A.md": "- [[Acme]] contract:: [[Contract.pdf]]\n",
    "Notes/Contract B.md": "- [[Acme]] contract:: [[Legal/Contract.pdf]]\n",
    "Notes/Eve 1.md": "- [[Eve]] team:: red\n",  # Eve has no note
}
LOCAL = tuple(k for k in conflicts.KINDS if k in conflicts.LOCAL_KINDS)
Change = Callable[[Path], None]


def _edit(name: str, old: str, new: str) -> Change:
    def change(root: Path) -> None:
        path = root / name
        assert old in path.read_text(), (name, old)
        path.write_text(path.read_text().replace(old, new, 1))
    return change


def _write(name: str, text: str) -> Change:
    def change(root: Path) -> None:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return change


def _delete(name: str) -> Change:
    return lambda root: (root / name).unlink()


CHANGES: dict[str, tuple[Change, bool]] = {  # (the change, brought up to date note by note)
    "words added to a stating note": (_edit("Daily/2026-10-02.md", "- [[Ana]]",
                                            "Busy day.\n\n- [[Ana]]"), True),
    "a field takes back what made a conflict": (
        _edit("Daily/2026-10-02.md", "role:: designer", "role:: engineer"), True),
    "a field makes one again": (_edit("Daily/2026-10-02.md", "role:: engineer", "role:: cto"),
                                True),
    "a stating note archived": (_edit("Notes/Trip.md", "project: Apollo", "status: archived"),
                                True),
    "a fact removed leaves two disagreeing": (_edit("Facts/Ana city.md", "value: Lima",
                                                    "value: Quito"), True),
    "a note in the middle of a chain lets go": (_edit("Decisions/B.md", 'supersedes: "[[C]]"',
                                                      "topic: none"), True),
    "a superseded decision approved again": (_edit("Decisions/C.md", "status: superseded",
                                                   "status: approved"), True),
    "the superseded one archived": (_edit("Lessons/Old.md", "active", "archived"), True),
    "a decision changes topic": (_edit("Decisions/Tea.md", "topic: drinks", "topic: food"),
                                 True),
    "a decision joins a topic": (_edit("Decisions/Tea.md", "topic: food", "topic: db"), True),
    "a chain closed again": (_edit("Decisions/B.md", "topic: none", 'supersedes: "[[C]]"'),
                             True),
    "the entity's history reviews the attribute": (
        _edit("People/Ben.md", "- v1 (2026-01-01)", "- v1 (2026-11-01)"), True),
    "an expired fact renewed": (_edit("Facts/Old phone.md", "2020-01-01", "2099-01-01"), True),
    "an agent cites it no more": (_edit("Agents/Bot.md", "[[Old phone]]", "the phone"), True),
    "a note made for a name linked before": (
        _write("People/Dora.md", "---\ntype: person\nteam: green\n---\n"), True),
    "a new note states a conflict": (_write("Daily/2026-10-04.md", "- [[Ben]] city:: Faro\n"),
                                     True),
    "a note deleted": (_delete("Daily/2026-10-01.md"), True),
    "an alias given": (_edit("People/Ana.md", "type: person", "type: person\naliases: [Dora]"),
                       False),
    "an attachment added": (_write("Files/scan.png", "png"), True),
    "the file two values name comes": (_write("Legal/Contract.pdf", "pdf"), True),
    "a second note states a fact about a name no note has": (
        _write("Notes/Eve 2.md", "- [[Eve]] team:: blue\n"), True),
    "a third joins it": (_write("Notes/Eve 3.md", "- [[Eve]] team:: green\n"), True),
}


def _whole(root: Path) -> list[Finding]:
    """Every open conflict, found in every note of a fresh reading without the index."""
    vault = Vault(root, use_cache=False)
    return conflicts._local_finder(vault, TODAY)(vault.facts)


def _kept(root: Path) -> list[Finding] | None:
    """The open conflicts as a reader brings them up to date (None: nothing usable kept)."""
    vault = Vault(root)
    found = open_conflicts(vault, TODAY, conflicts._local_finder(vault, TODAY))
    assert found is None or "facts" not in vault.__dict__  # no note read but those around
    return found


def _sorted(found: list[Finding] | None) -> list[Finding]:
    assert found is not None
    return sorted(found, key=conflicts._order)


def test_each_kind_of_change_is_brought_up_to_date_as_found_again(tmp_path: Path) -> None:
    for name, text in NOTES.items():
        _write(name, text)(tmp_path)
    conflicts.ready_conflicts(Vault(tmp_path), TODAY)
    assert {f.kind for f in _whole(tmp_path)} == set(LOCAL)
    for what, (change, note_by_note) in CHANGES.items():
        change(tmp_path)
        kept = _kept(tmp_path)
        assert (kept is not None) == note_by_note, what
        if kept is None:
            conflicts.ready_conflicts(Vault(tmp_path), TODAY)
            kept = _kept(tmp_path)
        assert _sorted(kept) == _whole(tmp_path), what


def test_a_chain_that_lets_go_through_a_third_note_is_seen(tmp_path: Path) -> None:
    for name, text in NOTES.items():
        _write(name, text)(tmp_path)
    _edit("Decisions/C.md", "status: superseded", "status: approved")(tmp_path)
    conflicts.ready_conflicts(Vault(tmp_path), TODAY)
    assert not [f for f in _whole(tmp_path) if "Decisions/C" in f.notes
                and f.kind == "decision-conflict"]
    _edit("Decisions/B.md", 'supersedes: "[[C]]"', "status: archived")(tmp_path)
    competing = [f.notes for f in _sorted(_kept(tmp_path)) if f.kind == "decision-conflict"]
    assert ["Decisions/A", "Decisions/C"] in competing


@pytest.mark.parametrize("seed", [1, 2])
def test_random_edits_of_a_generated_vault_are_brought_up_to_date(tmp_path: Path,
                                                                  seed: int) -> None:
    root = tmp_path / "vault"
    generate(200, root, seed=seed)  # every kind of conflict planted, with look-alikes
    conflicts.ready_conflicts(Vault(root), TODAY)
    rng = random.Random(seed)
    note_by_note = 0
    for step in range(16):
        what = _random_edit(root, rng, step)
        kept = _kept(root)
        if kept is None:  # an alias came or went: found again in every note
            conflicts.ready_conflicts(Vault(root), TODAY)
            kept = _kept(root)
        else:
            note_by_note += 1
        assert _sorted(kept) == _whole(root), what
    assert note_by_note >= 8


def _random_edit(root: Path, rng: random.Random, step: int) -> str:
    """Change one or two notes as a person or an agent would; what was done."""
    notes = sorted(root.rglob("*.md"))
    note, other = rng.sample(notes, 2)
    kind = rng.choice(["status", "value", "borrow", "delete", "copy"])
    text = note.read_text()
    if kind == "status":
        new = rng.choice(["approved", "archived", "active"])
        note.write_text(re.sub(r"(?m)^status: .*$", f"status: {new}", text, count=1))
    elif kind == "value":
        note.write_text(text.replace(":: ", f":: {step} ", 1))
    elif kind == "borrow":  # another note's fields and properties said here too
        lines = [line for line in other.read_text().splitlines() if "::" in line]
        note.write_text(text + "\n" + "\n".join(lines[:3]) + "\n")
    elif kind == "delete":
        note.unlink()
    else:
        shutil.copy(note, note.with_name(f"{note.stem} {step}.md"))
    return f"{kind} {note.relative_to(root)}"


def test_the_index_tells_a_change_of_words_from_a_change_of_memory(tmp_path: Path) -> None:
    for name, text in NOTES.items():
        _write(name, text)(tmp_path)

    def changed_by(change: Change) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        vault = Vault(tmp_path)
        store, generation = vault.store, vault.index.generation
        change(tmp_path)
        Vault(tmp_path).index  # noqa: B018 - the change stored
        changed = store.changed_since(generation)
        assert changed is not None
        return changed.notes, changed.memory, changed.named

    def appended(name: str, text: str) -> Change:
        return lambda root: (root / name).write_text((root / name).read_text() + text)

    assert changed_by(appended("People/Ben.md", "\nJust words.\n")) == (
        frozenset({"People/Ben"}), frozenset(), frozenset())
    assert changed_by(_edit("Daily/2026-10-03.md", "- [[Ben]]", "Moved.\n- [[Ben]]"))[1:] == (
        frozenset({"Daily/2026-10-03"}), frozenset())  # its fact's line
    assert changed_by(appended("People/Ana.md", "\nSee [[Ben]].\n"))[1] == {"People/Ana"}
    assert changed_by(_edit("People/Ben.md", "city: Porto", "city: Faro"))[1] == {"People/Ben"}
    assert changed_by(_delete("Notes/Trip.md"))[1:] == ({"Notes/Trip"}, {"Notes/Trip", "trip"})
    assert changed_by(_write("Notes/New.md", "Words.\n"))[1:] == ({"Notes/New"},
                                                                 {"Notes/New", "new"})
    assert changed_by(_write("Files/scan.png", "png")) == (frozenset(), frozenset(),
                                                           frozenset({"scan.png"}))
    conflicts.ready_conflicts(Vault(tmp_path), TODAY)
    appended("People/Ben.md", "\nMore words.\n")(tmp_path)
    assert _sorted(_kept(tmp_path)) == _whole(tmp_path)


def test_conflicts_found_while_another_process_stores_are_brought_up_to_date(
        tmp_path: Path) -> None:
    for name, text in NOTES.items():
        _write(name, text)(tmp_path)
    reading = Vault(tmp_path)
    generation = reading.index.generation
    _edit("Daily/2026-10-02.md", "role:: designer", "role:: engineer")(tmp_path)
    Vault(tmp_path).index  # noqa: B018 - another process stores the change meanwhile
    assert reading.store.generation() > generation
    conflicts.ready_conflicts(reading, TODAY)  # the rows it reads are of the later state
    assert _sorted(_kept(tmp_path)) == _whole(tmp_path)
    _edit("Daily/2026-10-02.md", "role:: engineer", "role:: cto")(tmp_path)
    assert _sorted(_kept(tmp_path)) == _whole(tmp_path)
