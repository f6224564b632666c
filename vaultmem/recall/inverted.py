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
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..read.cache import SHARDS, Cache, shard_of
from ..read.record import GENERATED, Entry, search_doc_of
from .doc import Meta

# (type, status, date, tags, aliases): what search filters need, without facts and history
Summary = tuple[str, str, str, list[str], list[str]]
# (ids, lengths, summaries, postings)
Shard = tuple[list[str], list[int], list[Summary], dict[str, bytes]]
# per note of a shard, in the same order: (facts, history)
Facts = list[tuple[list[Any], list[tuple[str, str]]]]


def build_shard(entries: Mapping[str, Entry]) -> tuple[Shard, Facts]:
    """The shard of ``entries`` (vault path -> cache entry); generated notes are left out."""
    ids: list[str] = []
    lengths: list[int] = []
    summaries: list[Summary] = []
    facts: Facts = []
    postings: dict[str, list[int]] = defaultdict(list)
    for path in sorted(entries):
        if entries[path][2] & GENERATED:
            continue
        terms, length, _, _, meta = search_doc_of(entries[path])
        number = len(ids)
        ids.append(path[:-3])
        lengths.append(length)
        summaries.append(tuple(meta[:5]))
        facts.append((meta[5], meta[6]))
        for term, count in terms.items():
            postings[term] += (number, count)
    shard = (ids, lengths, summaries, {t: array("I", v).tobytes() for t, v in postings.items()})
    return shard, facts


@dataclass(frozen=True, slots=True)
class Posting:
    """One note containing a term: its id, weighted count, length and metadata."""

    id: str
    count: int
    length: int
    meta: Summary


class SearchIndex:
    """All shards together: document count, average length, postings and metadata."""

    def __init__(self, shards: Iterable[Shard],
                 facts: Callable[[], list[Facts]] = list) -> None:
        self._load_facts = facts
        self.shards = list(shards)
        self.count = sum(len(s[0]) for s in self.shards)
        total = sum(sum(s[1]) for s in self.shards)
        self.average = total / self.count if self.count else 1.0

    def postings(self, term: str) -> list[Posting]:
        """Every note holding ``term``."""
        out = []
        for ids, lengths, metas, table in self.shards:
            raw = table.get(term)
            if raw is None:
                continue
            pairs = array("I")
            pairs.frombytes(raw)
            for k in range(0, len(pairs), 2):
                number = pairs[k]
                out.append(Posting(ids[number], pairs[k + 1], lengths[number], metas[number]))
        return out

    def frequency(self, term: str) -> int:
        """How many notes hold ``term`` (counted without decoding the postings)."""
        return sum(len(shard[3].get(term, b"")) // 8 for shard in self.shards)

    def idf(self, frequency: int) -> float:
        """BM25's inverse document frequency."""
        return math.log(1 + (self.count - frequency + 0.5) / (frequency + 0.5))

    def summaries(self) -> Iterable[tuple[str, Summary]]:
        """(id, summary) of every note: what search filters need."""
        for ids, _, summaries, _ in self.shards:
            yield from zip(ids, summaries, strict=True)

    @functools.cached_property
    def _facts(self) -> list[Facts]:
        """The facts shards, loaded on first use."""
        return self._load_facts()

    def documents(self) -> Iterable[tuple[str, Meta]]:
        """(id, full metadata with facts and history) of every note."""
        for (ids, _, summaries, _), facts in zip(self.shards, self._facts, strict=True):
            for note_id, summary, (found, history) in zip(ids, summaries, facts, strict=True):
                yield note_id, (*summary, found, history)


def _token(entries: Mapping[str, Entry]) -> str:
    """What a shard was built from: its notes and their (mtime, size)."""
    signature = [(path, entry[0], entry[1], entry[5]) for path, entry in sorted(entries.items())]
    return hashlib.sha256(marshal.dumps(signature)).hexdigest()


def load_index(cache: Cache | None, entries: Mapping[str, Entry]) -> SearchIndex:
    """The search index of ``entries``: stored shards where still current, others rebuilt."""
    parts: dict[int, dict[str, Entry]] = defaultdict(dict)
    for path, entry in entries.items():
        parts[shard_of(path)][path] = entry
    stored = cache.load_derived("search") if cache else {}
    tokens = {number: _token(parts[number]) for number in range(SHARDS)}
    shards, built = [], {}
    for number in range(SHARDS):
        hit = stored.get(number)
        if hit is not None and hit[0] == tokens[number]:
            shards.append(hit[1])
            continue
        shard, stated = built[number] = build_shard(parts[number])
        if cache:
            cache.save_derived("search", number, (tokens[number], shard))
            cache.save_derived("facts", number, (tokens[number], stated))
        shards.append(shard)

    def facts() -> list[Facts]:
        saved = cache.load_derived("facts") if cache else {}
        return [built[n][1] if n in built else _current(saved.get(n), tokens[n], parts[n])
                for n in range(SHARDS)]

    return SearchIndex(shards, facts)


def _current(saved: Any, token: str, entries: Mapping[str, Entry]) -> Facts:
    """A stored facts shard if it matches, else rebuilt from the entries."""
    if saved is not None and saved[0] == token:
        found: Facts = saved[1]
        return found
    return build_shard(entries)[1]
