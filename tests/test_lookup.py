"""What recall reads from the index (facets, facts, names, passages) equals the parse, and the
passage ranking behind the context's Relevant section: replies, times, names, expiry."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from vaultmem.errors import ConfigError
from vaultmem.index.doc import read_meta
from vaultmem.index.lookup import (
    StoredPassage,
    entities_named,
    facets,
    facts,
    facts_named,
    named,
    names_like,
    newest_date,
    notes_of_type,
    passages,
)
from vaultmem.index.rows import expires
from vaultmem.recall.context.answer_passages import relevant_passages
from vaultmem.recall.context.bare_labels import is_label
from vaultmem.recall.context.periods import Period, query_periods, spoken_days
from vaultmem.vault import Vault

from .test_graph_index import VAULTS

TODAY = dt.date(2026, 3, 20)
SAMPLE = Path(__file__).resolve().parents[1] / "sample_vault"


@pytest.mark.parametrize("root", VAULTS, ids=lambda path: path.name)
def test_facets_facts_and_names_equal_the_parse(root: Path) -> None:
    vault = Vault(root, use_cache=False)
    notes = vault.notes
    ids = sorted(notes)
    stored, stated = facets(vault.store, ids), facts(vault.store, ids)
    for note_id in ids:
        note, meta = notes[note_id], read_meta(notes.entry(note_id))
        assert stored[note_id] == (meta.type, meta.status, meta.date, expires(note),
                                   sorted(note.tag_names())), note_id
        assert stated.get(note_id, []) == meta.facts, note_id
        for name in (note.title, *note.aliases):
            assert note_id in named(vault.store, name), (note_id, name)
    assert set(facets(vault.store, ["no/such note"])) == set()


@pytest.mark.parametrize("root", VAULTS, ids=lambda path: path.name)
def test_what_a_context_reads_of_every_note_equals_the_parse(root: Path) -> None:
    vault = Vault(root, use_cache=False)
    metas = {note_id: read_meta(vault.notes.entry(note_id)) for note_id in vault.notes}
    live = {"approved", "active"}
    assert notes_of_type(vault.store, "decision", statuses=live) == {
        note_id: (meta.status, meta.date) for note_id, meta in sorted(metas.items())
        if meta.type == "decision" and meta.status in live}
    assert entities_named(vault.store, "supersedes") == {
        fact.entity for _, fact in facts_named(vault.store, "supersedes")}
    assert newest_date(vault.store) == max((m.date for m in metas.values() if m.date),
                                           default="")


def test_names_are_blocked_by_word_starts(tmp_path: Path) -> None:
    (tmp_path / "Lucy Tan.md").write_text("---\naliases: [LT, Lucia]\n---\nhi\n")
    (tmp_path / "Other.md").write_text("x\n")
    vault = Vault(tmp_path, use_cache=False)
    _ = vault.notes
    assert {(n.note, n.name) for n in names_like(vault.store, "lucie tann", every_below=0)} == {
        ("Lucy Tan", "Lucy Tan"), ("Lucy Tan", "Lucia")}
    assert len(names_like(vault.store, "zzz", every_below=10)) == 4  # small: every name
    assert named(vault.store, "lt", aliases_only=True) == ["Lucy Tan"]
    assert named(vault.store, "lucy tan", aliases_only=True) == []


def test_properties_and_empty_headings_are_passages(tmp_path: Path) -> None:
    (tmp_path / "Ana.md").write_text(
        "---\nrole: CTO\nteam: ['[[Boris]]', Cy]\nnested: {a: 1}\n---\n# Ana\n\n"
        "## 09:00 — Called the bank\n\n## Notes\nLikes tea.\n### Empty at the end\n")
    vault = Vault(tmp_path, use_cache=False)
    _ = vault.notes
    found = [(p.kind, p.text, p.headings, p.start, p.end) for p in passages(
        vault.store, ["Ana"])["Ana"]]
    assert found == [("properties", "role: CTO; team: Boris, Cy", (), 2, 4),
                     ("heading", "09:00 — Called the bank", ("Ana",), 8, 8),
                     ("paragraph", "Likes tea.", ("Ana", "Notes"), 11, 11),
                     ("heading", "Empty at the end", ("Ana", "Notes"), 12, 12)]


@pytest.mark.parametrize(("question", "expected"), [
    ("what happened on 2026-02-03?", [Period(dt.date(2026, 2, 3), dt.date(2026, 2, 3))]),
    ("in May 2023", [Period(dt.date(2023, 5, 1), dt.date(2023, 5, 31))]),
    ("on 10 January", [Period(dt.date(2000, 1, 10), dt.date(2000, 1, 10), True)]),
    ("March 3rd, 2025", [Period(dt.date(2025, 3, 3), dt.date(2025, 3, 3))]),
    ("during 2024", [Period(dt.date(2024, 1, 1), dt.date(2024, 12, 31))]),
    ("what did we do yesterday", [Period(dt.date(2026, 3, 19), dt.date(2026, 3, 19))]),
    ("last week", [Period(dt.date(2026, 3, 10), dt.date(2026, 3, 16))]),
    ("we may 10 times", []), ("31 February", []), ("nothing about time", [])])
def test_query_periods(question: str, expected: list[Period]) -> None:
    assert query_periods(question, TODAY) == expected


def test_spoken_days_read_relative_words_from_the_note_day() -> None:
    day = dt.date(2026, 3, 10)
    assert spoken_days("the day before yesterday we met", day) == [day, dt.date(2026, 3, 8)]
    assert Period(dt.date(2000, 3, 9), dt.date(2000, 3, 9), True).holds(dt.date(2031, 3, 9))


def chat_vault(root: Path) -> Vault:
    """Two sessions of a chat log: a question answered in the next turn with other words."""
    (root / "Daily").mkdir()
    (root / "People").mkdir()
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "daily-notes.json").write_text('{"folder": "Daily"}')
    for name in ("Anna", "Boris"):
        (root / "People" / f"{name}.md").write_text(f"---\ntype: person\n---\n# {name}\n")
    (root / "Daily" / "2026-01-05.md").write_text(
        "- [[Anna]]: which dentist did you pick for the kids? ^t1\n"
        "- [[Boris]]: Dr Kim on Elm Street, she was great with them ^t2\n"
        "- [[Anna]]: the weather is cold ^t3\n")
    (root / "Daily" / "2026-03-19.md").write_text(
        "- [[Boris]]: yesterday I booked the dentist again ^u1\n"
        "- [[Anna]]: good, the kids liked her ^u2\n")
    (root / "Old.md").write_text("---\nexpires: 2026-01-01\n---\nthe dentist plan was Dr Lee\n")
    return Vault(root, use_cache=False)


def test_a_reply_ranks_with_its_question(tmp_path: Path) -> None:
    found = relevant_passages(chat_vault(tmp_path), "which dentist for the kids?", today=TODAY)
    order = [(s.passage.note, s.passage.block_id) for s in found]
    assert ("Daily/2026-01-05", "t2") in order  # no word of the question, found as the reply
    assert order.index(("Daily/2026-01-05", "t2")) < order.index(("Daily/2026-01-05", "t3")) \
        if ("Daily/2026-01-05", "t3") in order else True
    assert "Old" not in {note for note, _ in order}  # expired memory gives nothing


def test_a_named_time_prefers_passages_of_that_time(tmp_path: Path) -> None:
    vault = chat_vault(tmp_path)
    january = relevant_passages(vault, "the dentist on 5 January", today=TODAY)
    march = relevant_passages(vault, "the dentist on 18 March", today=TODAY)
    assert january[0].passage.block_id == "t1"
    assert march[0].passage.block_id == "u1"  # written on the 19th: "yesterday" is the 18th


def test_a_named_person_lifts_the_passages_naming_them(tmp_path: Path) -> None:
    vault = chat_vault(tmp_path)
    found = relevant_passages(vault, "what did Boris say about the dentist", today=TODAY)
    assert found[0].passage.text.startswith("[[Boris]]")
    assert "names People/Boris +0.09" in found[0].reasons  # 2 of the 5 passages name him


def test_age_and_feedback_are_settings(tmp_path: Path) -> None:
    vault = chat_vault(tmp_path)
    aged = {s.passage.block_id: s.score for s in relevant_passages(vault, "dentist",
                                                                  today=TODAY)}
    (tmp_path / ".vaultmem").mkdir()
    (tmp_path / ".vaultmem" / "config.toml").write_text(
        "age_weight = 0\nfeedback_weight = 0.5\n")
    settled = Vault(tmp_path, use_cache=False)
    assert (settled.config.age_weight, settled.config.feedback_weight) == (0.0, 0.5)
    ageless = {s.passage.block_id: s.score for s in relevant_passages(settled, "dentist",
                                                                     today=TODAY)}
    assert ageless.keys() == aged.keys()
    assert ageless["t1"] > aged["t1"]  # two months old: no longer lowered
    (tmp_path / ".vaultmem" / "config.toml").write_text("age_half_life_days = 0\n")
    with pytest.raises(ConfigError, match="age_half_life_days must be a whole number"):
        Vault(tmp_path, use_cache=False)
    (tmp_path / ".vaultmem" / "config.toml").write_text("feedback_weight = 2\n")
    with pytest.raises(ConfigError, match="feedback_weight must be a number from 0 to 1"):
        Vault(tmp_path, use_cache=False)


def test_a_passage_of_embeds_alone_is_no_passage(tmp_path: Path) -> None:
    (tmp_path / "Kevin.md").write_text("# Kevin\n\n![[Books.base#Author]]\n\n## Work\n"
                                       "Writes about ![[cover.png]] books.\n")
    vault = Vault(tmp_path, use_cache=False)
    _ = vault.notes
    assert [(p.kind, p.text) for p in passages(vault.store, ["Kevin"])["Kevin"]] == [
        ("paragraph", "Writes about [[cover.png]] books.")]  # an embed reads as a link


@pytest.mark.parametrize(("high", "low"), [(9, 2), (0.9, 0.2)])
def test_a_notes_importance_weighs_in(tmp_path: Path, high: float, low: float) -> None:
    for name, importance in (("Minor", low), ("Major", high), ("Plain", None)):
        stated = f"---\nimportance: {importance}\n---\n" if importance is not None else ""
        (tmp_path / f"{name}.md").write_text(f"{stated}the backup runs at midnight\n")
    found = relevant_passages(Vault(tmp_path, use_cache=False), "when does the backup run",
                              today=TODAY)
    assert [s.passage.note for s in found] == ["Major", "Plain", "Minor"]


def test_a_label_ranks_below_what_it_names(tmp_path: Path) -> None:
    (tmp_path / "Reports.md").write_text("# Reports\n\n**Other Analytics**\n\n- weekly analytics "
                                         "digest\n\n## Analytics\n\n## Sales\n- analytics of the "
                                         "sales funnel\n")
    found = relevant_passages(Vault(tmp_path), "analytics", today=TODAY)
    assert [(s.passage.text, s.passage.kind) for s in found] == [
        ("analytics of the sales funnel", "item"), ("weekly analytics digest", "item"),
        ("Analytics", "heading"), ("**Other Analytics**", "paragraph")]


def test_a_line_of_links_ranks_below_what_it_names(tmp_path: Path) -> None:
    bar = "![[Map.canvas|Map]]\n[[Fleeting]] | [[Literature|Literature notes]] | [[Permanent]]"
    for name in ("Fleeting", "Literature", "Permanent"):  # each note opens with the same bar
        (tmp_path / f"{name}.md").write_text(
            f"{bar}\n\n## What they are\n\n{name} notes: how to keep them, what to write in "
            "them.\n\n## Where\n\nIn their own folder, one note per idea.\n")
    (tmp_path / "Map.canvas").write_text("{}")
    (tmp_path / "Index.md").write_text("# Index\n\n- [[Literature]]\n- Literature notes, see "
                                       "[[Literature]]\n")
    found = [(s.passage.note, s.passage.text)
             for s in relevant_passages(Vault(tmp_path), "literature notes", today=TODAY)]
    assert found[:2] == [
        ("Index", "Literature notes, see [[Literature]]"),
        ("Literature", "Literature notes: how to keep them, what to write in them.")]
    shown = bar.removeprefix("!")  # a canvas embed shows as its link
    # the bar every note opens with is shown once, with the note the question names
    assert sorted(found[-2:]) == [("Index", "[[Literature]]"), ("Literature", shown)]
    assert [text for _, text in found].count(shown) == 1
    for most in range(1, len(found) + 2):  # the best few are the first of all, labels or not
        assert [(s.passage.note, s.passage.text) for s in relevant_passages(
            Vault(tmp_path), "literature notes", today=TODAY, most=most)] == found[:most]


@pytest.mark.parametrize("question", ["OCR accuracy", "who decided the pricing", "Lucy async",
                                      "DataFlow pipeline status", "invoice inbox"])
def test_the_most_best_passages_are_the_first_of_all(question: str) -> None:
    vault = Vault(SAMPLE, use_cache=False)
    every = relevant_passages(vault, question, today=TODAY)
    assert len(every) > 8
    for most in (1, 2, 5, 8, len(every)):
        assert relevant_passages(vault, question, today=TODAY, most=most) == every[:most]


def test_a_short_line_ending_in_a_colon_ranks_below_what_it_introduces(tmp_path: Path) -> None:
    (tmp_path / "Team.md").write_text(
        "# Team\n\nOur rules:\n\n- one note holds one thought\n- every note is linked from "
        "where it is used\n\nWe wrote the rules down in 2023, after a long argument about "
        "notes:\n")
    found = [s.passage.text for s in relevant_passages(Vault(tmp_path), "rules", today=TODAY)]
    assert found == ["We wrote the rules down in 2023, after a long argument about notes:",
                     "one note holds one thought", "every note is linked from where it is used",
                     "Our rules:"]  # a sentence ending in a colon is no label
    chinese = StoredPassage("N", 1, "paragraph", (), 3, 3, None,
                            "当文档需要整合多个词条内容时, 使用引用语法:")
    assert not is_label(chinese, [])
    assert is_label(chinese._replace(text="更新内容\uff1a"), [])  # two CJK characters, one word
