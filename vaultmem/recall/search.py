"""Hybrid search: BM25 over weighted fields, fuzzy names, and links around the strongest hits."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from rapidfuzz import fuzz, process

from ..errors import UsageError
from ..index.doc import Meta, link_term, read_meta
from ..index.inverted import WORD, Posting, SearchIndex, Summary
from ..model import Json
from ..read.fences import split
from ..read.record import search_doc_of
from ..text import tokens
from ..vault import Vault

K1, B = 1.2, 0.75
FUZZY_CUTOFF = 70
FUZZY_WEIGHT = 0.6
GRAPH_WEIGHT = 0.25
STRONG = 5
MAX_GRAPH_REASONS = 2
SNIPPET = 160
SMALL_VAULT = 1000
BLOCKED_NAMES = 5000  # names compared one by one below this
MOST_POSTINGS = 2000  # per term; beyond it a term's idf is low and its rest is noise
SIMILAR_POSTINGS = 200  # per term of a similarity query: its 30 best come from the top


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

    def allows(self, note_id: str, meta: Summary | Meta) -> bool:
        """True when the note passes every filter given."""
        kind, status, date, tags = meta.type, meta.status, meta.date, meta.tags
        tag = (self.tag or "").lstrip("#").casefold()
        return ((not self.type or kind == self.type.casefold())
                and (not tag or any(t == tag or t.startswith(tag + "/") for t in tags))
                and (not self.status or status == self.status.casefold())
                and (not self.since or (bool(date) and date[:10] >= self.since))
                and (not self.folder or note_id.startswith(self.folder.strip("/") + "/")))


def bm25(index: SearchIndex, terms: list[str], *, most: int = MOST_POSTINGS,
         ) -> tuple[dict[str, float], dict[str, list[str]], dict[str, Summary]]:
    """BM25 score, matched terms and metadata of the notes holding a query term (of a term in
    more than ``most`` notes, the ``most`` where it counts most: its share of any score is
    small)."""
    scores: dict[str, float] = defaultdict(float)
    matched: dict[str, list[str]] = defaultdict(list)
    metas: dict[str, Summary] = {}
    for term in dict.fromkeys(terms):
        postings: list[Posting] = index.postings(term, most=most)
        idf = index.idf(index.frequency(term))
        for post in postings:
            norm = K1 * (1 - B + B * post.length / index.average)
            scores[post.id] += idf * post.count * (K1 + 1) / (post.count + norm)
            matched[post.id].append(term)
            metas[post.id] = post.meta
    return scores, matched, metas


def fuzzy_names(index: SearchIndex, query: str) -> dict[str, tuple[float, str]]:
    """Notes whose title or an alias is close to the whole query: (0..1, the name).

    In a large vault only names sharing a word's first three letters with the query are
    compared (a typo rarely hits the start of every word), so the cost stays flat.
    """
    names = index.names
    if len(names) > BLOCKED_NAMES:
        keys = {key for word in WORD.findall(query.casefold())
                for key in index.name_blocks.get(word[:3], ())}
        names = {key: names[key] for key in keys}
    found: dict[str, tuple[float, str]] = {}
    for name, score, key in process.extract(query, names, scorer=fuzz.token_sort_ratio, limit=20,
                                            score_cutoff=FUZZY_CUTOFF, processor=str.casefold):
        note_id = key.split("\x00")[0]
        value = (score - FUZZY_CUTOFF) / (100 - FUZZY_CUTOFF)
        if value > found.get(note_id, (-1.0, ""))[0]:
            found[note_id] = (value, name)
    return found


def search(vault: Vault, query: str, *, filters: Filters | None = None, limit: int = 10,
           snippets: bool = True) -> list[Hit]:
    """The notes that best answer ``query``, best first (ties by id), with reasons.

    ``snippets=False`` leaves ``line`` and ``snippet`` empty (for callers that pick their own).
    """
    filters = filters or Filters()
    index = vault.search_index
    terms = tokens(query)
    scores, matched, metas = bm25(index, terms)
    top = max(scores.values(), default=0.0) or 1.0
    combined = {note_id: score / top for note_id, score in scores.items()}
    names = fuzzy_names(index, query)
    for note_id, (value, _) in names.items():
        combined[note_id] = combined.get(note_id, 0.0) + FUZZY_WEIGHT * value
    linked: dict[str, list[str]] = defaultdict(list)
    _graph_evidence(vault, index, combined, linked)
    ranked = sorted(combined.items(), key=lambda item: (-item[1], item[0]))
    allowed = ((i, s) for i, s in ranked if i in vault.notes and
               filters.allows(i, metas.get(i) or _meta(vault, i)))
    hits = []
    for note_id, score in itertools.islice(allowed, limit):
        why = [f"name {names[note_id][1]!r} is close to the query"] if note_id in names else []
        if note_id in matched:
            why.append("matches " + ", ".join(sorted(set(matched[note_id]))))
        hits.append(_hit(vault, note_id, score, terms if snippets else [], why + linked[note_id]))
    return hits


def _meta(vault: Vault, note_id: str) -> Meta:
    """Metadata of a note found only through links."""
    return read_meta(vault.index.notes.entry(note_id))


def _graph_evidence(vault: Vault, index: SearchIndex, combined: dict[str, float],
                    reasons: dict[str, list[str]]) -> None:
    """Notes linked to or from the strongest hits rank up."""
    strong = sorted(combined.items(), key=lambda item: (-item[1], item[0]))[:STRONG]
    boost: dict[str, float] = defaultdict(float)  # the best link to a strong hit counts, once
    for hit_id, hit_score in strong:
        if hit_id not in vault.notes:
            continue
        title = hit_id.rsplit("/", 1)[-1]
        backlinks = {p.id for p in index.postings(link_term(title))} - {hit_id}
        outgoing = {link.resolved for link in vault.notes[hit_id].links
                    if link.resolved is not None and link.resolved in vault.notes
                    and link.resolved != hit_id}
        for other in sorted(backlinks | outgoing):
            boost[other] = max(boost[other], GRAPH_WEIGHT * hit_score)
            how = "links to" if other in backlinks else "linked from"
            if sum("a strong hit" in r for r in reasons[other]) < MAX_GRAPH_REASONS:
                reasons[other].append(f"{how} [[{title}]], a strong hit")
    for other, value in boost.items():
        combined[other] = combined.get(other, 0.0) + value


def _hit(vault: Vault, note_id: str, score: float, terms: list[str],
         reasons: list[str]) -> Hit:
    """A result with its best matching line and a snippet of it."""
    note = vault.notes[note_id]
    doc = search_doc_of(vault.index.notes.entry(note_id))
    body, body_line = doc.text, doc.start
    line, snippet = best_line(body, terms)
    return Hit(note.id, note.path, note.title, note.type, round(score, 4),
               body_line + line if line else None, snippet, reasons)


def best_line(body: str, terms: list[str]) -> tuple[int, str]:
    """(1-based line within ``body``, snippet) of the line holding most query terms.

    Lines below the frontmatter win ties and are tried first: ``date: 2026-03-14`` is a
    poor answer to "which launch date did we agree on?".

    >>> best_line("intro\\nwe use PaddleOCR for receipts\\nend", ["paddleocr", "receipt"])
    (2, 'we use PaddleOCR for receipts')
    """
    found = best_lines(body, terms, 1)
    if not found:
        return 0, ""
    text = body.splitlines()[found[0] - 1].strip()
    return found[0], text if len(text) <= SNIPPET else text[: SNIPPET - 1].rsplit(" ", 1)[0] + "…"


def best_lines(text: str, terms: list[str], count: int, *, body_only: bool = False) -> list[int]:
    """The ``count`` lines (1-based) holding most query terms, body lines before properties
    (``body_only``: body lines only)."""
    wanted = set(terms)
    lines = text.splitlines()
    start = split(text)[1] if text.startswith("---") else 0
    scored = []
    for number, line in enumerate(lines, start=1):
        if body_only and number <= start:
            continue
        hits = len(wanted & set(tokens(line))) if wanted else 0
        if hits:
            scored.append((-hits - (0.5 if number > start else 0), number))
    return [number for _, number in sorted(scored)[:count]]


def similar(vault: Vault, text: str, *, exclude: str = "", limit: int = 30,
            terms: int = 12) -> dict[str, float]:
    """Notes whose words are like ``text``'s (0..1): BM25 with its most telling terms.

    The query is the ``terms`` words of ``text`` with the highest tf x idf (in vaults of a
    thousand notes or more, words in over a tenth of them are left out, which keeps it fast),
    so a long note becomes a short, distinctive query.
    """
    index = vault.search_index
    counts = Counter(tokens(text))
    frequent = index.count // 10 if index.count >= SMALL_VAULT else index.count
    weighted = sorted(((count * index.idf(df), term) for term, count in counts.items()
                       if 0 < (df := index.frequency(term)) <= frequent), reverse=True)[:terms]
    scores, _, _ = bm25(index, [term for _, term in weighted], most=SIMILAR_POSTINGS)
    scores.pop(exclude, None)
    top = max(scores.values(), default=0.0) or 1.0
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return {note_id: score / top for note_id, score in best}
