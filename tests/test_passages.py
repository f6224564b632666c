"""Passages: fixture notes against their expected passages, and every note of the real vaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultmem.config import Config
from vaultmem.read.parse import parse_with_body
from vaultmem.read.passage_text import MAX_CHARS, hidden_spans
from vaultmem.read.passages import Passage, passages_of, split_passages
from vaultmem.read.syntax import make_parser

from .conftest import NO_CORPORA

FIXTURES = Path(__file__).parent / "fixtures" / "passages"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
KINDS = {"item", "paragraph", "row", "code", "math", "section"}
PARSER = make_parser()


def _expected(path: Path) -> list[Passage]:
    """The passages a fixture's sibling ``.json`` lists."""
    rows = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return [Passage(**dict(row, headings=tuple(row["headings"]))) for row in rows]


def _from_parse(path: str, data: bytes) -> list[Passage]:
    """Passages from the tokens, body and body line of vaultmem's note parser (as the scan
    makes them)."""
    parsed = parse_with_body(path, data, Config(root=Path(".")))
    return split_passages(parsed.tokens, parsed.body, parsed.body_line)


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.md")), ids=lambda path: path.stem)
def test_fixture_passages(fixture: Path) -> None:
    """Each fixture note splits into exactly its expected passages, from text or from parse."""
    data = fixture.read_bytes()
    expected = _expected(fixture)
    assert passages_of(data.decode("utf-8")) == expected
    assert _from_parse(fixture.name, data) == expected


def test_fixtures_cover_the_edge_cases() -> None:
    """The fixture set holds the notes the rules were written for."""
    names = {path.stem for path in FIXTURES.glob("*.md")}
    assert names >= {"chat-log", "nested-lists", "table", "long-paragraph", "headings", "cjk",
                     "callouts", "frontmatter-offset"}


def test_chat_turns_keep_their_block_ids() -> None:
    """One passage per chat turn, each with the turn's id and the speaker's link."""
    turns = passages_of("- [[Ana]]: hi ^a1\n- [[Bo|Bob]]: hello\n  again ^a2\n")
    assert [(p.text, p.block_id, p.start, p.end) for p in turns] == [
        ("[[Ana]]: hi", "a1", 1, 1), ("[[Bo|Bob]]: hello\nagain", "a2", 2, 3)]


def test_hidden_spans_follow_code_spans_and_open_comments() -> None:
    """Comments are found outside code spans; an unclosed ``%%`` stays open for the next block."""
    assert hidden_spans("a `%%` b %%c%% d", False) == ([(9, 14)], False)
    assert hidden_spans("x %% open", False) == ([(2, 9)], True)
    assert hidden_spans("still %% done <!-- c", True) == ([(0, 8), (14, 20)], False)
    assert hidden_spans("closed at the very end %%", True) == ([(0, 25)], False)


def test_empty_and_comment_only_bodies_have_no_passages() -> None:
    """Nothing visible, nothing to retrieve."""
    assert passages_of("") == []
    assert passages_of("---\na: 1\n---\n%% only a comment %%\n\n<!-- and this -->\n# Title\n") == []


def _corpus_notes() -> list[Path]:
    """Every Markdown file of the real vaults, if they are here."""
    return sorted(CORPORA.glob("*/**/*.md")) if CORPORA.is_dir() else []


@pytest.mark.skipif(not _corpus_notes(), reason=NO_CORPORA)
def test_real_vaults_split_into_sound_passages() -> None:
    """Every real note splits; spans lie in the file in order, texts are non-empty and bounded."""
    for path in _corpus_notes():
        data = path.read_bytes()
        lines = data.decode("utf-8", "replace").count("\n") + 1
        passages = _from_parse(path.name, data)
        for passage in passages:
            assert 1 <= passage.start <= passage.end <= lines, (path, passage)
            assert passage.text.strip() and len(passage.text) <= MAX_CHARS, (path, passage)
            assert passage.kind in KINDS, (path, passage)
        assert [p.start for p in passages] == sorted(p.start for p in passages), path
