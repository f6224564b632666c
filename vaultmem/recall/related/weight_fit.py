"""Choosing the weights of ``related`` that find hidden links: hit@10 of a set of weights over
held links, and coordinate ascent over a grid of weights (pure; no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .evidence import Evidence
from .notes import WEIGHTS, Weights

TOP = 10
WAYS = ("cut", "words")  # a link hidden with its words, or left as its words
GRID = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
# a hidden link is never a link of the note; the day of a fit says nothing of the next
FITTED = tuple(name for name in Weights._fields if name not in ("link_out", "recent"))
ROUNDS = 4


class Held(NamedTuple):
    """A hidden link's target and the evidence of every candidate the note had without it."""

    target: str
    candidates: dict[str, Evidence]


def found_share(held: Sequence[Held], weights: Weights) -> float:
    """The share of ``held`` links whose target ``weights`` rank in the top 10 (a tie shares
    the places it holds).

    >>> e = Evidence()
    >>> held = [Held("a", {"a": e._replace(adamic=1.0), "b": e._replace(text=1.0)})]
    >>> found_share(held, WEIGHTS), found_share(held, Weights(adamic=0.0, text=0.0))
    (1.0, 0.0)
    """
    return _found([_contenders(h) for h in held], weights) / len(held) if held else 0.0


def fit_weights(held: Sequence[Held], *, starts: Sequence[Weights] = (WEIGHTS,)) -> Weights:
    """The weights finding most of ``held`` in the top 10 (:func:`ascended` from the best of
    ``starts``)."""
    rows = [_contenders(h) for h in held]
    return ascended(lambda weights: _found(rows, weights),
                    max(starts, key=lambda w: _found(rows, w)))


def ascended(value_of: Callable[[Weights], float], start: Weights) -> Weights:
    """The weights of highest ``value_of`` found from ``start`` by coordinate ascent: each
    fitted weight in turn set to the grid value that scores most, for ``ROUNDS`` rounds."""
    best, value = start, value_of(start)
    for _ in range(ROUNDS):
        moved = False
        for name in FITTED:
            for choice in GRID:
                trial = best._replace(**{name: choice})
                score = value_of(trial)
                if score > value + 1e-9:
                    best, value, moved = trial, score, True
        if not moved:
            break
    return best


class Contenders(NamedTuple):
    """What fitting scores of one held link: the target's evidence, the candidates it does
    not outdo on every part, and how many it does (by the parts where it outdoes them: such a
    candidate ties with it when all those parts weigh 0, and never ranks above it)."""

    mine: Evidence
    others: list[Evidence]
    outdone: dict[tuple[int, ...], int]


def _contenders(held: Held) -> Contenders | None:
    """The :class:`Contenders` of a held link (None when nothing finds its target)."""
    mine = held.candidates.get(held.target)
    if mine is None or not any(mine):
        return None
    others: list[Evidence] = []
    outdone: dict[tuple[int, ...], int] = {}
    for other, found in held.candidates.items():
        if other == held.target:
            continue
        if any(theirs > ours for theirs, ours in zip(found, mine, strict=True)):
            others.append(found)
        else:
            parts = tuple(i for i, (a, b) in enumerate(zip(found, mine, strict=True)) if a < b)
            outdone[parts] = outdone.get(parts, 0) + 1
    return Contenders(mine, others, outdone)


def _found(rows: Sequence[Contenders | None], weights: Weights) -> float:
    """How many held links ``weights`` find in the top 10 (a tie shares the places it holds)."""
    count = 0.0
    for row in rows:
        if row is None:
            continue
        mine = round(weights.score(row.mine), 9)
        if mine <= 0:
            continue
        scores = [round(weights.score(e), 9) for e in row.others]
        above = sum(s > mine for s in scores)
        tied = 1 + sum(s == mine for s in scores) + sum(
            n for parts, n in row.outdone.items() if not any(weights[i] for i in parts))
        count += max(0, min(tied, TOP - above)) / tied
    return count
