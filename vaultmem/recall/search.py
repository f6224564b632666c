"""Search: notes ranked by their passages (SQLite FTS5 bm25), fuzzy names, and links around the
strongest hits.

A note's score is its best passage's plus a half of its second's and a quarter of its third's,
those two by their text alone (a title or heading shared by every passage under it counts
once): a note that answers in several places ranks above one that mentions the words once, and a
long note does not win by length alone. Scores are divided by the best one (0..1), a title or alias
close to the whole query adds up to ``FUZZY_WEIGHT``, and notes linked to or from one of the
``STRONG`` best hits add ``GRAPH_WEIGHT`` of that hit's score (the best such link, once).
With ``[semantic]`` set, each passage's score is its keyword score divided by the best, plus
``search_weight`` times its closeness in meaning (:func:`with_meaning`; 0.3: on the synthetic
vault's queries, names, titles and dates, 0.6 and 1.2 lost recall@5, 0.3 gained).
"""

from __future__ import annotations

import datetime as dt
import itertools
import unicodedata
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from ..config import ROOT_FILES
from ..errors import UsageError
from ..index.fts import PassageHit
from ..index.lookup import (
    Facets,
    StoredPassage,
    facets,
    matching_passages,
    names_like,
    neighbours_of_each,
    opening_passages,
)
from ..index.tallies import tallies
from ..model import Json
from ..text import WORD, search_terms
from ..vault import Vault
from .meaning import Near, near_text
from .question_bounds import bounded
from .question_weights import worded_hits
from .token_budget import whole_spans

FUZZY_CUTOFF = 70
FUZZY_WEIGHT = 0.6
GRAPH_WEIGHT = 0.25
STRONG = 5
MAX_GRAPH_REASONS = 2
SNIPPET = 160
BLOCKED_NAMES = 5000  # names compared one by one below this many notes
PASSAGE_SHARES = (1.0, 0.5, 0.25)  # of a note's best, second and third passage scores
CANDIDATES = 300  # passages ranked per query, at least
NEAR_REASON = 0.5  # of its meaning score: a note closer than this is said to be close
PER_HIT = 20  # passages ranked per note asked for, beyond CANDIDATES


@dataclass
class Hit:
    """One search result and why it was chosen."""

    id: str
    path: str
    title: str
    type: str
    score: float
    line: int | None = None
    snippet: str = ""
    reasons: list[str] = field(default_factory=list)
    passages: list[Json] = field(default_factory=list)

    def to_dict(self) -> Json:
        """The ``search --json`` result shape."""
        return asdict(self)


@dataclass
class Filters:
    """Which notes may be returned."""

    type: str | None = None
    tag: str | None = None
    status: str | None = None
    since: str | None = None
    folder: str | None = None

    def __post_init__(self) -> None:
        if self.since:
            try:
                dt.date.fromisoformat(self.since)
            except ValueError:
                raise UsageError(f"since {self.since!r} is not a date; use YYYY-MM-DD") from None

    def allows(self, note_id: str, meta: Facets) -> bool:
        """True when the note passes every filter given."""
        kind, status, date, tags = meta.type, meta.status, meta.date, meta.tags
        tag = (self.tag or "").lstrip("#").casefold()
        return ((not self.type or kind == self.type.casefold())
                and (not tag or any(t == tag or t.startswith(tag + "/") for t in tags))
                and (not self.status or status == self.status.casefold())
                and (not self.since or (bool(date) and date[:10] >= self.since))
                and (not self.folder or note_id.startswith(self.folder.strip("/") + "/")))


def search(vault: Vault, query: str, *, filters: Filters | None = None, limit: int = 10,
           passages: int = 0) -> list[Hit]:
    """The notes that best answer ``query``, best first (ties by id), with reasons; each with
    its best passage as snippet and, with ``passages``, up to that many best passages."""
    filters = filters or Filters()
    bounded(query)
    notes = vault.index.notes  # the index is current first
    _known_type(vault, filters.type)
    near = near_text(vault, query)
    worded = worded_hits(vault.store, query, matching_passages(
        vault.store, query, limit=CANDIDATES + PER_HIT * limit))
    found = by_note(with_meaning(worded, near, vault.config.semantic.search_weight))
    matched = {hit.path[:-3] for hit in worded}
    scores = {note_id: note_score(hits) for note_id, hits in found.items()}
    top = max(scores.values(), default=0.0) or 1.0
    combined = {note_id: score / top for note_id, score in scores.items()}
    names = fuzzy_names(vault, query)
    for note_id, (value, _) in names.items():
        combined[note_id] = combined.get(note_id, 0.0) + FUZZY_WEIGHT * value
    linked: dict[str, list[str]] = defaultdict(list)
    _graph_evidence(vault, combined, linked)
    present = notes.having(combined)  # looked up at once, not one by one
    ranked = [(i, s) for i, s in sorted(combined.items(), key=lambda item: (-item[1], item[0]))
              if i in present]
    allowed = _allowed(vault, ranked, filters, limit)
    closest = {n.passage.note: n.cosine for n in reversed(near) if n.score >= NEAR_REASON}
    openings = opening_passages(vault.store, [i for i, _ in allowed if i not in found])
    hits = []
    for note_id, score in allowed:
        why = [f"name {names[note_id][1]!r} is close to the query"] if note_id in names else []
        why += [_matches(query, found[note_id])] if note_id in matched else []
        why += [f"close in meaning (cosine {closest[note_id]:.2f})"] if note_id in closest else []
        hits.append(_hit(vault, note_id, score, found.get(note_id, []), passages,
                         why + linked[note_id], openings.get(note_id)))
    return hits


