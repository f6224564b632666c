"""How much of a question a passage holds: each search term of the question weighed by its
rarity among the passages (a term no passage holds weighs most; the counts come from
:mod:`vaultmem.index.term_counts`), pieces of kana words told from words, and the share of a
question's weight a passage's terms make."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from ..index import fts
from ..index.store import Store
from ..index.term_counts import passages_holding, terms_held, terms_in_each
from ..text import cjk_runs
from ..vault import Vault


class TermWeights(NamedTuple):
    """A question's search terms with their weights, those no passage holds, and how many
    passages the vault has."""

    weights: dict[str, float]
    unheld: list[str]
    passages: int = 0


def held_counts(vault: Vault) -> dict[str, int]:
    """The passage counts of search terms kept for this reading of the vault."""
    counts: dict[str, int] = vault.derived.setdefault("passages matching a term", {})
    return counts


def term_weights(store: Store, question: str, known: dict[str, int] | None = None
                 ) -> TermWeights:
    """Each search term of ``question`` (as :func:`~.fts.match_terms` writes it, phrases
    aside when it has words: they repeat them) and its idf over the vault's passages,
    log(1 + (N - n + 0.5) / (n + 0.5)) for a term ``n`` of the ``N`` passages hold; a pair of
    CJK characters no passage holds weighs nothing when a pair beside it is held (it is the
    edge of two words: ``核是`` of ``的核是什么``, ``件里`` of ``文件里定义``). ``known``: the
    passage counts a reader keeps for a state of the index."""
    terms = fts.match_terms(question)
    terms = [term for term in terms if " " not in term] or terms
    total, counts = passages_holding(store, terms, known)
    held = [counts[term] for term in terms]
    weights = {term: 0.0 if _edge(terms, held, at) else
               math.log(1 + (total - n + 0.5) / (n + 0.5))
               for at, (term, n) in enumerate(zip(terms, held, strict=True))}
    return TermWeights(weights, [t for t, n in zip(terms, held, strict=True)
                                 if not n and weights[t]], total)


def _edge(terms: list[str], held: list[int], at: int) -> bool:
    """True when ``terms[at]`` is a CJK pair no passage holds beside one some hold."""
    def pair(i: int) -> str:
        return terms[i][1:-1] if 0 <= i < len(terms) and fts.is_cjk_pair(terms[i]) else ""
    if held[at] or not pair(at):
        return False
    beside = [i for i in (at - 1, at + 1) if pair(i) and
              (pair(i)[1] == pair(at)[0] if i < at else pair(at)[1] == pair(i)[0])]
    return any(held[i] for i in beside)


KANA = re.compile("[\u3040-\u30ff]+")  # hiragana and katakana, the long vowel mark ー too


def kana_fragments(question: str) -> dict[str, frozenset[str]]:
    """The question's search terms that are a pair of kana cut from a longer CJK run, each
    with the phrases of it and a pair beside it in that run: a passage holding the pair in
    none of them holds a piece of another word (``ータ`` of ``コンピュータ`` in ``データ``),
    not the question's.

    >>> sorted(kana_fragments("量子コンピュータ 勉強会")['"ータ"'])
    ['"ュー ータ"']
    >>> sorted(kana_fragments("データ型 ガス"))
    ['"デー"', '"ータ"']
    """
    found: dict[str, frozenset[str]] = {}
    for run in cjk_runs(unicodedata.normalize("NFKC", question)):
        pairs = [run[at:at + 2] for at in range(len(run) - 1)]
        for at, pair in enumerate(pairs if len(pairs) > 1 else []):
            if KANA.fullmatch(pair):
                found[f'"{pair}"'] = frozenset(f'"{" ".join(pairs[start:start + 2])}"'
                                               for start in (at - 1, at) if start >= 0
                                               and start + 1 < len(pairs))
    return found


class WholeWords(NamedTuple):
    """The passages that hold a word of the question, and the terms each holds."""

    hits: list[fts.PassageHit]
    held: dict[tuple[str, int], set[str]]


def whole_words(question: str, hits: list[fts.PassageHit],
                held: dict[tuple[str, int], set[str]]) -> WholeWords:
    """``hits`` and the terms they hold (``held``) without the pairs of kana of
    :func:`kana_fragments` a passage holds in none of their phrases, and without the
    passages that held only those."""
    fragments = kana_fragments(question)
    keys = sorted(key for key, terms in held.items() if terms & fragments.keys())
    if not keys:
        return WholeWords(hits, held)
    texts = {(h.path[:-3], h.number): " ".join((h.path[:-3], *h.headings, h.text)) for h in hits}
    wanted = [set().union(*(fragments[term] for term in held[key] & fragments.keys()))
              for key in keys]
    phrased = dict(zip(keys, terms_in_each([texts.get(key, "") for key in keys], wanted),
                       strict=True))
    kept = {key: {term for term in terms
                  if term not in fragments or fragments[term] & phrased.get(key, set())}
            for key, terms in held.items()}
    return WholeWords([h for h in hits if kept.get((h.path[:-3], h.number), True)],
                      {key: terms for key, terms in kept.items() if terms})


def worded_hits(store: Store, question: str, hits: list[fts.PassageHit]) -> list[fts.PassageHit]:
    """``hits`` without those that hold only pieces of the question's kana words
    (:func:`whole_words`); the index is asked only when the question has such pieces."""
    if not kana_fragments(question):
        return hits
    terms = fts.match_terms(question)
    return whole_words(question, hits, terms_held(store, terms, [(h.path[:-3], h.number)
                                                                 for h in hits])).hits


def share_held(weights: dict[str, float], held: Iterable[str]) -> float:
    """The share of the question's weight (``weights`` of its terms) the terms ``held`` make.

    >>> share_held({'"lasagna"': 9.0, '"recipe"': 3.0}, {'"recipe"'})
    0.25
    """
    total = sum(weights.values())
    return sum(weights.get(term, 0.0) for term in set(held)) / total if total else 0.0
