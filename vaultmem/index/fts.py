"""The passages table and its SQLite FTS5 index: store, remove and rank a vault's passages.

Functions take the connection and leave the transaction to the caller (nothing here commits).

- Search form: what FTS5 indexes is the passage's words (its prose: :mod:`.passage_words`)
  and, as a second column, the note's title with the heading path and a code block's text
  (none holds a credential: passages come here
  :func:`~vaultmem.read.note_passages.without_secrets`), both NFKC-normalised and with every
  run of CJK characters (Han, kana, Hangul) written as overlapping two-character tokens plus
  its last character alone (``函数的极限`` -> ``函数 数的 的极 极限 限``). unicode61
  (``remove_diacritics 2``, so case and accents fold) reads a CJK run as one token and
  trigram cannot match two characters; bigrams match any two-character word inside a run, and
  every character starts some token, so a one-character query works as a prefix query. The
  porter stemmer wraps unicode61, so word forms meet (``deciding`` and ``decided``); it reads
  English only, so a question in another language
  (:func:`vaultmem.languages.question_language`) has each word searched as a prefix of its
  Snowball stem in that language (``decidimos`` -> ``decid*`` meets ``decidir``), and else a
  Cyrillic word of six letters or more as a prefix without its last two (``таймаут`` ->
  ``тайма*`` meets ``таймаута``).
- Queries are never FTS5 syntax: words (runs of letters, digits and marks) and CJK bigrams are
  each put in double quotes and joined by OR, so quotes, operators, ``*^:()-`` are only
  separators. A CJK run of three or more characters also adds the run as a phrase, which lifts
  passages holding the exact string; a one-character run is a prefix query. Words joined by
  ``-./:`` (``2023-11-08``, ``ocr-engine``) are also searched as a phrase.
- Stopwords: very common English words (``STOPWORDS``, unless written in capitals like ``US``)
  and those of the question's language (:mod:`vaultmem.languages`) are dropped from a query
  that has other terms, and so are clitics (``Ana's``, ``don't``);
  their posting lists are long and bm25 gives them almost no weight. A query of only stopwords
  is searched as one phrase (``to be or not to be``): passages holding exactly that sequence,
  often none. At most ``MAX_TERMS`` distinct terms are used, the first ones.
- Score: FTS5's ``bm25()`` is lower for better matches (negative); ``PassageHit.score`` is its
  negation, so higher is better and always positive. Heading path and title matches weigh
  ``HEADS_WEIGHT`` times a text match.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..languages import CYRILLIC, common_word, question_language, stem
from ..secrets import redact
from .passage_words import code_words, passage_words
from .sql import KEYS

if TYPE_CHECKING:  # markdown-it, which the splitter imports, is loaded only for parsing
    from ..read.passages import Passage

# Contentless (content=''): the index keeps only the search forms' tokens. An external content
# table would have to hold the search forms as columns (FTS5 reads indexed values back from it),
# a second copy of every passage's text, as a regular FTS5 table would. A contentless table in
# SQLite 3.40 cannot DELETE rows; remove() uses FTS5's 'delete' command with the same forms,
# recomputed from the passages row (search_form is deterministic; changing it changes what the
# index holds and needs a new index schema, which rebuilds this cache).
SCHEMA = KEYS + """
CREATE TABLE IF NOT EXISTS passage_store(
    id INTEGER PRIMARY KEY,
    path_no INTEGER NOT NULL,       -- the number of the note's vault path (with .md) in keys
    number INTEGER NOT NULL,        -- 0-based position in the note's passages
    kind TEXT NOT NULL,
    headings TEXT NOT NULL,         -- JSON array, outermost first
    start_line INTEGER NOT NULL,    -- 1-based file lines
    end_line INTEGER NOT NULL,
    block_id TEXT,
    text TEXT NOT NULL,
    digest BLOB NOT NULL,           -- of text (see text_digest): what its vector is stored by
    UNIQUE(path_no, number));