def _known_type(vault: Vault, kind: str | None) -> None:
    """Refuse a type no note can have (a filter by it would find nothing, silently): known
    types are vaultmem's own and those the vault's notes have."""
    builtin = {*vault.config.folders, *ROOT_FILES.values(), "daily", "note"}
    if not kind or kind.casefold() in builtin:
        return
    known = builtin | set(tallies(vault.index.store).by_type)
    if kind.casefold() not in known:
        raise UsageError(f"unknown type {kind!r}; use one of {', '.join(sorted(known))}")


def with_meaning(hits: list[PassageHit], near: list[Near], weight: float) -> list[PassageHit]:
    """Keyword hits divided by the best one's score, each plus ``weight`` times its meaning
    score (:mod:`.meaning`), and the passages near in meaning that no keyword found; the hits
    as they are without any ``near``."""
    if not near:
        return hits
    top = max((hit.score for hit in hits), default=0.0) or 1.0
    fused = {(h.path[:-3], h.number): h._replace(score=h.score / top, body=h.body / top)
             for h in hits}
    for found in near:
        p = found.passage
        key = (p.note, p.number)
        hit = fused.get(key) or PassageHit(p.note + ".md", p.number, p.start, p.end, p.block_id,
                                           p.text, p.headings, 0.0, 0.0, p.kind)
        fused[key] = hit._replace(score=hit.score + weight * found.score,
                                  body=hit.body + weight * found.score)
    return list(fused.values())


def by_note(hits: list[PassageHit]) -> dict[str, list[PassageHit]]:
    """Passage hits grouped by note id, each note's in the order to show them: those whose
    text matches, best first, then those matched by title or heading alone, in file order."""
    grouped: dict[str, list[PassageHit]] = defaultdict(list)
    for hit in hits:
        grouped[hit.path[:-3]].append(hit)
    return {note_id: sorted(found, key=lambda h: (0, -h.score, h.number) if h.body > 0
                            else (1, h.number, 0.0))
            for note_id, found in grouped.items()}


def note_score(hits: list[PassageHit]) -> float:
    """A note's score from its passages': see the module docstring."""
    best = max(hits, key=lambda hit: hit.score)
    bodies = sorted((hit.body for hit in hits if hit is not best), reverse=True)
    return best.score + sum(share * body for share, body in zip(PASSAGE_SHARES[1:], bodies,
                                                                strict=False))


def _allowed(vault: Vault, ranked: list[tuple[str, float]], filters: Filters,
             limit: int) -> list[tuple[str, float]]:
    """The first ``limit`` of ``ranked`` that pass the filters (read in growing batches)."""
    if filters == Filters():
        return ranked[:limit]
    kept: list[tuple[str, float]] = []
    batch = max(limit * 4, 50)
    for start in range(0, len(ranked), batch):
        part = ranked[start : start + batch]
        found = facets(vault.store, [note_id for note_id, _ in part])
        kept += [(i, s) for i, s in part if i in found and filters.allows(i, found[i])]
        if len(kept) >= limit:
            break
    return kept[:limit]


def fuzzy_names(vault: Vault, query: str) -> dict[str, tuple[float, str]]:
    """Notes whose title or an alias is close to the whole query: (0..1, the name).

    In a large vault only names sharing a word's first three letters with the query are
    compared (a typo rarely hits the start of every word), so the cost stays flat.
    """
    from rapidfuzz import fuzz, process  # context imports this module and needs no names

    names = {f"{n.note}\x00{n.name}": n.name
             for n in names_like(vault.store, query, every_below=BLOCKED_NAMES)}
    found: dict[str, tuple[float, str]] = {}
    for name, score, key in process.extract(query, names, scorer=fuzz.token_sort_ratio, limit=20,
                                            score_cutoff=FUZZY_CUTOFF, processor=str.casefold):
        note_id = key.split("\x00")[0]
        value = (score - FUZZY_CUTOFF) / (100 - FUZZY_CUTOFF)
        if value > found.get(note_id, (-1.0, ""))[0]:
            found[note_id] = (value, name)
    return found


