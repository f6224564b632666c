"""The second hop of a question: the names the best passages hold and the question does not
(``Pixel`` in "Pixel loves the back seat", for "Which breed is the dog that loves Joel's new
car?"), and the passages elsewhere that hold them ("We adopted a beagle, he's called Pixel").

A bridge is a name (a capitalised word inside a sentence, or a word in capitals) that a few
passages hold, besides the one it was found in: a name every other passage holds (the speaker
of a chat log) joins nothing in particular. A passage holding a bridge scores ``HOP_SHARE`` of
the score of the best passage it was found in, times its own bm25 for the name (divided by the
best of them); a passage the question found already keeps its score if that is more.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from ...index.fts import STOPWORDS, PassageHit, candidates
from ...index.lookup import facets
from ...index.store import Store
from ...index.term_counts import passages_holding
from ...text import STAMP
from ..question_weights import held_counts
from .scored import Scored, best_first, expired, stored

if TYPE_CHECKING:
    from ...vault import Vault

HOP_FROM = 8  # best passages whose names may be bridges
BRIDGES = 4  # names followed, at most
HOP_SHARE = 0.5
HELD_SHARE = 0.03  # of the passages: a name more passages hold bridges nothing in particular
HELD_LEAST = 8  # a bridge may be held by this many passages, however small the vault
HOP_HITS = 12  # passages read per bridge
WORD = re.compile(r"\w+")
SENTENCE_END = frozenset(".!?:;\n")
CALENDAR = frozenset(name.casefold() for names in (calendar.day_name, calendar.day_abbr,
                                                   calendar.month_name, calendar.month_abbr)
                     for name in names if name)  # capitalised, but no names of anything


class Hop(NamedTuple):
    """A passage a bridge name leads to, and what it scores."""

    hit: PassageHit
    score: float
    bridge: str


def names_in(text: str) -> list[str]:
    """The names of a text: capitalised words inside a sentence, and words in capitals, on
    lines written mostly in lower case (a title-case heading or link list capitalises words
    that name nothing).

    >>> names_in("Picked up a Renault on Monday, and Pixel loves it. Then OCR failed")
    ['Renault', 'Pixel', 'OCR']
    >>> names_in("Maps of Content")
    []
    """
    found: list[str] = []
    for line in text.splitlines():
        if STAMP.fullmatch(line.strip()):  # who wrote the entry, not what it is about
            continue
        words = list(WORD.finditer(line))
        if 2 * sum(w.group()[0].isupper() for w in words) > len(words):
            continue
        found += [w.group() for w in words if _is_name(w.group(), line[: w.start()])]
    return list(dict.fromkeys(found))


def _is_name(word: str, before: str) -> bool:
    """True when ``word``, after the text ``before`` it on its line, reads as a name."""
    folded, before = word.casefold(), before.rstrip(" \t\"'([*_")
    if len(word) < 3 or not word[0].isupper() or folded in STOPWORDS or \
            folded in CALENDAR or folded.removesuffix("s") in CALENDAR:
        return False
    return word.isupper() or (bool(before) and before[-1] not in SENTENCE_END)


def bridge_names(store: Store, best: Iterable[tuple[str, float]], asked: str,
                 known: dict[str, int] | None = None) -> dict[str, float]:
    """The bridge names of the passages ``best`` (their texts and scores, best first) that the
    question ``asked`` lacks, with the score of the best passage holding each."""
    asked_words = {word.casefold() for word in WORD.findall(asked)}
    found: dict[str, float] = {}
    for text, score in best:
        for name in names_in(text):
            if name.casefold() not in asked_words:
                found.setdefault(name.casefold(), score)
    total, counts = passages_holding(store, [f'"{name}"' for name in found], known)
    most = max(HELD_LEAST, int(HELD_SHARE * total))
    held = {name: counts[f'"{name}"'] for name in found}
    kept = {name: score for name, score in found.items() if 2 <= held[name] <= most}
    return dict(sorted(kept.items(), key=lambda pair: (-pair[1], held[pair[0]], pair[0]))
                [:BRIDGES])


def hops(store: Store, names: dict[str, float]) -> list[Hop]:
    """The passages holding each bridge of ``names`` (with its source passage's score), and
    what each scores."""
    found: list[Hop] = []
    with store.held() as db:
        for name, source in names.items():
            hits = candidates(db, name, limit=HOP_HITS)
            best = max((hit.body for hit in hits), default=0.0) or 1.0
            found += [Hop(hit, HOP_SHARE * source * hit.body / best, name)
                      for hit in hits]
    return found


def with_hops(vault: Vault, question: str, scored: list[Scored], *, today: dt.date,
              leave_out: frozenset[str]) -> list[Scored]:
    """``scored`` with the passages the ``HOP_FROM`` best ones' bridge names lead to: added,
    or raised to what the hop scores (one hop per passage, the best); notes among
    ``leave_out`` and expired ones give none."""
    best = sorted(scored, key=best_first)[:HOP_FROM]
    names = bridge_names(vault.store, [(s.passage.text, s.score) for s in best], question,
                         held_counts(vault))
    found = [hop for hop in hops(vault.store, names) if hop.hit.path[:-3] not in leave_out]
    by_key = {(s.passage.note, s.passage.number): s for s in scored}
    done = {(s.passage.note, s.passage.number) for s in best}
    notes = facets(vault.store, {hop.hit.path[:-3] for hop in found})
    for hop in sorted(found, key=lambda h: (-h.score, h.hit.path, h.hit.number)):
        key = (hop.hit.path[:-3], hop.hit.number)
        if key in done or key[0] not in notes or expired(notes[key[0]], today):
            continue
        done.add(key)
        old = by_key.get(key) or Scored(stored(hop.hit), 0.0, notes[key[0]].date)
        if hop.score > old.score:
            reason = f"second hop through {hop.bridge}: {hop.score:.2f}"
            by_key[key] = old._replace(score=hop.score, reasons=(reason,))
    return list(by_key.values())
