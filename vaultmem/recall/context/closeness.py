"""How close the vault comes to a question: the largest share of the question's weight (its
terms, each weighed by its rarity) the words of one passage hold, the share no passage holds, and
with ``[semantic]`` the cosine of the passage nearest in meaning. A question whose rare words
no passage holds (three tenths of its weight or more), and that nothing is near in meaning, is
about something the vault does not hold: its context says so, its best passages lead to no
second hop, and none is kept for its words alone (:mod:`.relevance_floor`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from ..question_weights import TermWeights, share_held

if TYPE_CHECKING:
    from ..meaning import Near

CLOSE_SHARE = 0.25  # of the question's weight, in one passage's words
MOSTLY_MISSING = 0.3  # of it in words no passage holds: one passage's share is then no answer
TELLING_ABSENCE = 500  # passages: in a smaller vault a word no passage holds ("know") may be
# a common one that happens to be absent, not a sign that the vault holds nothing of it
CLOSE_COSINE = 0.5  # the meaning of one passage
FEW_MISSING = 0.1  # of the question's weight, in words no passage holds: a long question
# spreads over passages, so that none holds a quarter of it though the vault holds its words


class Closeness(NamedTuple):
    """How close the closest passage comes: ``share`` of the question's weight its words
    hold (0..1), ``cosine`` of the nearest in meaning (0 without), the question's words no
    passage holds and the ``missing`` share of its weight they make, and the notes it names
    as names (by title or alias)."""

    share: float
    cosine: float
    unheld: list[str]
    named: list[str]
    missing: float = 0.0
    passages: int = 0  # how many the vault has

    @property
    def close(self) -> bool:
        """True when the question names a note, is ``CLOSE_COSINE`` near a passage in meaning,
        or its words no passage holds weigh at most ``FEW_MISSING`` of it (the vault holds what
        it asks, spread over passages), or a passage holds ``CLOSE_SHARE`` of its weight while
        those words weigh less than ``MOSTLY_MISSING`` (in a vault of ``TELLING_ABSENCE``
        passages or more): "when is my brother's wedding?" is not answered by a passage on a
        sister's wedding in a chat where no turn holds "brother" (chosen on the 144 owner
        questions and 120 off-topic ones: ``docs/evaluation.md``)."""
        telling = self.passages >= TELLING_ABSENCE and self.missing >= MOSTLY_MISSING
        return (bool(self.named) or self.cosine >= CLOSE_COSINE or self.missing <= FEW_MISSING
                or (self.share >= CLOSE_SHARE and not telling))


def closeness(question: str, weights: TermWeights, held: dict[tuple[str, int], set[str]],
              meant: list[Near], named: dict[str, list[str]]) -> Closeness:
    """How close the passages come to a question of the term ``weights``: those found by words
    holding the terms ``held``, those found by meaning (``meant``), the notes it ``named``
    (each with the names it used, case-folded)."""
    share = max((share_held(weights.weights, terms) for terms in held.values()), default=0.0)
    cosine = max((near.cosine for near in meant), default=0.0)
    return Closeness(round(share, 3), round(cosine, 3),
                     [term.strip('"*') for term in weights.unheld],
                     sorted(n for n, names in named.items() if _as_name(question, names)),
                     round(share_held(weights.weights, weights.unheld), 3), weights.passages)


def _as_name(question: str, names: list[str]) -> bool:
    """True when ``question`` writes one of ``names`` as a name: of several words, or with a
    capital (or in a script without case): "Ana", not the "time" of a note named Time.

    >>> _as_name("What time does the ferry leave?", ["time"]), _as_name("Did Ana go?", ["ana"])
    (False, True)
    """
    for name in names:
        if " " in name:
            return True
        for found in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", question, re.IGNORECASE):
            if not found.group()[0].islower():
                return True
    return False
