"""Conflicts touching a few notes, found from the notes around them, equal the whole vault's."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

from vaultmem.check import conflicts
from vaultmem.check import conflicts_around as around
from vaultmem.check.conflicts import find_conflicts
from vaultmem.recall.context.build import CONFLICT_KINDS
from vaultmem.vault import Vault

from .conftest import ROOT, SAMPLE
from .test_conflicts import LABELLED, TODAY

sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_vault import generate

LOCAL = tuple(sorted(around.LOCAL_KINDS))


def _whole(root: Path, today: dt.date) -> list[conflicts.Finding]:
    return find_conflicts(Vault(root, use_cache=False), kinds=LOCAL, today=today, least=0.0,
                          quiet=False)


def _around_each(root: Path, today: dt.date, groups: list[set[str]]
                 ) -> list[list[conflicts.Finding]]:
    """The findings touching each group, every one computed from the notes around it."""
    vault = Vault(root, use_cache=False)
    found = [find_conflicts(vault, kinds=LOCAL, today=today, touching=group, least=0.0,
                            quiet=False) for group in groups]
    assert "facts" not in vault.__dict__  # the whole vault's facts were never read
    return found


def _assert_equal_around_every_note(root: Path, today: dt.date) -> int:
    whole = _whole(root, today)
    ids = sorted(Vault(root, use_cache=False).notes)
    groups = [{note_id} for note_id in ids] + [set(ids[i::7]) for i in range(7)]
    for group, found in zip(groups, _around_each(root, today, groups), strict=True):
        assert found == [f for f in whole if group & set(f.notes)], sorted(group)[:3]
    return len(whole)


@pytest.mark.parametrize("vault", [LABELLED, SAMPLE], ids=["conflicts_vault", "sample_vault"])
def test_each_notes_conflicts_equal_the_whole_vaults(vault: Path) -> None:
    assert _assert_equal_around_every_note(vault, TODAY) > 0


def test_conflicts_stated_by_third_notes_and_chains_are_found(tmp_path: Path) -> None:
    notes = {
        "People/Ana.md": "---\ntype: person\n---\n# Ana\n",
        "Daily/2026-10-01.md": "- [[Ana]] role:: engineer\n",
        "Daily/2026-10-02.md": "- [[Ana]] role:: designer\n",
        "Facts/Ana city.md": '---\ntype: fact\nentity: "[[Ana]]"\nattribute: city\n'
                             "value: Lima\n---\n",
        "Notes/Trip.md": "---\nproject: Apollo\n---\n- [[Ana]] city:: Quito\n",  # specific
        "Decisions/C.md": "---\ntype: decision\nstatus: approved\n---\n",
        "Decisions/B.md": '---\ntype: decision\nstatus: superseded\nsupersedes: "[[C]]"\n---\n',
        "Decisions/A.md": '---\ntype: decision\nstatus: approved\nsupersedes: "[[B]]"\n---\n',
        "Decisions/Tea.md": "---\ntype: decision\nstatus: approved\ntopic: drinks\n---\n",
        "Decisions/Coffee.md": "---\ntype: decision\nstatus: approved\ntopic: drinks\n---\n",
        # a ring of lessons; R3 states nothing and is not next to R1, yet its status decides
        "Lessons/R1.md": '---\nstatus: active\nsupersedes: "[[R2]]"\n---\n',
        "Lessons/R2.md": '---\nstatus: archived\nsupersedes: "[[R3]]"\n---\n',
        "Lessons/R3.md": "---\nstatus: active\n---\n",
        "Lessons/R4.md": '---\nstatus: archived\nsupersedes: "[[R1]]"\n'
                         'superseded_by: "[[R3]]"\n---\n',
        # a longer ring: only every note stating a supersede link closes it
        **{f"Lessons/S{i}.md": f'---\nstatus: {"active" if i in (1, 4) else "archived"}\n'
           f'supersedes: "[[S{i % 5 + 1}]]"\n---\n' for i in range(1, 6)},
        "Facts/Old phone.md": '---\ntype: fact\nentity: "[[Ben]]"\nattribute: phone\n'
                              "value: 555\nvalid_until: 2020-01-01\n---\n",
        "Agents/Bot.md": "---\ntype: agent\n---\nCall via [[Old phone]].\n",
    }
    for name, text in notes.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    touched = ["Daily/2026-10-01", "Notes/Trip", "Facts/Ana city", "Decisions/Tea",
               "Decisions/C", "Lessons/R1", "Lessons/S1", "Facts/Old phone"]
    found = dict(zip(touched, _around_each(tmp_path, TODAY, [{n} for n in touched]),
                     strict=True))
    assert [f.notes for f in found["Daily/2026-10-01"]] == [
        ["Daily/2026-10-01", "Daily/2026-10-02", "People/Ana"]]
    assert [f.notes for f in found["Notes/Trip"]] == [
        ["Facts/Ana city", "Notes/Trip", "People/Ana"]]
    assert [(f.rule, f.winner) for f in found["Facts/Ana city"]] == [  # Trip only links Ana
        ("most specific wins", "Notes/Trip")]
    assert [f.notes for f in found["Decisions/Tea"]] == [["Decisions/Coffee", "Decisions/Tea"]]
    expected = {"Decisions/C": ("superseded-active", ["Decisions/B", "Decisions/C"]),
                "Lessons/R1": ("decision-conflict", ["Lessons/R1", "Lessons/R3"]),
                "Lessons/S1": ("decision-conflict", ["Lessons/S1", "Lessons/S4"]),
                "Facts/Old phone": ("expired-used", ["Agents/Bot", "Facts/Old phone"])}
    for note, kind_and_notes in expected.items():
        assert [(f.kind, f.notes) for f in found[note]] == [kind_and_notes], note
    assert _assert_equal_around_every_note(tmp_path, TODAY) == 7


def test_context_after_a_change_reads_only_the_notes_around(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vaultmem.recall.context.build import build_context

    kept = build_context(Vault(sample), agent="Rafael", today=TODAY)  # computes, keeps all
    log = sample / "Daily" / "2026-11-28.md"
    log.write_text(log.read_text() + "- one more line\n")
    read: list[int] = []
    real = conflicts._computed
    monkeypatch.setattr(conflicts, "_computed", lambda *a: read.append(1) or real(*a))
    after = build_context(Vault(sample), agent="Rafael", today=TODAY)
    assert read == []
    warned = [i.text for i in kept.items if i.section == "conflicts"]
    assert warned and [i.text for i in after.items if i.section == "conflicts"] == warned
    assert set(CONFLICT_KINDS) <= around.LOCAL_KINDS


def test_kinds_that_compare_every_note_still_read_the_whole_vault() -> None:
    vault = Vault(LABELLED, use_cache=False)
    found = find_conflicts(vault, kinds=("duplicate",), today=TODAY,
                           touching={"Projects/Mobile App"})
    assert [f.notes for f in found] == [["Projects/Mobile App", "Projects/Mobile-App"]]
    assert "facts" in vault.__dict__


def test_a_generated_vaults_conflicts_around_each_note_equal_the_whole_vaults(
        tmp_path: Path) -> None:
    generate(300, tmp_path / "vault", seed=3)  # every kind planted, with look-alikes
    assert _assert_equal_around_every_note(tmp_path / "vault", TODAY) >= 10


def test_what_a_reader_keeps_around_notes_follows_the_day_and_the_files(tmp_path: Path) -> None:
    ring = {f"Lessons/S{i}.md": f'---\nstatus: {"active" if i in (1, 4) else "archived"}\n'
            + (f'supersedes: "[[S{i % 5 + 1}]]"\n' if i != 3 else "") + "---\n"
            for i in range(1, 6)}  # open at S3: S3 -> S4 is written later
    notes = {**ring, "Facts/Old phone.md": '---\ntype: fact\nentity: "[[Ben]]"\n'
             "attribute: phone\nvalue: 555\nvalid_until: 2026-06-01\n---\n",
             "Agents/Bot.md": "---\ntype: agent\n---\nCall via [[Old phone]].\n"}
    for name, text in notes.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    vault = Vault(tmp_path, use_cache=False)

    def found(kept: Vault, note: str, day: dt.date) -> list[tuple[str, list[str]]]:
        return [(f.kind, f.notes) for f in find_conflicts(
            kept, kinds=LOCAL, today=day, touching={note}, least=0.0, quiet=False)]

    assert found(vault, "Agents/Bot", dt.date(2026, 5, 1)) == []
    assert found(vault, "Agents/Bot", dt.date(2026, 7, 1)) == [  # a later day, same reader
        ("expired-used", ["Agents/Bot", "Facts/Old phone"])]
    before = found(vault, "Lessons/S1", TODAY)
    (tmp_path / "Lessons/S3.md").write_text('---\nstatus: archived\nsupersedes: "[[S4]]"\n---\n')
    vault.refresh()  # what vaultmem does after it writes, and a server when files change
    after = found(vault, "Lessons/S1", TODAY)
    assert ("decision-conflict", ["Lessons/S1", "Lessons/S4"]) in after
    assert after != before and after == found(Vault(tmp_path, use_cache=False), "Lessons/S1",
                                              TODAY)


@pytest.mark.parametrize(("until", "day", "expired"), [
    ("2026-06-01", "2026-06-01", False), ("2026-06-01", "2026-06-02", True),
    ("2026-06-01T18:00", "2026-06-01", False), ("2026-06-01T18:00", "2026-06-02", True),
    ("2026-05-31T23:59", "2026-06-01", True)])
def test_a_fact_note_expires_the_day_after_its_valid_until(
        tmp_path: Path, until: str, day: str, expired: bool) -> None:
    from vaultmem.index.fact_rows import expired_by

    (tmp_path / "Facts").mkdir()
    (tmp_path / "Facts" / "Phone.md").write_text(
        f'---\ntype: fact\nentity: "[[Ben]]"\nattribute: phone\nvalue: 555\n'
        f'valid_until: "{until}"\n---\n')
    vault = Vault(tmp_path, use_cache=False)
    _ = vault.notes  # the index is read first
    assert expired_by(vault.store, day) == ({"Facts/Phone"} if expired else set())
