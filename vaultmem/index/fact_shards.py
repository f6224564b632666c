"""Every note's facts and history in 16 shards, for the whole-vault checks (conflicts,
duplicates), kept in the index database beside the notes.

A shard is rebuilt only when one of its notes changes, and loading all of them is one
``marshal.loads`` per shard, so a check never has to decode every note.
"""

from __future__ import annotations

import hashlib
import marshal
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..read.record import GENERATED, Entry
from .doc import Meta, read_meta
from .store import Store

SHARDS = 16
Fetch = Callable[[list[str]], Mapping[str, Entry]]

# Per note of a shard, as stored (marshal refuses tuple subclasses, so plain tuples all
# through): (id, (type, status, date, tags, aliases), facts, history)
Facts = list[tuple[str, tuple[Any, ...], list[tuple[Any, ...]], list[tuple[str, str]]]]


def build_shard(entries: Mapping[str, Entry]) -> Facts:
    """The facts shard of ``entries`` (vault path -> cache entry), as stored; generated notes
    are left out."""
    facts: Facts = []
    for path in sorted(entries):
        if entries[path].flags & GENERATED:
            continue
        meta = read_meta(entries[path])
        summary = (meta.type, meta.status, meta.date, meta.tags, meta.aliases)
        facts.append((path[:-3], summary, [tuple(f) for f in meta.facts], meta.history))
    return facts


def documents(shards: list[Facts]) -> Iterable[tuple[str, Meta]]:
    """(id, full metadata) of every note of the facts shards."""
    for shard in shards:
        for note_id, summary, found, history in shard:
            kind, status, date, tags, aliases = summary
            yield note_id, Meta.load((kind, status, date, tags, aliases, found, history))


def _signature(entries: Mapping[str, Entry]) -> str:
    """What a shard was built from: its notes and their (mtime, size)."""
    signature = [(path, e.mtime_ns, e.size, e.identity) for path, e in sorted(entries.items())]
    return hashlib.sha256(marshal.dumps(signature)).hexdigest()


def _parts(entries: Mapping[str, Entry]) -> tuple[dict[int, dict[str, Entry]], dict[int, str]]:
    """The entries of each shard, and each shard's token."""
    parts: dict[int, dict[str, Entry]] = defaultdict(dict)
    for path, entry in entries.items():
        parts[shard_of(path)][path] = entry
    return parts, {number: _signature(parts[number]) for number in range(SHARDS)}


def shard_of(path: str) -> int:
    """The shard a vault path belongs to (stable across runs and machines)."""
    return zlib.crc32(path.encode("utf-8")) % SHARDS


def _build(store: Store | None, number: int, token: str, paths: Iterable[str],
           fetch: Fetch) -> Facts:
    """Build one facts shard from the notes at ``paths`` and store it."""
    stated = build_shard(fetch(sorted(paths)))
    if store:
        store.save_derived("facts", number, (token, stated))
    return stated


def _current(stored: Mapping[int, Any], number: int, token: str) -> Any:
    """What was stored for shard ``number``, if built from the notes it holds now (the
    store keeps (token, value) pairs); else None."""
    built_from, value = stored.get(number, ("", None))
    return value if built_from == token else None


def load_facts(store: Store | None, states: Mapping[str, Entry], fetch: Fetch) -> list[Facts]:
    """The facts shards of the notes in ``states`` (path -> entry, blobs not needed; ``fetch``
    reads full entries): stored where current, others rebuilt."""
    parts, tokens = _parts(states)
    stored = store.load_derived("facts") if store else {}
    found = []
    for number in range(SHARDS):
        hit = _current(stored, number, tokens[number])
        if hit is not None:
            found.append(hit)
        else:
            found.append(_build(store, number, tokens[number], parts[number], fetch))
    return found
