"""A passage's own score for a question, 0..1.

Its bm25 (SQLite FTS5, idf-weighted terms) over its text, plus ``HEADS_SHARE`` of what its
note's title and heading path add (shared by every passage under them, they say little about
which passage answers), divided by the best passage's; with ``[semantic]`` set, plus its
``weight`` times the passage's closeness in meaning (:mod:`.meaning`), the sum divided by the
best again; plus the vault's ``feedback_weight`` setting (0, off, unless set) times its bm25
(divided by the best) for the words of the ``FEEDBACK_PASSAGES`` best passages that the
question lacks (pseudo-relevance feedback, at most ``FEEDBACK_WORDS`` words; it reorders the
passages the question found, it adds none). Feedback is off by default: on the conversation
and sample evaluations it lowered the share of answered questions (0.15: -0.004 to -0.033).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...index.fts import STOPWORDS, PassageHit
from ...index.lookup import matching_passages
from ...vault import Vault
from ..meaning import Near

CANDIDATES = 400
FEEDBACK_PASSAGES = 3
FEEDBACK_WORDS = 24
HEADS_SHARE = 0.25  # of what a passage's title and heading path add to its text's bm25
WORD = re.compile(r"\w+")
Key = tuple[str, int]  # a passage: its note id and number


class OwnScores(NamedTuple):
    """Each passage's own score (0..1) and the part of it its meaning gave."""

    total: dict[Key, float]
    meaning: dict[Key, float]


def own_scores(vault: Vault, question: str, hits: list[PassageHit], meant: list[Near],
               leave_out: frozenset[str]) -> OwnScores:
    """The own scores of the passages found by words (``hits``) and by meaning (``meant``)."""
    total, meaning = _fused(_normalised(hits) if hits else {}, meant,
                            vault.config.semantic.weight)
    weight = vault.config.feedback_weight
    for key, value in (_feedback(vault, question, hits, total, leave_out)
                       if weight else {}).items():
        if key in total:  # feedback reorders what the question found; it finds nothing new
            total[key] += weight * value
    return OwnScores(total, meaning)


def _normalised(hits: list[PassageHit]) -> dict[Key, float]:
    """Each hit's own score (text, and ``HEADS_SHARE`` of title and headings), 0..1."""
    own = {(h.path[:-3], h.number): h.body + HEADS_SHARE * (h.score - h.body) for h in hits}
    top = max(own.values()) or 1.0
    return {key: value / top for key, value in own.items()}


def _fused(base: dict[Key, float], near: list[Near],
           weight: float) -> tuple[dict[Key, float], dict[Key, float]]:
    """Keyword scores plus ``weight`` times meaning scores, divided by the best (0..1), and
    the meaning part of each."""
    fused = dict(base)
    meaning: dict[Key, float] = {}
    for found in near:
        key = (found.passage.note, found.passage.number)
        meaning[key] = weight * found.score
        fused[key] = fused.get(key, 0.0) + meaning[key]
    top = max(fused.values(), default=0.0) or 1.0
    return ({key: value / top for key, value in fused.items()},
            {key: value / top for key, value in meaning.items()})


def _feedback(vault: Vault, question: str, hits: list[PassageHit], base: dict[Key, float],
              leave_out: frozenset[str]) -> dict[Key, float]:
    """Scores (0..1) of the passages matching the words of the ``FEEDBACK_PASSAGES`` best
    passages that the question lacks (bm25 weighs each by its rarity: a word in every passage
    adds nearly nothing)."""
    asked = {word.casefold() for word in WORD.findall(question)}
    best = sorted(hits, key=lambda h: (-base[(h.path[:-3], h.number)], h.path, h.number))
    words = [w for h in best[:FEEDBACK_PASSAGES] for w in WORD.findall(h.text)]
    extra = list(dict.fromkeys(w.casefold() for w in words if len(w) > 2
                               and w.casefold() not in asked | STOPWORDS))[:FEEDBACK_WORDS]
    if not extra:
        return {}
    found = [h for h in matching_passages(vault.store, " ".join(extra), limit=CANDIDATES)
             if h.path[:-3] not in leave_out]
    return _normalised(found) if found else {}
