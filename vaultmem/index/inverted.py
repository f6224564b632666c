"""The search index: per cache shard, postings of every term, kept beside the parse cache.

A shard is rebuilt only when one of its notes changes, and loading all of them is one
``marshal.loads`` per shard, so a search never has to decode every note. The facts and history
of each note live in separate shards, loaded only by what needs them (conflicts, context).
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import math
import re
import zlib
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..read.extract import RawFact
from ..read.record import GENERATED, Entry, search_doc_of
from .doc import Meta
from .store import Store

SHARDS = 16
Fetch = Callable[[list[str]], Mapping[str, Entry]]

WORD = re.compile(r"\w+")
BRIEF = {"rationale", "topic", "value", "target", "unit", "role", "org", "timezone"}


class Summary(NamedTuple):
    """What search filters and the context's decisions, KPIs and people need of a note,
    without its full facts and history."""

    type: str
    status: str
    date: str
    tags: list[str]
    aliases: list[str]
    brief: list[RawFact]  # the facts with a BRIEF attribute, and relations

    @classmethod
    def load(cls, stored: Sequence[Any]) -> Summary:
        """The summary from its stored plain tuple, facts as :class:`RawFact` too."""
        kind, status, date, tags, aliases, brief = stored
        return cls(kind, status, date, tags, aliases, [RawFact._make(f) for f in brief])


class Shard(NamedTuple):
    """One shard of the search index: its notes' ids, lengths and summaries, and the postings
    of each term (stored as plain tuples: ``Shard.load``)."""

    ids: list[str]
    lengths: list[int]
    summaries: list[Summary]
    postings: dict[str, bytes]  # term -> (note number, count) pairs, see _by_impact

    @classmethod
    def load(cls, stored: Sequence[Any]) -> Shard:
        """The shard from its stored plain tuple."""
        ids, lengths, summaries, postings = stored
        return cls(ids, lengths, [Summary.load(s) for s in summaries], postings)


# As the index stores them (marshal refuses tuple subclasses, so plain tuples all through):
# a shard, and per note of a shard its (id, summary, facts, history), all conflicts and the
# context need
StoredShard = tuple[list[str], list[int], list[tuple[Any, ...]], dict[str, bytes]]
Facts = list[tuple[str, tuple[Any, ...], list[tuple[Any, ...]], list[tuple[str, str]]]]


def build_shard(entries: Mapping[str, Entry]) -> tuple[StoredShard, Facts]:
    """The shard of ``entries`` (vault path -> cache entry), as stored; generated notes are
    left out."""
    ids: list[str] = []
    lengths: list[int] = []
    summaries: list[tuple[Any, ...]] = []
    facts: Facts = []
    postings: dict[str, list[int]] = defaultdict(list)
    for path in sorted(entries):
        if entries[path].flags & GENERATED:
            continue
        terms, length, _, _, stored = search_doc_of(entries[path])
        meta = Meta.load(stored)
        number = len(ids)
        ids.append(path[:-3])
        lengths.append(length)
        brief = [tuple(f) for f in meta.facts if f.attribute in BRIEF or f.kind == "relation"]
        summaries.append((meta.type, meta.status, meta.date, meta.tags, meta.aliases, brief))
        facts.append((path[:-3], summaries[-1], [tuple(f) for f in meta.facts], meta.history))
        for term, count in terms.items():
            postings[term] += (number, count)
    table = {term: _by_impact(pairs, lengths) for term, pairs in postings.items()}
    return (ids, lengths, summaries, table), facts


def _by_impact(pairs: list[int], lengths: list[int]) -> bytes:
    """(note number, count) pairs, highest count first, then shortest note (BM25's order)."""
    ordered = sorted(zip(pairs[::2], pairs[1::2], strict=True),
                     key=lambda pair: (-pair[1], lengths[pair[0]], pair[0]))
    return array("I", [value for pair in ordered for value in pair]).tobytes()


@dataclass(frozen=True, slots=True)
class Posting:
    """One note containing a term: its id, weighted count, length and metadata."""

    id: str
    count: int
    length: int
    meta: Summary


class SearchIndex:
    """All shards together: document count, average length, postings and metadata."""

    def __init__(self, shards: Iterable[StoredShard],
                 facts: Callable[[], list[Facts]] = list) -> None:
        self._load_facts = facts
        self.shards = [Shard.load(stored) for stored in shards]
        self.count = sum(len(s.ids) for s in self.shards)
        total = sum(sum(s.lengths) for s in self.shards)
        self.average = total / self.count if self.count else 1.0

    def postings(self, term: str, *, most: int | None = None) -> list[Posting]:
        """The notes holding ``term``; with ``most``, only that many of the highest counts
        (each shard is stored highest count first and gives at most a quarter of ``most``,
        four times its share, so the cost no longer grows with the vault)."""
        out = []
        for ids, lengths, metas, table in self.shards:
            raw = table.get(term)
            if raw is None:
                continue
            pairs = array("I")
            pairs.frombytes(raw if most is None else raw[:max(most // 4, 1) * 8])
            for k in range(0, len(pairs), 2):
                number = pairs[k]
                out.append(Posting(ids[number], pairs[k + 1], lengths[number], metas[number]))
        if most is not None and len(out) > most:
            out = sorted(out, key=lambda p: (-p.count, p.length, p.id))[:most]
        return out

    def frequency(self, term: str) -> int:
        """How many notes hold ``term`` (counted without decoding the postings)."""
        return sum(len(shard.postings.get(term, b"")) // 8 for shard in self.shards)

    def idf(self, frequency: int) -> float:
        """BM25's inverse document frequency."""
        return math.log(1 + (self.count - frequency + 0.5) / (frequency + 0.5))

    def summaries(self) -> Iterable[tuple[str, Summary]]:
        """(id, summary) of every note: what search filters need."""
        for ids, _, summaries, _ in self.shards:
            yield from zip(ids, summaries, strict=True)

    @functools.cached_property
    def names(self) -> dict[str, str]:
        """Every title and alias, keyed ``note id + NUL + name``."""
        return {f"{note_id}\x00{name}": name for note_id, meta in self.summaries()
                for name in (note_id.rsplit("/", 1)[-1], *meta.aliases)}

    @functools.cached_property
    def name_blocks(self) -> dict[str, list[str]]:
        """Keys of :attr:`names` by the first three letters of each word of the name."""
        blocks: dict[str, list[str]] = defaultdict(list)
        for key, name in self.names.items():
            for start in dict.fromkeys(word[:3] for word in WORD.findall(name.casefold())):
                blocks[start].append(key)
        return dict(blocks)

    @functools.cached_property
    def _facts(self) -> list[Facts]:
        """The facts shards, loaded on first use."""
        return self._load_facts()

    def documents(self) -> Iterable[tuple[str, Meta]]:
        """(id, full metadata with facts and history) of every note."""
        return documents(self._facts)


def documents(shards: list[Facts]) -> Iterable[tuple[str, Meta]]:
    """(id, full metadata) of every note of the facts shards."""
    for shard in shards:
        for note_id, summary, found, history in shard:
            kind, status, date, tags, aliases, _ = summary
            yield note_id, Meta.load((kind, status, date, tags, aliases, found, history))


def _token(entries: Mapping[str, Entry]) -> str:
    """What a shard was built from: its notes and their (mtime, size)."""
    signature = [(path, e.mtime_ns, e.size, e.identity) for path, e in sorted(entries.items())]
    return hashlib.sha256(marshal.dumps(signature)).hexdigest()


def _parts(entries: Mapping[str, Entry]) -> tuple[dict[int, dict[str, Entry]], dict[int, str]]:
    """The entries of each shard, and each shard's token."""
    parts: dict[int, dict[str, Entry]] = defaultdict(dict)
    for path, entry in entries.items():
        parts[shard_of(path)][path] = entry
    return parts, {number: _token(parts[number]) for number in range(SHARDS)}


def shard_of(path: str) -> int:
    """The shard a vault path belongs to (stable across runs and machines)."""
    return zlib.crc32(path.encode("utf-8")) % SHARDS


def _build(store: Store | None, number: int, token: str, paths: Iterable[str],
           fetch: Fetch) -> tuple[StoredShard, Facts]:
    """Build one shard of both indexes from the notes at ``paths`` and store them."""
    shard, stated = build_shard(fetch(sorted(paths)))
    if store:
        store.save_derived("search", number, (token, shard))
        store.save_derived("facts", number, (token, stated))
    return shard, stated


def _current(stored: Mapping[int, Any], number: int, token: str) -> Any:
    """What was stored for shard ``number``, if built from the notes it holds now (the
    store keeps (token, value) pairs); else None."""
    built_from, value = stored.get(number, ("", None))
    return value if built_from == token else None


def load_index(store: Store | None, states: Mapping[str, Entry], fetch: Fetch) -> SearchIndex:
    """The search index of the notes in ``states`` (path -> entry, blobs not needed; ``fetch``
    reads full entries): stored shards where still current, others rebuilt."""
    parts, tokens = _parts(states)
    stored = store.load_derived("search") if store else {}
    shards, built = [], {}
    for number in range(SHARDS):
        hit = _current(stored, number, tokens[number])
        if hit is not None:
            shards.append(hit)
        else:
            built[number] = _build(store, number, tokens[number], parts[number], fetch)
            shards.append(built[number][0])

    def facts() -> list[Facts]:
        return [built[n][1] for n in range(SHARDS)] if len(built) == SHARDS else \
            load_facts(store, states, fetch)

    return SearchIndex(shards, facts)


def load_facts(store: Store | None, states: Mapping[str, Entry], fetch: Fetch) -> list[Facts]:
    """The facts shards of the notes in ``states`` (without the postings): stored where
    current."""
    parts, tokens = _parts(states)
    stored = store.load_derived("facts") if store else {}
    found = []
    for number in range(SHARDS):
        hit = _current(stored, number, tokens[number])
        if hit is not None:
            found.append(hit)
        else:
            found.append(_build(store, number, tokens[number], parts[number], fetch)[1])
    return found


def state_token(entries: Mapping[str, Entry], *extra: object) -> str:
    """One token for the whole parsed vault (and ``extra``): it changes when any note does."""
    _, tokens = _parts(entries)
    payload = marshal.dumps(([tokens[n] for n in range(SHARDS)], [str(e) for e in extra]))
    return hashlib.sha256(payload).hexdigest()