def _graph_evidence(vault: Vault, combined: dict[str, float],
                    reasons: dict[str, list[str]]) -> None:
    """Notes linked to or from the strongest hits rank up."""
    strong = sorted(combined.items(), key=lambda item: (-item[1], item[0]))[:STRONG]
    boost: dict[str, float] = defaultdict(float)  # the best link to a strong hit counts, once
    strong = [(hit_id, score) for hit_id, score in strong if hit_id in vault.notes]
    neighbours = neighbours_of_each(vault.store, [hit_id for hit_id, _ in strong])
    for hit_id, hit_score in strong:
        title = hit_id.rsplit("/", 1)[-1]
        outgoing, backlinks = neighbours[hit_id]
        for other in sorted(set(backlinks) | set(outgoing)):
            boost[other] = max(boost[other], GRAPH_WEIGHT * hit_score)
            how = "links to" if other in backlinks else "linked from"
            if sum("a strong hit" in r for r in reasons[other]) < MAX_GRAPH_REASONS:
                reasons[other].append(f"{how} [[{title}]], a strong hit")
    for other, value in boost.items():
        combined[other] = combined.get(other, 0.0) + value


def _matches(query: str, hits: list[PassageHit]) -> str:
    """``matches a, b``: the query's words found in the note's matching passages, in any of
    their forms (:func:`_shown`)."""
    seen = {term for hit in hits for term in search_terms(" ".join((hit.text, *hit.headings,
                                                              hit.path[:-3].rsplit("/")[-1])))}
    found = sorted(set().union(*(_shown(word, search_terms(word), seen) for word in WORD.findall(
        unicodedata.normalize("NFKC", query).casefold()))))
    return "matches " + ", ".join(found) if found else "matches the query"


def _shown(word: str, terms: list[str], seen: set[str]) -> set[str]:
    """How a query ``word`` (its search ``terms``) shows among the words a note matches: as
    typed when all its terms are ``seen``, else the pairs of CJK characters seen (else the
    characters).

    >>> sorted(_shown("notes", ["not"], {"not"})), sorted(_shown("データ", ["デ", "ー", "タ",
    ...     "デー", "ータ"], {"ー", "タ", "ータ"}))
    (['notes'], ['ータ'])
    """
    held = [term for term in terms if term in seen]
    if len(held) == len(terms):
        return {word} if held else set()
    return {term for term in held if len(term) > 1} or set(held)


def _hit(vault: Vault, note_id: str, score: float, found: list[PassageHit], shown: int,
         reasons: list[str], opening: StoredPassage | None) -> Hit:
    """A result with its best passage as snippet (:func:`snippet_passage`); a note found by
    its name or links alone, with its ``opening`` passage (what the note is about); and its
    ``shown`` best passages."""
    note = vault.notes[note_id]
    best: PassageHit | StoredPassage | None = snippet_passage(found) or opening
    return Hit(note.id, note.path, note.title, note.type, round(score, 4),
               best.start if best else None, snippet(best.text) if best else "", reasons,
               [_passage(hit) for hit in itertools.islice(found, shown)])


def snippet_passage(found: list[PassageHit]) -> PassageHit | None:
    """The best of a note's matching passages ``found`` that says something (no properties or
    lone heading), its own text matching if one's does; the best of all when none says."""
    saying = [hit for hit in found if hit.kind not in ("properties", "heading")]
    return next((hit for hit in saying if hit.body > 0), saying[0] if saying else
                found[0] if found else None)


def snippet(text: str) -> str:
    """``text`` on one line, cut at a word end outside links and code spans to at most
    ``SNIPPET`` characters (before a first one longer than that, after it when it opens the
    text).

    >>> snippet("we use\\nPaddleOCR")
    'we use PaddleOCR'
    """
    text = " ".join(text.split())
    if len(text) <= SNIPPET:
        return text
    links = whole_spans(text)
    cuts = [at for at in range(SNIPPET - 1, 0, -1)
            if text[at] == " " and not any(start < at < end for start, end in links)]
    if not cuts and links and links[0][0] == 0:
        cuts = [links[0][1]]
    return (text[: cuts[0]] if cuts else text[: SNIPPET - 1]).rstrip() + "…"


def _passage(hit: PassageHit) -> Json:
    """A passage as ``search --json`` shows it."""
    return {"line": hit.start, "end": hit.end, "block_id": hit.block_id,
            "headings": list(hit.headings), "text": hit.text, "score": round(hit.score, 4)}
