"""The conversation generator: both wordings write the same sessions and questions, every
evidence line is where the questions say, and people's words are typed as people type."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_conversations import generate_conversations
from people_words import as_typed

WORD = re.compile(r"[\w']+")


def _evidence_lines(out: Path, questions: list[dict]) -> list[str]:
    lines = []
    for question in questions:
        for ev in question["evidence"]:
            written = (out / f"{ev['note']}.md").read_text(encoding="utf-8").splitlines()
            lines.append(written[ev["line"] - 1])
    return lines


def test_people_words_keep_the_sessions_and_questions(tmp_path: Path) -> None:
    plain = generate_conversations(tmp_path / "plain", sessions=20, seed=4)
    typed = generate_conversations(tmp_path / "typed", sessions=20, seed=4, words="people")
    assert [(q["question"], q["kind"]) for q in typed] == [(q["question"], q["kind"])
                                                           for q in plain]
    days = sorted(p.name for p in (tmp_path / "plain" / "Daily").iterdir())
    assert days == sorted(p.name for p in (tmp_path / "typed" / "Daily").iterdir())
    spread = [q for q, p in zip(typed, plain, strict=True)
              if len(q["evidence"]) > len(p["evidence"])]
    assert spread  # some answers are typed over two turns, and both are evidence
    for line in _evidence_lines(tmp_path / "typed", typed):
        assert line.startswith("- [[") and " ^s" in line


def test_each_wording_is_deterministic(tmp_path: Path) -> None:
    generate_conversations(tmp_path / "a", sessions=20, seed=6, words="people")
    generate_conversations(tmp_path / "b", sessions=20, seed=6, words="people")
    for path in sorted((tmp_path / "a" / "Daily").iterdir()):
        assert path.read_bytes() == (tmp_path / "b" / "Daily" / path.name).read_bytes()


def test_an_unknown_wording_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="plain, people"):
        generate_conversations(tmp_path / "x", sessions=20, words="shouting")


def test_a_turn_as_typed() -> None:
    turn = ("J", "Pixel swallowed a sock on Sunday, we spent the whole night at the emergency "
                 "vet, he is fine now")
    typed = [as_typed(turn, random.Random(seed), "dog", later=True) for seed in range(40)]
    assert all(who == "J" for turns in typed for who, _ in turns)
    assert all("Pixel" not in text for turns in typed for _, text in turns)
    assert any(len(turns) == 2 for turns in typed) and any(len(turns) == 1 for turns in typed)
    words = set(WORD.findall(turn[1].lower() + " the little guy"))
    typos = {w.strip(",!.").lower() for turns in typed for _, text in turns
             for w in text.split()} - words - {"haha", "tbh", "lol", "honestly", "anyway"}
    assert typos  # some words are misspelt
    first = as_typed(turn, random.Random(1), "dog", later=False)
    assert "Pixel" in " ".join(text for _, text in first) or "pixel" in " ".join(
        text for _, text in first)
