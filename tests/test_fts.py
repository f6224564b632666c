"""The passages table and FTS5 index: storing, replacing, removing, ranking, CJK, query safety."""

from __future__ import annotations

import random
import sqlite3
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from vaultmem.index import fts
from vaultmem.read.passages import Passage, passages_of

from .conftest import NO_CORPORA

PKMER = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "pkmer-math"
CALCULUS = PKMER / "微积分"


def _passage(text: str, headings: tuple[str, ...] = (), line: int = 1) -> Passage:
    """A paragraph passage on one line."""
    return Passage(text, "paragraph", headings, line, line, None)


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    """An in-memory database with the passages schema."""
    connection = sqlite3.connect(":memory:")
    fts.create(connection)
    yield connection
    connection.close()


def _texts(db: sqlite3.Connection, query: str, limit: int = 200) -> list[str]:
    """The texts of the hits for ``query``, best first."""
    return [hit.text for hit in fts.candidates(db, query, limit=limit)]


def _vocabulary(db: sqlite3.Connection) -> set[str]:
    """Every token the FTS index holds."""
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, passages_fts,"
               " 'row')")
    return {term for (term,) in db.execute("SELECT term FROM temp.vocab")}


def test_create_twice_keeps_the_rows(db: sqlite3.Connection) -> None:
    """create() is safe to run on a database that has the tables."""
    fts.add(db, "a.md", [_passage("apple pie")])
    fts.create(db)
    assert _texts(db, "apple") == ["apple pie"]


def test_add_replace_and_remove(db: sqlite3.Connection) -> None:
    """Adding a note again replaces its passages; removing drops them from table and index."""
    fts.add(db, "Notes/a.md", [_passage("apple orchard"), _passage("banana boat", line=3)])
    fts.add(db, "Notes/b.md", [_passage("cherry tree")])
    fts.add(db, "Notes/a.md", [_passage("damson jam")])
    assert _texts(db, "apple banana damson cherry") == ["damson jam", "cherry tree"]
    rows = db.execute("SELECT path, number, text FROM passages ORDER BY path, number").fetchall()
    assert rows == [("Notes/a.md", 0, "damson jam"), ("Notes/b.md", 0, "cherry tree")]
    fts.remove(db, ["Notes/a.md", "Notes/missing.md"])
    assert _texts(db, "damson cherry") == ["cherry tree"]
    assert _vocabulary(db) == {"cherri", "tree", "b"}  # stemmed (porter)


def test_hit_fields(db: sqlite3.Connection) -> None:
    """A hit carries the stored passage, its position in the note and a positive score."""
    passage = Passage("[[Ana]]: ship it ^t1", "item", ("Log", "Monday"), 7, 8, "t1")
    fts.add(db, "Daily/2026-05-01.md", [_passage("other"), passage])
    [hit] = fts.candidates(db, "ship")
    assert hit[:7] == ("Daily/2026-05-01.md", 1, 7, 8, "t1", "[[Ana]]: ship it ^t1",
                       ("Log", "Monday"))
    assert hit.score > 0


def test_more_rare_terms_rank_first(db: sqlite3.Connection) -> None:
    """The passage matching the most rare query terms is first, then fewer, then common only."""
    fts.add(db, "common.md", [_passage(f"weekly meeting number {n}") for n in range(30)])
    fts.add(db, "rare.md", [_passage("meeting about the zebra project"),
                            _passage("meeting about the zebra quantum budget"),
                            _passage("zebra crossing near the office")])
    hits = _texts(db, "quantum zebra meeting")
    assert hits[0] == "meeting about the zebra quantum budget"
    assert set(hits[1:3]) == {"meeting about the zebra project", "zebra crossing near the office"}
    assert len(hits) == 33
    scores = [hit.score for hit in fts.candidates(db, "quantum zebra meeting")]
    assert scores == sorted(scores, reverse=True)


