"""Embed what the vector store lacks: the index's passage texts without a vector, in batches
(each stored as it is done: a killed run keeps what it finished), then pack the vectors of the
current passages for queries. One process embeds at a time; the others use what is packed.

Texts are embedded shortest first: the model pads each batch to its longest text, so batches
of like lengths take a third of the time of batches in any order (on 2,000 passages of the
synthetic vault: 430 passages/s against 141).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from typing import NamedTuple

from .embedder import Embedder
from .fts import meaning_form
from .parsing import Progress
from .store import Store
from .vectors import VectorStore

BATCH = 256  # texts read, embedded and stored at a time: bounded memory, progress to show


class Embedded(NamedTuple):
    """What an embedding run found and did."""

    texts: int  # distinct passage texts in the index
    embedded: int  # embedded by this run
    waiting: int  # left without a vector (more than the run was allowed to embed)
    model: str
    seconds: float


def embed_passages(store: Store, vectors: VectorStore, embedder: Embedder, *,
                   most: int | None = None, progress: Progress | None = None) -> Embedded:
    """Give every passage text of the index a vector (at most ``most`` embedded, else none:
    a query does not wait minutes; ``vaultmem index --embed`` embeds all) and pack them."""
    start = time.monotonic()
    version = store.version()
    if _packed(vectors, version, most):
        return _report(vectors, 0, start)
    with _turn(vectors, wait=most is None) as mine:
        if not mine or _packed(vectors, version, most):  # another process embeds, or did
            return _report(vectors, 0, start)
        current = {row[0] for row in store.query("SELECT DISTINCT digest FROM passages")}
        stored = vectors.digests()
        if most is not None and len(current - stored) > most:
            vectors.pack(stored - current, version, waiting=len(current - stored))
            return _report(vectors, 0, start)
        missing = _shortest_first(store, current - stored)
        for at in range(0, len(missing), BATCH):
            _embed_batch(store, vectors, embedder, missing[at : at + BATCH])
            if progress is not None:
                progress(len(missing[at : at + BATCH]), len(missing))
        vectors.pack(stored - current, version, waiting=0)
        return _report(vectors, len(missing), start)


def _shortest_first(store: Store, digests: set[bytes]) -> list[bytes]:
    """``digests`` by the length of their texts, shortest first (then by digest)."""
    lengths: dict[bytes, int] = {}
    wanted = sorted(digests)
    for at in range(0, len(wanted), 500):  # below SQLite's limit of bound values
        part = wanted[at : at + 500]
        lengths.update(store.query(f"SELECT digest, MAX(LENGTH(text)) FROM passages WHERE "
                                   f"digest IN ({', '.join('?' * len(part))}) GROUP BY digest",
                                   tuple(part)))
    return sorted(lengths, key=lambda digest: (lengths[digest], digest))


def _packed(vectors: VectorStore, version: str, most: int | None) -> bool:
    """True when the packed vectors are of the index's ``version`` and nothing waits that
    this run would embed."""
    return vectors.value("packed") == version and (most is not None
                                                    or vectors.value("waiting") == "0")


def _embed_batch(store: Store, vectors: VectorStore, embedder: Embedder,
                 digests: list[bytes]) -> None:
    """Embed and store the texts of ``digests``."""
    import numpy as np

    marks = ", ".join("?" * len(digests))
    texts = {digest: meaning_form(path, text) for digest, path, text in store.query(
        f"SELECT digest, path, text FROM passages WHERE digest IN ({marks}) GROUP BY digest",
        tuple(digests))}
    found = [digest for digest in digests if digest in texts]
    if found:
        vectors.add(found, np.stack(list(embedder.passages([texts[d] for d in found]))))


def _report(vectors: VectorStore, embedded: int, start: float) -> Embedded:
    """The run's :class:`Embedded`, from what the store records."""
    return Embedded(int(vectors.value("rows") or 0) + int(vectors.value("waiting") or 0),
                    embedded, int(vectors.value("waiting") or 0), vectors.identity,
                    time.monotonic() - start)


@contextlib.contextmanager
def _turn(vectors: VectorStore, *, wait: bool) -> Iterator[bool]:
    """Hold the store's embedding lock (waiting for it if ``wait``): True when held."""
    vectors.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(f"{vectors.path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing lets go of the lock
