"""The relevance floor: a context's budget is a ceiling, not a target.

When no passage comes close to the question (:mod:`.closeness`: none holds a quarter of its
weight, its words no passage holds weigh more than a tenth of it, it names no note, nothing is
near in meaning), a passage found for it stays only when something other than its words ties
it to the question: it is near in meaning (cosine at least ``MEANING_FLOOR``), names a note the
question names, or speaks of the time the question asks about. The rest are weak matches on
the question's common words ("good", "often", "time") and are left out.

Floors on the words of a close question's passages were tried and rejected: keeping only those
holding half (or 0.3) of what the best passage holds found more answers on the generated chats
(+0.015 and +0.009 at 1,000 tokens) but lost 3 (2) of the 40 questions on the shared real
vaults, and kept weak matches out of 1 more of 140 off-topic questions
(``benchmarks/eval_off_topic.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .scored import Scored

MEANING_FLOOR = 0.5
COPIED = 80  # characters: a paragraph this long found twice is a copy
Key = tuple[str, int]  # a passage: its note id and number


class Floored(NamedTuple):
    """The passages above the floor, best first, and how many were left out under it."""

    kept: list[Scored]
    left_out: int


def above_floor(found: list[Scored], cosines: dict[Key, float], anchored: Iterable[Key], *,
                close: bool) -> Floored:
    """The passages of ``found`` (best first): all of them when the question is ``close``,
    else those near it in meaning (``cosines``) or ``anchored`` to it (a note or time it
    names)."""
    if close:
        return Floored(found, 0)
    pinned = set(anchored)
    kept = [s for s in found if (key := (s.passage.note, s.passage.number)) in pinned
            or cosines.get(key, 0.0) >= MEANING_FLOOR]
    return Floored(kept, len(found) - len(kept))


def distinct(found: list[Scored]) -> list[Scored]:
    """``found`` (best first) without the passages whose text (case and spacing aside) a
    better one already holds: a line said again on another day ("Enjoy!" in a chat log), a
    paragraph copied to another note. A short line of an undated note stays: "- [ ] Write
    tests" in two projects is two tasks."""
    seen: set[str] = set()
    kept: list[Scored] = []
    for scored in found:
        text = " ".join(scored.passage.text.casefold().split())
        if text in seen and (scored.date or len(text) >= COPIED):
            continue
        seen.add(text)
        kept.append(scored)
    return kept