CREATE INDEX IF NOT EXISTS passages_by_digest ON passage_store(digest);
CREATE VIEW IF NOT EXISTS passages(id, path, number, kind, headings, start_line, end_line,
    block_id, text, digest) AS SELECT p.id, k.key, p.number, p.kind, p.headings, p.start_line,
    p.end_line, p.block_id, p.text, p.digest FROM passage_store AS p
    JOIN keys AS k ON k.no = p.path_no;
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    body, heads, content='', tokenize='porter unicode61 remove_diacritics 2');
"""
TOKENIZER = "porter unicode61 remove_diacritics 2"  # as in SCHEMA
HEADS_WEIGHT = 2.0
MAX_TERMS = 64
COMMON_PHRASE_WORDS = 8  # a longer run of common words is matched by its first ones
ENDINGS_FROM = 6  # letters: a shorter Cyrillic word is searched whole
CJK_CLASS = ("[\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff"
             "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
             "\U00020000-\U0003134f]+")
STOPWORDS = frozenset({
    "a", "about", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been",
    "being", "but", "by", "can", "could", "did", "do", "does", "doing", "done", "for", "from",
    "had", "has", "have", "he", "her", "him", "his", "how", "i", "if", "in", "into", "is", "it",
    "its", "me", "my", "no", "not", "of", "on", "or", "our", "she", "should", "so", "some",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "to", "too", "us", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why",
    "will", "with", "would", "you", "your",
    "aren", "couldn", "didn", "doesn", "don", "hasn", "haven", "isn", "shouldn", "wasn", "weren",
    "won", "wouldn"})  # don't, once its 't is gone
CLITIC = re.compile(r"(?<=\w)['\u2019](?:s|t|d|ll|m|re|ve)\b", re.IGNORECASE)  # Ana's, don't, I'm
JOINED = re.compile(r"\w+(?:[-./:]\w+)+")  # 2023-11-08, ocr-engine, v1.2
SEARCH = """
SELECT p.path, p.number, p.start_line, p.end_line, p.block_id, p.text, p.headings, -hit.bm25,
       -hit.body, p.kind
FROM (SELECT rowid, bm25(passages_fts, 1.0, ?) AS bm25, bm25(passages_fts, 1.0, 0.0) AS body
      FROM passages_fts WHERE passages_fts MATCH ? ORDER BY bm25 LIMIT ?) AS hit