def test_a_cyrillic_word_meets_its_other_endings(db: sqlite3.Connection) -> None:
    """The porter stemmer reads English only: a Russian word of the query finds its other
    forms (``внешним`` the passage's ``внешние``), a short one only itself."""
    fts.add(db, "Настройки таймаутов.md", [
        _passage("Внешние зависимости без таймаутов роняют сервис."),
        _passage("Ставьте таймаут в пять секунд."), _passage("Как дела?"),
        _passage("Каков план?")])
    assert set(_texts(db, "внешним зависимостям")) == {
        "Внешние зависимости без таймаутов роняют сервис."}
    assert _texts(db, "Как") == ["Как дела?"]


def test_heading_and_title_matches_count(db: sqlite3.Connection) -> None:
    """Words of the heading path and the note title find a passage and raise its score."""
    fts.add(db, "Plans/2026.md", [_passage("We spend less this year.", ("Budget",)),
                                  _passage("We spend less this year.", ("Travel",))])
    fts.add(db, "People/Lucy Tan.md", [_passage("Role: CTO")])
    hits = fts.candidates(db, "budget spend")
    assert [hit.headings for hit in hits] == [("Budget",), ("Travel",)]
    assert hits[0].score > hits[1].score
    assert _texts(db, "budget") == ["We spend less this year."]
    assert _texts(db, "lucy") == ["Role: CTO"]


def test_case_and_accents_fold(db: sqlite3.Connection) -> None:
    """Queries match whatever the case and accents, both ways."""
    fts.add(db, "a.md", [_passage("Café in Zürich"), _passage("resume writing")])
    assert _texts(db, "cafe ZURICH") == ["Café in Zürich"]
    assert _texts(db, "CAFÉ") == ["Café in Zürich"]
    assert _texts(db, "résumé") == ["resume writing"]


def test_cjk_two_three_and_one_character_queries(db: sqlite3.Connection) -> None:
    """A CJK word inside a run is found by its two characters, three, or one."""
    fts.add(db, "数学.md", [_passage("函数的极限定义"), _passage("数列收敛"),
                           _passage("极大值与极小值"), _passage("関数の極限は基本概念である")])
    assert _texts(db, "极限") == ["函数的极限定义"]
    assert _texts(db, "收敛") == ["数列收敛"]
    assert _texts(db, "极限定")[0] == "函数的极限定义"
    assert _texts(db, "極限") == ["関数の極限は基本概念である"]
    assert set(_texts(db, "极")) == {"函数的极限定义", "极大值与极小值"}
    assert set(_texts(db, "值")) == {"极大值与极小值"}
    assert _texts(db, "矩阵") == []


def test_search_form_writes_cjk_runs_as_bigrams() -> None:
    """CJK runs become bigrams and their last character; other text is kept."""
    assert fts.search_form("极限") == " 极限 限 "
    assert fts.search_form("a 极 b") == "a  极  b"
    assert fts.search_form("\uff21\uff22\uff23 \uff11") == "ABC 1"  # full-width letters, digit


def _folded(text: str) -> str:
    """Text as the search compares it: NFKC."""
    return unicodedata.normalize("NFKC", text)


def _add_calculus_notes(db: sqlite3.Connection, word: str) -> set[tuple[str, int]]:
    """Index the real Chinese notes; the passages holding ``word`` (text, headings or title)."""
    holding: set[tuple[str, int]] = set()
    for path in sorted(CALCULUS.rglob("*.md")):
        name = path.relative_to(PKMER).as_posix()
        passages = passages_of(path.read_text(encoding="utf-8"))
        fts.add(db, name, passages)
        holding |= {(name, number) for number, passage in enumerate(passages)
                    if word in _folded("\n".join((path.stem, *passage.headings, passage.text)))}
    return holding


@pytest.mark.skipif(not CALCULUS.is_dir(), reason=NO_CORPORA)
@pytest.mark.parametrize("word", ["极限", "导数", "极", "收敛"])
def test_cjk_words_in_real_notes_are_all_found(db: sqlite3.Connection, word: str) -> None:
    """In real Chinese notes, a 1- or 2-character query finds exactly the passages holding it."""
    expected = _add_calculus_notes(db, word)
    hits = fts.candidates(db, word, limit=100_000)
    assert expected and {(hit.path, hit.number) for hit in hits} == expected


