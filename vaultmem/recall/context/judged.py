"""Which passages found for a question a context shows whole, and which it only points to.

A context's budget is a ceiling, not a target. A passage is shown whole when it is among the
``SHOWN_PER_TOKEN`` x budget best (8 at 1,000 tokens, 3 at least) and scores at least
``KEEP_SHARE`` of the best one's or is in or names a note the question names. Chosen on the 64
questions of ``benchmarks/queries/context_corpora.json`` and ``precision_corpora.json``
(labelled passages: precision 0.16 -> 0.31) and measured on 144 questions written apart from
them (``docs/evaluation.md``, with what it costs: an answer spread over many passages is found
less). ``fill`` shows every passage found, as far as the budget goes, for an agent that wants
breadth over precision, and so does a question whose best passages are mostly of daily notes (a
journal, a chat's sessions), where one answer is spread over the entries of many days. Of the
passages left out, the notes not shown are pointed to, ``POINTERS`` at most, one line each with
what they hold of the question, for an agent to open with ``show``.
"""

from __future__ import annotations

from typing import NamedTuple

from .answer_passages import LABEL_REASON, NAMES
from .candidates import ContextItem
from .scored import Scored

KEEP_SHARE = 0.5
SHOWN_PER_TOKEN = 1 / 125
FEWEST_SHOWN = 3
POINTERS = 5
DAILY_SHARE = 0.5  # of the best passages, from daily notes: a log, shown as far as it goes
POINTER_SHARE = 0.25  # of the best passage's score: a note holding less is not pointed to
POINTER_GROUP = "Also near the question (not shown: open with `vaultmem show`)"
POINTER_SCORE = 0.01  # after every passage shown


class Judged(NamedTuple):
    """The passages shown whole, best first, and those left out, best first."""

    shown: list[Scored]
    left_out: list[Scored]


def judged(found: list[Scored], budget: int, *, fill: bool = False,
           days: frozenset[str] = frozenset()) -> Judged:
    """``found`` (best first) split into the passages shown whole and those left out (none
    with ``fill``, or when most of the best are of daily notes, ``days``: see :func:`_a_log`).

    >>> from vaultmem.index.lookup import StoredPassage
    >>> def s(score): return Scored(StoredPassage("n", 0, "paragraph", "[]", 1, 1, None, ""),
    ...                             score, "")
    >>> [len(part) for part in judged([s(1.0), s(0.6), s(0.4)], 1000)]
    [2, 1]
    """
    most = max(FEWEST_SHOWN, int(budget * SHOWN_PER_TOKEN))
    if fill or _a_log(found[:most], days):
        return Judged(found, [])
    best = found[0].score if found else 0.0
    keep = [rank < most and (s.score >= KEEP_SHARE * best or _names_asked(s))
            for rank, s in enumerate(found)]
    return Judged([s for s, kept in zip(found, keep, strict=True) if kept],
                  [s for s, kept in zip(found, keep, strict=True) if not kept])


def _names_asked(scored: Scored) -> bool:
    """True when the passage is in or names a note the question names (a person asked
    about): what it says of them is asked, however few of the question's words it holds."""
    return any(reason.startswith(NAMES) and reason != LABEL_REASON for reason in scored.reasons)


def _a_log(best: list[Scored], days: frozenset[str]) -> bool:
    """True when most of the best passages are of daily notes (``days``: a journal, a chat's
    sessions): there an answer is spread over entries of many days, each holding a part."""
    return len(best) > 0 and sum(s.passage.note in days for s in best) > DAILY_SHARE * len(best)


def pointer_items(left_out: list[Scored], shown: list[Scored]) -> list[ContextItem]:
    """A line for each note of ``left_out`` none of ``shown`` is from, scoring at least
    ``POINTER_SHARE`` of the best (``POINTERS`` at most, best first): the note, what it holds
    of the question, the line to open it at."""
    seen = {s.passage.note for s in shown}
    floor = POINTER_SHARE * (shown[0].score if shown else 0.0)
    items: list[ContextItem] = []
    for scored in left_out:
        note = scored.passage.note
        if note in seen or len(items) >= POINTERS or scored.score < floor:
            continue
        seen.add(note)
        items.append(ContextItem(note, "relevant", f"[[{note}]]: {why(scored)}",
                                 f"line {scored.passage.start}",
                                 POINTER_SCORE * (POINTERS - len(items)),
                                 [scored.passage.start],
                                 group=POINTER_GROUP, kind="pointer",
                                 reasons=list(scored.reasons)))
    return items


def why(scored: Scored) -> str:
    """A few words on what a passage holds of the question, from its reasons.

    >>> from vaultmem.index.lookup import StoredPassage
    >>> p = StoredPassage("n", 0, "paragraph", "[]", 1, 1, None, "")
    >>> why(Scored(p, 1.0, "", ("words motor Kraken +0.53", "after a match +0.10")))
    'holds motor, Kraken'
    >>> why(Scored(p, 1.0, "", ("meaning +0.41",)))
    'near in meaning'
    """
    for reason in scored.reasons:
        if reason.startswith("words "):
            return "holds " + ", ".join(reason[6:].rsplit(" ", 1)[0].split())
        if reason.startswith("meaning "):
            return "near in meaning"
    return "follows a passage that matches"
