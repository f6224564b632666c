"""The search index: per cache shard, postings of every term, kept beside the parse cache.

A shard is rebuilt only when one of its notes changes, and loading all of them is one
``marshal.loads`` per shard, so a search never has to decode every note.
"""

from __future__ import annotations

import hashlib
import marshal
import math
from array import array
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..read.cache import SHARDS, Cache, shard_of
from ..read.record import GENERATED, Entry, search_doc_of
from .doc import Meta

# (ids, lengths, metadata, postings); metadata: see recall.doc.Meta
Shard = tuple[list[str], list[int], list[Meta], dict[str, bytes]]


def build_shard(entries: Mapping[str, Entry]) -> Shard:
    """The shard of ``entries`` (vault path -> cache entry); generated notes are left out."""
    ids: list[str] = []
    lengths: list[int] = []
    metas: list[Meta] = []
    postings: dict[str, list[int]] = defaultdict(list)
    for path in sorted(entries):
        if entries[path][2] & GENERATED:
            continue
        terms, length, _, _, meta = search_doc_of(entries[path])
        number = len(ids)
        ids.append(path[:-3])
        lengths.append(length)
        metas.append(meta)
        for term, count in terms.items():
            postings[term] += (number, count)
    return ids, lengths, metas, {t: array("I", v).tobytes() for t, v in postings.items()}


@dataclass(frozen=True, slots=True)
class Posting:
    """One note containing a term: its id, weighted count, length and metadata."""

    id: str
    count: int
    length: int
    meta: Meta


class SearchIndex:
    """All shards together: document count, average length, postings and metadata."""

    def __init__(self, shards: Iterable[Shard]) -> None:
        self.shards = [s for s in shards if s[0]]
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

    def documents(self) -> Iterable[tuple[str, Meta]]:
        """(id, metadata) of every note."""
        for ids, _, metas, _ in self.shards:
            yield from zip(ids, metas, strict=True)


def _token(entries: Mapping[str, Entry]) -> str:
    """What a shard was built from: its notes and their (mtime, size)."""
    signature = [(path, entry[0], entry[1], entry[5]) for path, entry in sorted(entries.items())]
    return hashlib.sha256(marshal.dumps(signature)).hexdigest()


def load_index(cache: Cache | None, entries: Mapping[str, Entry]) -> SearchIndex:
    """The search index of ``entries``: stored shards where still current, others rebuilt."""
    parts: dict[int, dict[str, Entry]] = defaultdict(dict)
    for path, entry in entries.items():
        parts[shard_of(path)][path] = entry
    stored = cache.load_search() if cache else {}
    shards = []
    for number in range(SHARDS):
        token = _token(parts[number])
        hit = stored.get(number)
        if hit is not None and hit[0] == token:
            shards.append(hit[1])
            continue
        shard = build_shard(parts[number])
        if cache:
            cache.save_search(number, (token, shard))
        shards.append(shard)
    return SearchIndex(shards)