@pytest.mark.skipif(not CALCULUS.is_dir(), reason=NO_CORPORA)
@pytest.mark.parametrize("word", ["连续性", "中值定理", "洛必达"])
def test_longer_cjk_words_in_real_notes_rank_first(db: sqlite3.Connection, word: str) -> None:
    """A 3- or 4-character query finds every passage holding it, and one holding it is first."""
    holding = _add_calculus_notes(db, word)
    hits = [(hit.path, hit.number) for hit in fts.candidates(db, word, limit=100_000)]
    assert holding and holding <= set(hits) and hits[0] in holding


APPLE, NEAR, OPERATORS = "apple pear", "near the body", "you may write and or not here"
NASTY = [('"', set()), ('""', set()), ("'", set()), ("AND", {OPERATORS}),
         ("OR NOT", {OPERATORS}), ("NEAR(", {NEAR}), ("NEAR(a b, 2)", {NEAR}), (")", set()),
         ("(", set()), ("*", set()), ("^", set()), (":", set()), ("-", set()), ("--", set()),
         ("body:", {NEAR}), ("heads:apple", {APPLE}), ('"apple', {APPLE}), ("apple*", {APPLE}),
         ("^apple", {APPLE}), ("-apple", {APPLE}), ("a:b:c", set()), ("apple AND", {APPLE}),
         ("OR apple", {APPLE}), ("(apple OR", {APPLE}), ("apple) NOT pear", {APPLE}),
         ("{apple}", {APPLE}), ("[[apple]]", {APPLE}), ("pea*", set()),
         ("apple\x00near", {APPLE, NEAR}), ("\u0301", set()), ("🍎", set()), ("%%", set()),
         ("+", set()), ("pear + body", {APPLE, NEAR}), ('near "the" body', {NEAR})]


@pytest.mark.parametrize(("query", "expected"), NASTY)
def test_nasty_queries_are_plain_words(db: sqlite3.Connection, query: str,
                                       expected: set[str]) -> None:
    """Operators and syntax in a query are words or separators; nothing raises."""
    fts.add(db, "a.md", [_passage(APPLE), _passage(OPERATORS), _passage(NEAR)])
    assert set(_texts(db, query)) == expected


@pytest.mark.parametrize("query", ["", " ", "\t\n ", "***", "()", '""""'])
def test_empty_queries_find_nothing(db: sqlite3.Connection, query: str) -> None:
    """A query without any word gives no hits and no MATCH expression."""
    fts.add(db, "a.md", [_passage("apple")])
    assert fts.match_expression(query) is None
    assert fts.candidates(db, query) == []


def test_long_queries_use_the_first_terms(db: sqlite3.Connection) -> None:
    """A query of 200 terms runs, using its first ``MAX_TERMS`` distinct terms."""
    fts.add(db, "a.md", [_passage("term0 here"), _passage("term150 there")])
    query = " ".join(f"term{n}" for n in range(200))
    assert _texts(db, query) == ["term0 here"]
    assert fts.match_expression(query) == " OR ".join(f'"term{n}"' for n in range(fts.MAX_TERMS))


def test_stopwords(db: sqlite3.Connection) -> None:
    """Stopwords are dropped beside other words; a stopword-only query is one phrase."""
    fts.add(db, "a.md", [_passage("To be, or not to be: that is the question"),
                         _passage("It is the best thing to do"),
                         _passage("the zebra")])
    assert _texts(db, "to be or not to be") == ["To be, or not to be: that is the question"]
    assert _texts(db, "the zebra") == ["the zebra"]
    assert fts.match_expression("what is the zebra") == '"zebra"'
    assert set(_texts(db, "THE")) == {"To be, or not to be: that is the question",
                                      "It is the best thing to do", "the zebra"}