JOIN passages AS p ON p.id = hit.rowid
ORDER BY hit.bm25, p.path, p.number
"""


class PassageHit(NamedTuple):
    """A passage that matched a query; ``score`` is -bm25: positive, higher is better
    (``body``: the same of its text alone, 0 when only its title or headings match)."""

    path: str
    number: int
    start: int
    end: int
    block_id: str | None
    text: str
    headings: tuple[str, ...]
    score: float
    body: float
    kind: str  # list item, paragraph, table row...: see :mod:`vaultmem.read.passages`


def create(db: sqlite3.Connection) -> None:
    """Create the passages table and its index unless they exist."""
    db.executescript(SCHEMA)


def add(db: sqlite3.Connection, path: str, passages: list[Passage]) -> None:
    """Store and index the passages of the note at vault path ``path``, replacing its old ones."""
    remove(db, [path])
    add_rows(db, [(path, *row) for row in passage_rows(path, passages)])


def passage_rows(path: str, passages: list[Passage]) -> list[tuple[Any, ...]]:
    """The rows :func:`add_rows` stores for a note's passages, without the path: number, kind,
    headings (JSON), lines, block id, text, its digest and the two search forms (made where the
    note is parsed, in a worker when there are many)."""
    return [(number, passage.kind, json.dumps(list(passage.headings), ensure_ascii=False),
             passage.start, passage.end, passage.block_id, passage.text,
             text_digest(meaning_form(path, passage.text)),
             *_forms(path, passage.kind, passage.headings, passage.text))
            for number, passage in enumerate(passages)]


def add_rows(db: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> None:
    """Store and index passage rows (path, then :func:`passage_rows`' columns) of notes that
    have none stored."""
    first = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM passage_store").fetchone()[0]
    db.executemany("INSERT OR IGNORE INTO keys(key) VALUES (?)",
                   [(path,) for path in sorted({row[0] for row in rows})])
    db.executemany("INSERT INTO passage_store VALUES (?, (SELECT no FROM keys WHERE key = ?), "
                   "?, ?, ?, ?, ?, ?, ?, ?)",
                   [(first + at, *row[:-2]) for at, row in enumerate(rows)])
    db.executemany("INSERT INTO passages_fts(rowid, body, heads) VALUES (?, ?, ?)",
                   [(first + at, *row[-2:]) for at, row in enumerate(rows)])


def text_digest(text: str) -> bytes:
    """A text's 16-byte BLAKE2b digest: passages of the same meaning form share one vector."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def meaning_form(path: str, text: str) -> str:
    """What is embedded of a passage: its note's title, then its text (a line of ``Priya
    Nair`` is about Priya), or the text alone under a title without letters (a daily note's
    date says nothing of what a line means). Headings are left out: in logs they are times
    and session numbers, and on the evaluations they lowered the share of answers found.

    >>> meaning_form("People/Priya Nair.md", "Bookkeeper in Bengaluru.")
    'Priya Nair: Bookkeeper in Bengaluru.'
    >>> meaning_form("Daily/2026-01-12.md", "[[Ana]]: I picked up a cello")
    '[[Ana]]: I picked up a cello'
    """
    title = path.rsplit("/", 1)[-1].removesuffix(".md")
    return f"{title}: {text}" if any(char.isalpha() for char in title) else text


def remove(db: sqlite3.Connection, paths: Iterable[str]) -> None:
    """Drop the passages of the notes at ``paths`` from the table and the index."""
    gone = json.dumps(sorted(paths), ensure_ascii=False)
    rows = db.execute("SELECT id, path, kind, headings, text FROM passages WHERE path IN "
                      "(SELECT value FROM json_each(?))", (gone,)).fetchall()
    db.executemany("INSERT INTO passages_fts(passages_fts, rowid, body, heads)"
                   " VALUES ('delete', ?, ?, ?)",
                   [(rowid, *_forms(path, kind, heading_path(heads), text))
                    for rowid, path, kind, heads, text in rows])
    db.executemany("DELETE FROM passage_store WHERE id = ?", [(row[0],) for row in rows])


def candidates(db: sqlite3.Connection, query: str, *, limit: int = 200) -> list[PassageHit]:
    """The passages matching any term of ``query``, best first by bm25 (at most ``limit``)."""
    match = match_expression(query)
    if match is None or limit <= 0:
        return []
    rows = db.execute(SEARCH, (HEADS_WEIGHT, match, limit)).fetchall()
    return [PassageHit(path, number, start, end, block_id, text, heading_path(heads), score,
                       body, kind) for path, number, start, end, block_id, text, heads, score,
            body, kind in rows]


@functools.lru_cache(maxsize=4096)
def heading_path(stored: str) -> tuple[str, ...]:
    """A passage's headings as the table stores them (JSON), decoded once per distinct path:
    the passages of a section share theirs.

    >>> heading_path('["Plans", "Q3"]')
    ('Plans', 'Q3')
    """
    return tuple(json.loads(stored))


def search_form(text: str) -> str:
    """``text`` as indexed: NFKC, each CJK run as its bigrams and its last character.

    >>> search_form("Lucy的项目 ok")
    'Lucy 的项 项目 目  ok'
    """
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return _cjk().sub(lambda run: " " + " ".join([*_bigrams(run.group()), run.group()[-1]]) + " ",
                   text)


def _forms(path: str, kind: str, headings: tuple[str, ...], text: str) -> tuple[str, str]:
    """The two indexed columns of a passage: its words (:func:`.passage_words.passage_words`),
    and its note's title with its headings and a code block's text (a credential in the title
    redacted: the built-in kinds only, so that :func:`remove` always makes the forms
    :func:`add_rows` indexed)."""
    title = redact(path.rsplit("/", 1)[-1].removesuffix(".md"))
    return (search_form(passage_words(kind, text)),
            search_form("\n".join((title, *headings, code_words(kind, text)))))


@functools.cache
def _cjk() -> re.Pattern[str]:
    """Runs of CJK characters, compiled on first use (a class this wide takes milliseconds)."""
    return re.compile(CJK_CLASS)


def _bigrams(run: str) -> list[str]:
    """The overlapping two-character pieces of a CJK run (none for a single character)."""
    return [run[at : at + 2] for at in range(len(run) - 1)]


def match_expression(query: str) -> str | None:
    """The FTS5 MATCH text for a user's ``query``: its terms joined by OR, None if none."""
    return " OR ".join(match_terms(query)) or None


def match_terms(query: str) -> list[str]:
    """A user's ``query`` as FTS5 terms, each quoted: its words but common ones (English ones
    and those of the question's language; all of them, as one phrase, when every word is
    common), CJK bigrams and runs, joined words as phrases."""
    query = CLITIC.sub("", query)
    words, cjk_terms = _query_terms(query)
    language = question_language(query)
    kept = [word for word in words if not (word.lower() in STOPWORDS
                                           or common_word(word, language)) or _acronym(word)]
    if not kept and not cjk_terms:  # a phrase of common words ("The Who"): a short one
        return [_quote(" ".join(words[:COMMON_PHRASE_WORDS]))] if words else []
    phrases = [_quote(" ".join(_words(joined))) for joined in JOINED.findall(query)]
    unique: dict[str, str] = {}
    for term in [_inflected(word, language) for word in kept] + cjk_terms + phrases:
        unique.setdefault(term.lower(), term)
    return list(unique.values())[:MAX_TERMS]


def _acronym(word: str) -> bool:
    """True for a word written in capitals (``US``, ``IT``): a name, not a common word (but
    ``AND``, ``OR`` and ``NOT``, typed as operators, stay common words)."""
    return len(word) > 1 and word.isupper() and word not in ("AND", "OR", "NOT")


def _query_terms(query: str) -> tuple[list[str], list[str]]:
    """The query's words, and its CJK runs as quoted bigrams, phrases and prefixes."""
    text = unicodedata.normalize("NFKC", query)
    words: list[str] = []
    cjk_terms: list[str] = []
    at = 0
    for run in _cjk().finditer(text):
        words += _words(text[at : run.start()])
        cjk_terms += _cjk_terms(run.group())
        at = run.end()
    return words + _words(text[at:]), cjk_terms


def is_cjk_pair(term: str) -> bool:
    """True for a quoted term of two CJK characters (:func:`match_terms` makes them).

    >>> is_cjk_pair('"线性"'), is_cjk_pair('"OCR"')
    (True, False)
    """
    inner = term[1:-1] if term.startswith('"') and term.endswith('"') else ""
    return len(inner) == 2 and _cjk().fullmatch(inner) is not None


def _cjk_terms(run: str) -> list[str]:
    """A query's CJK run as terms: its bigrams and, from 3 characters, itself; 1 is a prefix."""
    if len(run) == 1:
        return [_quote(run) + "*"]
    pairs = _bigrams(run)
    return [_quote(pair) for pair in pairs] + ([_quote(" ".join(pairs))] if len(pairs) > 1 else [])


def _words(text: str) -> list[str]:
    """Runs of letters, digits and marks; everything else (punctuation, symbols) separates."""
    marked = "".join(char if _word_char(char) else " " for char in text)
    return marked.split()


def _word_char(char: str) -> bool:
    """A character unicode61 keeps in a token (letters, digits, private use) or a mark."""
    category = unicodedata.category(char)
    return category[0] in "LNM" or category == "Co"


def _inflected(word: str, language: str = "english") -> str:
    """``word`` as an FTS5 term: a prefix query of its stem in the question's ``language``
    (:func:`~vaultmem.languages.stem`), which meets its other forms the index's porter stemmer
    (English only) leaves apart; else a Cyrillic word of ``ENDINGS_FROM`` letters or more as a
    prefix without its last two letters; else the word.

    >>> _inflected("внешним"), _inflected("таймаут"), _inflected("Как"), _inflected("timeouts")
    ('"внешн"*', '"тайма"*', '"Как"', '"timeouts"')
    >>> _inflected("decidimos", "spanish"), _inflected("Ana", "spanish")
    ('"decid"*', '"Ana"')
    """
    found = stem(word, language)
    if found is not None:
        return _quote(found) + "*"
    if len(word) >= ENDINGS_FROM and CYRILLIC.search(word):
        return _quote(word[:-2]) + "*"
    return _quote(word)


def _quote(term: str) -> str:
    """``term`` as an FTS5 string."""
    return '"' + term.replace('"', '""') + '"'
