"""A later statement of the same thing comes first in a context, the earlier one marked."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from vaultmem.recall.context.build import build_context
from vaultmem.vault import Vault

DAYS = {
    "2026-03-02": "- [[Maya]]: My sister's wedding is on 14 June, in Porto. ^s01t01\n"
                  "- [[Maya]]: I bought a blue suit for it. ^s01t02\n",
    "2026-03-20": "- [[Maya]]: The wedding speech is half written. ^s02t01\n",
    "2026-04-09": "- [[Maya]]: Update: the wedding moved to 21 June. ^s03t01\n",
}


def _log(root: Path, days: dict[str, str]) -> Vault:
    """A chat log: one daily note per day, with a ``date`` property."""
    (root / "Daily").mkdir(parents=True)
    for day, turns in days.items():
        (root / "Daily" / f"{day}.md").write_text(
            f"---\ntype: daily\ndate: {day}\n---\n# {day}\n\n{turns}", encoding="utf-8")
    return Vault(root, use_cache=False)


def _context(vault: Vault, question: str) -> str:
    """The context for ``question`` as an agent reads it."""
    return build_context(vault, query=question, budget=1000, today=dt.date(2026, 4, 10)).text


def _relevant(vault: Vault, question: str) -> list[tuple[str, str, str]]:
    """The Relevant passages of a context for ``question``: note, text, cite."""
    built = build_context(vault, query=question, budget=1000, today=dt.date(2026, 4, 10))
    return [(item.id, item.text, item.cite) for item in built.items
            if item.section == "relevant" and item.kind != "pointer"]


def test_the_newest_statement_comes_first_and_the_older_say_they_are_earlier(
        tmp_path: Path) -> None:
    shown = _relevant(_log(tmp_path, DAYS), "When is my sister's wedding?")
    assert shown[0] == ("Daily/2026-04-09", "[[Maya]]: Update: the wedding moved to 21 June.",
                        "^s03t01")
    assert ("Daily/2026-03-02", "[[Maya]]: My sister's wedding is on 14 June, in Porto.",
            "^s01t01") in shown
    assert "- [[Maya]]: My sister's wedding is on 14 June, in Porto. (^s01t01, earlier than " \
           "[[Daily/2026-04-09]])" in _context(_log(tmp_path / "again", DAYS),
                                               "When is my sister's wedding?")


def test_one_statement_or_one_day_is_left_as_it_is(tmp_path: Path) -> None:
    vault = _log(tmp_path, {"2026-03-02": DAYS["2026-03-02"]})
    shown = _relevant(vault, "When is my sister's wedding?")
    assert shown[0] == ("Daily/2026-03-02",
                        "[[Maya]]: My sister's wedding is on 14 June, in Porto.", "^s01t01")
    assert "earlier than" not in _context(vault, "When is my sister's wedding?")


def test_a_question_naming_a_time_asks_of_that_time(tmp_path: Path) -> None:
    shown = _relevant(_log(tmp_path, DAYS), "What did I write about the wedding on 2026-03-02?")
    assert shown[0][0] != "Daily/2026-04-09"
    assert "earlier than" not in _context(_log(tmp_path / "again", DAYS),
                                          "What did I write about the wedding on 2026-03-02?")


FILLER = {str(dt.date(2025, 6, 1) + dt.timedelta(days=day)):
          f"- [[Maya]]: Ran {day} km along the river. ^f{day}a\n"
          f"- [[Maya]]: Cooked a lentil soup, batch {day}. ^f{day}b\n"
          f"- [[Maya]]: Read chapter {day} of the novel. ^f{day}c\n" for day in range(170)}


def test_a_thing_the_chat_never_spoke_of_gets_an_empty_relevant(tmp_path: Path) -> None:
    """"my brother's wedding" shares "wedding" with three of 514 entries, but no note holds
    "brother": nothing is shown for it, and the context says so."""
    text = _context(_log(tmp_path, {**DAYS, **FILLER}), "When is my brother's wedding?")
    assert "No passage holds much of the question (no note holds brother)." in text
    assert "## Relevant" not in text