def test_limit(db: sqlite3.Connection) -> None:
    """At most ``limit`` hits, the best ones."""
    fts.add(db, "a.md", [_passage("kiwi"), _passage("kiwi kiwi kiwi"), _passage("kiwi and more "
                                                                                "words here")])
    assert _texts(db, "kiwi", limit=1) == ["kiwi kiwi kiwi"]
    assert fts.candidates(db, "kiwi", limit=0) == []


def _synthetic(count: int) -> dict[str, list[Passage]]:
    """``count`` passages of 20 words each over 100 notes, words drawn with a Zipf-like skew."""
    rng = random.Random(7)
    vocabulary = [f"w{n}" for n in range(5000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    notes: dict[str, list[Passage]] = {}
    for number in range(count):
        words = rng.choices(vocabulary, weights, k=20)
        notes.setdefault(f"Notes/n{number % 100}.md", []).append(_passage(" ".join(words)))
    return notes


def test_ten_thousand_passages(db: sqlite3.Connection) -> None:
    """Over 10,000 passages the hits are exactly the best-scoring holders of a query term."""
    notes = _synthetic(10_000)
    for path, passages in notes.items():
        fts.add(db, path, passages)
    hits = fts.candidates(db, "w40 w900 w3000", limit=200)
    holders = [p for passages in notes.values() for p in passages
               if {"w40", "w900", "w3000"} & set(p.text.split())]
    assert len(hits) == min(200, len(holders)) and len(holders) > 200
    assert all({"w40", "w900", "w3000"} & set(hit.text.split()) for hit in hits)
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    assert db.execute("SELECT count(*) FROM passages").fetchone() == (10_000,)


def test_notation_is_no_words_of_a_passage_and_its_heading_is(db: sqlite3.Connection) -> None:
    """Math, long code spans, URLs and attached files' names are not searched; a code block is,
    with its headings; the passage shown is the text as written."""
    fts.add(db, "Sets.md", [
        _passage("Union: $A \\cup B$, see https://example.org/world-cup", ("Sets",)),
        Passage("$$\\bigcup_i A_i$$", "math", ("Sets",), 2, 2, None),
        Passage("final = cup(world)", "code", ("Sets",), 3, 3, None),
        _passage("[[Pasted image 2018 final.png]] and `git rebase --onto main topic`", (), 4),
        _passage("We keep one SQLite file per vault.", ("Architecture", "Stack (ADR-0001)"), 5)])
    assert _texts(db, "world cup 2018 final") == ["final = cup(world)"]  # the block's code
    assert [hit.body for hit in fts.candidates(db, "world cup")] == [0.0]  # not its prose
    assert _texts(db, "rebase") == []
    assert _texts(db, "union") == ["Union: $A \\cup B$, see https://example.org/world-cup"]
    hits = fts.candidates(db, "stack")  # by its heading, not its words
    assert [(hit.text, hit.body) for hit in hits] == [("We keep one SQLite file per vault.", 0)]
    fts.remove(db, ["Sets.md"])  # the forms removed are the forms added
    assert db.execute("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH 'union OR "
                      "stack OR sets'").fetchone() == (0,)


def test_a_question_in_another_language_meets_its_word_forms(db: sqlite3.Connection) -> None:
    """A Spanish question's words meet their other forms (Snowball's Spanish stems, not
    English ones) and its common words (la, el, sobre) are no search terms."""
    fts.add(db, "Notas/Cobro.md", [_passage("Decidimos cobrar por documento procesado."),
                                    _passage("La reunión fue larga.", line=2)])
    assert fts.match_terms("¿Qué decidieron sobre la reunión?") == ['"decid"*', '"reunión"']
    assert _texts(db, "¿Qué decidieron sobre el precio?") == [
        "Decidimos cobrar por documento procesado."]
    assert fts.match_terms("What did they decide about la reunión?") == [
        '"decide"', '"la"', '"reunión"']
