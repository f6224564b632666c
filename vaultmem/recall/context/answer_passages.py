"""The passages that answer a question, ranked across the whole vault for an agent's context.

A passage's score, before it is scaled to the context's item scores:

- its own score, 0..1 (:mod:`.own_scores`: its bm25, its meaning, feedback if set);
- plus ``BORROW`` of the score of the passage just before it in the same note, and ``BORROW``
  squared of the one before that: a reply ranks with its question, though it shares no word with
  it (the ``FOLLOWERS`` passages after a match are candidates for that reason alone);
- plus ``NOTE_SHARE`` of its note's rank (:func:`~vaultmem.recall.search.note_score`, divided by
  the best): passages of a note that answers in several places rank up;
- plus ``ENTITY`` when the question names a note (a person, a project: its title or an alias,
  whole words) and the passage is in that note or names it, times the share of the candidate
  passages that do not name it (a speaker named on every turn of a chat log lifts nothing);
- plus ``IN_PERIOD`` when the question names a time (a date, a month, "last week" read from
  ``today``) and the passage speaks of a day in it: its note's date, moved by "yesterday" and
  the like in its own text (see :mod:`.periods`);
- plus ``IMPORTANCE`` times (importance - 0.5), for a note whose ``importance`` property is a
  number (0..1, or 1..10 read as tenths);
- times ``LABEL_SHARE`` for a passage that only names what is elsewhere (a heading with nothing
  under it, a line of a few bold words, a line of links: :func:`~.labels.is_label`): the
  passages after it still borrow its whole score,
  and it ranks below them, taking budget only once better passages are in;
- then times a decay with its note's age, the ``age_weight`` setting at most (0.1), halving
  every ``age_half_life_days`` (180); neutral when the question names a time or the note has
  no date. Age counts from the newest date of any note, or ``today`` if that is earlier: a
  vault nobody wrote in for a year ranks the same as on its last day.

Then, unless no passage comes close to the question (:mod:`.closeness`), the passages that the
names of the best ones lead to are added, or raised to what that second hop scores
(:mod:`.second_hop`). Notes whose ``expires`` (or ``valid_until``) day has passed give no
passages.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import NamedTuple

from ...index.fts import PassageHit
from ...index.lookup import (
    Facets,
    StoredPassage,
    facets,
    facts_where,
    link_raws,
    matching_passages,
    newest_date,
    passages_near,
)
from ...index.term_counts import terms_held, terms_in_each
from ...vault import Vault
from ..meaning import Near, near_text
from ..question_weights import held_counts, term_weights, whole_words
from ..search import by_note, note_score
from .bare_labels import is_label, what_properties_say
from .closeness import Closeness, closeness
from .named_notes import mentions, named_in, spaced_words
from .own_scores import CANDIDATES, OwnScores, own_scores
from .periods import Period, parse_day, query_periods, spoken_days
from .relevance_floor import above_floor, distinct
from .scored import Scored, best_first, expired, stored
from .second_hop import with_hops

BORROW = 0.5
FOLLOWERS = 2
FOLLOW_FROM = 0.25  # a match this strong (0..1) makes the passages after it candidates
NOTE_SHARE = 0.3
ENTITY = 0.15
IN_PERIOD = 0.5
IMPORTANCE = 0.2
LABEL_SHARE = 0.3  # of its score, for a passage that only names what is elsewhere (is_label)
LABEL_REASON = f"names what is elsewhere x{LABEL_SHARE}"
FILING_REASON = f"the question's words only name or file its note x{LABEL_SHARE}"
# the parts of a score (_Weights.parts)
OWN, AFTER, NOTE, NAMES = "own", "after a match", "its note matches", "names "
PERIOD, IMPORTANT, AGE = "in the time asked", "importance", "age"


class Answer(NamedTuple):
    """The passages that answer a question, how close the closest came, and how many it
    found were left out under the relevance floor (:mod:`.relevance_floor`)."""

    passages: list[Scored]
    closest: Closeness
    left_out: int = 0
    weights: dict[str, float] = {}  # noqa: RUF012 (never changed) each search term's weight


def relevant_passages(vault: Vault, question: str, *, today: dt.date,
                      leave_out: frozenset[str] = frozenset(),
                      most: int | None = None) -> list[Scored]:
    """The passages that answer ``question`` (the ``most`` best, when given), best first (ties
    in note and file order); notes among ``leave_out`` give none."""
    return answer(vault, question, today=today, leave_out=leave_out, most=most).passages


def answer(vault: Vault, question: str, *, today: dt.date,
           leave_out: frozenset[str] = frozenset(), most: int | None = None) -> Answer:
    """:func:`relevant_passages` with how close the vault came (:mod:`.closeness`)."""
    _ = vault.notes  # the index is current first
    hits = [h for h in matching_passages(vault.store, question, limit=CANDIDATES)
            if h.path[:-3] not in leave_out]
    meant = [n for n in near_text(vault, question) if n.passage.note not in leave_out]
    named = named_in(vault, question)
    weights = term_weights(vault.store, question, held_counts(vault))
    hits, held = whole_words(question, hits, terms_held(
        vault.store, weights.weights, [(h.path[:-3], h.number) for h in hits]))
    closest = closeness(question, weights, held, meant, named)
    if not hits and not meant:
        return Answer([], closest)
    own = own_scores(vault, question, hits, meant, leave_out)
    near = _with_followers(vault, hits, meant, own.total)
    ids = {p.note for p in near}
    notes = facets(vault.store, ids)
    weigh = _Weights(vault, question, today, notes, _note_ranks(hits), near, named)
    scored = [Scored(p, weigh(p, own.total), notes[p.note].date) for p in near
              if p.note in notes and not expired(notes[p.note], today)]
    scored = [s for s in scored if s.score > 0]
    if closest.close:  # names in passages far from the question lead further away
        scored = with_hops(vault, question, scored, today=today, leave_out=leave_out)
    anchored = set() if closest.close else {  # the floor keeps all of a close question's
        (s.passage.note, s.passage.number) for s in scored
        if weigh.anchored(s.passage, own.total, set(closest.named))}
    says = functools.partial(_says_asked, held=held, subjects=set(closest.named))
    floored = above_floor(distinct(_best(vault, scored, 2 * most if most else None,
                                         says))[:most],
                          {(n.passage.note, n.passage.number): n.cosine for n in meant}, anchored,
                          close=closest.close)
    return Answer([_explained(s, weigh, own, held) for s in floored.kept], closest,
                  floored.left_out, weights.weights)


def _explained(found: Scored, weigh: _Weights, own: OwnScores,
               held: dict[tuple[str, int], set[str]]) -> Scored:
    """``found`` with why it scores what it does: the parts of its score, the question's
    words it holds, then what :func:`with_hops` and :func:`_best` said of it."""
    key = (found.passage.note, found.passage.number)
    summed: dict[str, float] = {}
    for name, value in weigh.parts(found.passage, own.total) if key in weigh.near else []:
        summed[name] = value if name == AGE else summed.get(name, 0.0) + value
    reasons: list[str] = []
    for name, value in summed.items():
        if name == OWN:
            words = " ".join(sorted(term.strip('"*') for term in held.get(key, ())))
            meaning = own.meaning.get(key, 0.0)
            reasons += [f"words {words} +{value - meaning:.2f}"] if value - meaning > 0 else []
            reasons += [f"meaning +{meaning:.2f}"] if meaning else []
        elif name == AGE:
            reasons += [f"age x{value:.2f}"] if value < 0.995 else []
        elif value:
            reasons.append(f"{name} {value:+.2f}")
    return found._replace(reasons=(*reasons, *found.reasons), held=frozenset(held.get(key, ())))


def _with_followers(vault: Vault, hits: list[PassageHit], meant: list[Near],
                    base: dict[tuple[str, int], float]) -> list[StoredPassage]:
    """The passages found and the ``FOLLOWERS`` after each strong one, by note path and number
    (only the followers are read again: a hit holds its passage)."""
    found = {(h.path[:-3], h.number): stored(h) for h in hits}
    found.update({(n.passage.note, n.passage.number): n.passage for n in meant})
    after = {(note, number + step) for (note, number), value in base.items()
             if value >= FOLLOW_FROM for step in range(1, FOLLOWERS + 1)} - found.keys()
    found.update({(p.note, p.number): p for p in passages_near(vault.store, after, before=0,
                                                                after=0)})
    return sorted(found.values(), key=lambda p: (p.note + ".md", p.number))


def _best(vault: Vault, scored: list[Scored], most: int | None,
          says_asked: Callable[[list[StoredPassage]], list[bool]]) -> list[Scored]:
    """``scored`` best first (the ``most`` best, when given) once each label keeps
    ``LABEL_SHARE`` of its score (a properties passage is one unless ``says_asked``). A label
    only loses score, so only the passages that can still be among the ``most`` best are
    looked at (their links read from the index in batches)."""
    waiting = sorted(scored, key=best_first)
    done: list[Scored] = []
    while waiting:
        if most is not None and len(done) >= most:
            done.sort(key=best_first)
            if best_first(done[most - 1]) < best_first(waiting[0]):  # none waiting can pass it
                break
        batch, waiting = waiting[: most or len(waiting)], waiting[most or len(waiting):]
        links = link_raws(vault.store, [(s.passage.note, s.passage.start, s.passage.end)
                                        for s in batch])
        said = says_asked([s.passage for s in batch])
        done += [s._replace(score=s.score * LABEL_SHARE, reasons=(
                     *s.reasons, FILING_REASON if s.passage.kind == "properties" else LABEL_REASON))
                 if is_label(s.passage, links.get((s.passage.note, s.passage.start,
                                                   s.passage.end), []),
                             says_asked=says) else s for s, says in zip(batch, said, strict=True)]
    return sorted(done, key=best_first)[:most]


def _says_asked(passages: list[StoredPassage], *, held: dict[tuple[str, int], set[str]],
                subjects: set[str]) -> list[bool]:
    """For each passage, True unless it is the properties of a note other than the
    ``subjects`` the question names, holding the question's words only where they name or
    file the note (:func:`~.labels.what_properties_say`)."""
    asked = [p.kind == "properties" and p.note not in subjects for p in passages]
    said = iter(terms_in_each(
        [what_properties_say(p.text) for p, ask in zip(passages, asked, strict=True) if ask],
        [held.get((p.note, p.number), set()) for p, ask in zip(passages, asked, strict=True)
         if ask]))
    return [bool(next(said)) if ask else True for ask in asked]


class _Weights:
    """What scores a passage beyond its own bm25: see the module docstring."""

    def __init__(self, vault: Vault, question: str, today: dt.date, notes: dict[str, Facets],
                 ranks: dict[str, float], near: list[StoredPassage],
                 entities: dict[str, list[str]]) -> None:
        self.newest = min(today, parse_day(newest_date(vault.store)) or today)
        self.age_weight = vault.config.age_weight
        self.half_life = vault.config.age_half_life_days
        self.notes = notes
        self.ranks = ranks
        self.periods = query_periods(question, today)
        self.entities = entities
        self.near = {(p.note, p.number) for p in near}
        self.folded = {(p.note, p.number): spaced_words(p.text) for p in near} \
            if self.entities else {}
        self.named_share = {entity: sum(mentions(folded, names)
                                        for folded in self.folded.values()) / len(near)
                            for entity, names in self.entities.items()}
        self.importance = _importance(vault, notes)

    def __call__(self, passage: StoredPassage, base: dict[tuple[str, int], float]) -> float:
        """The passage's score (a label's share is taken later, by :func:`_best`)."""
        parts = self.parts(passage, base)
        score = 0.0
        for name, value in parts:
            score = score * value if name == AGE else score + value
        return score

    def named_by(self, passage: StoredPassage) -> list[str]:
        """The notes the question names that the passage is in or names."""
        return [entity for entity, names in self.entities.items() if passage.note == entity
                or mentions(self.folded[passage.note, passage.number], names)]

    def anchored(self, passage: StoredPassage, base: dict[tuple[str, int], float],
                 named: set[str]) -> bool:
        """True when the passage scores for the time the question asks about, or is in or
        names a note of ``named`` (those the question names as a name, not a word titling a
        note) that not every candidate names (a speaker on every turn anchors nothing)."""
        parts = self.parts(passage, base)
        if not parts:
            return False
        return any(name == PERIOD and value > 0 for name, value in parts) or any(
            self.named_share[entity] < 1 for entity in self.named_by(passage)
            if entity in named)

    def parts(self, passage: StoredPassage,
              base: dict[tuple[str, int], float]) -> list[tuple[str, float]]:
        """What the passage's score is made of, in the order it is summed: its own score, what
        it borrows, its note's rank, the entities it names, the time asked, its importance;
        then the factor of its age (``AGE``). None when it neither matches nor follows one."""
        note, number = passage.note, passage.number
        parts = [(OWN, base.get((note, number), 0.0)),
                 (AFTER, BORROW * base.get((note, number - 1), 0.0)),
                 (AFTER, BORROW**2 * base.get((note, number - 2), 0.0))]
        if not sum(value for _, value in parts):
            return []
        parts.append((NOTE, NOTE_SHARE * self.ranks.get(note, 0.0)))
        named = self.named_by(passage)
        parts.append((NAMES + ", ".join(named),
                      sum(ENTITY * (1 - self.named_share[entity]) for entity in named)))
        day = parse_day(self.notes[note].date)
        if self.periods and day is not None:
            parts.append((PERIOD, IN_PERIOD * _in_period(passage.text, day, self.periods)))
        if note in self.importance:
            parts.append((IMPORTANT, IMPORTANCE * (self.importance[note] - 0.5)))
        if not self.periods and day is not None:
            age = max(0, (self.newest - day).days)
            parts.append((AGE, 1 - self.age_weight + self.age_weight
                          * 0.5 ** (age / self.half_life)))
        return parts


def _in_period(text: str, day: dt.date, periods: list[Period]) -> bool:
    """True when a text written on ``day`` speaks of a day in one of ``periods``."""
    return any(period.holds(spoken) for spoken in spoken_days(text, day) for period in periods)


def _note_ranks(hits: list[PassageHit]) -> dict[str, float]:
    """Each note's rank from its matching passages, divided by the best (0..1)."""
    scores = {note_id: note_score(found) for note_id, found in by_note(hits).items()}
    top = max(scores.values(), default=0.0) or 1.0
    return {note_id: score / top for note_id, score in scores.items()}


def _importance(vault: Vault, notes: dict[str, Facets]) -> dict[str, float]:
    """The ``importance`` (0..1) of the notes that state one as a number."""
    found: dict[str, float] = {}
    for note_id, stated in facts_where(vault.store, notes, "attribute = 'importance'").items():
        for fact in stated:  # the last number stated wins
            if isinstance(fact.value, int | float) and not isinstance(fact.value, bool):
                value = float(fact.value)
                found[note_id] = min(1.0, max(0.0, value / 10 if value > 1 else value))
    return found
