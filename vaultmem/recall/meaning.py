"""Meaning: the passages nearest a question by their vectors, when ``[semantic]`` names a model.

A question is embedded once; its cosine with every passage vector is computed (int8, brute
force: about 4 ms at 70,000 passages) and the ``CANDIDATES`` nearest passages are scored 0..1
between the least and the most similar of them; when even the most similar is under the
``min_cosine`` setting (0.2: all-MiniLM-L6-v2 rates unrelated texts lower), none are, so a
question about nothing in the vault finds nothing by meaning. (Leaving out only the passages
under it lost a sample question and gained nothing on the conversation logs.) Context adds
``weight`` (the setting, 1.2; search and related ``search_weight``, 0.3) times that score to
its keyword score of the same passage (itself 0..1): a weighted sum of normalised scores. On
``benchmarks/eval_context.py`` weights 0.3 to 1.6 all found more answers than keywords alone
on the conversation logs, more the higher the weight; 1.2 was the best on the sample vault's
questions and near the best on the logs.

Before answering, a query embeds the passages that changed since the vectors were packed, up to
``EMBED_ON_QUERY`` of them; with more waiting (a first use, a large import) it answers with the
vectors there are and says to run ``vaultmem index --embed``. Without fastembed, or with a model
that cannot be loaded, recall is by keywords alone and ``vault.notices`` says why.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, NamedTuple

from ..errors import MissingExtra, SemanticModelError, SemanticOff
from ..index.embedder import INSTALL, Embedder, load_embedder
from ..index.lookup import StoredPassage, digests_of, passages_of_texts
from ..index.vector_sync import Embedded, embed_passages
from ..index.vectors import Matrix, VectorStore, nearest
from ..languages import written_in
from ..vault import Vault

if TYPE_CHECKING:
    import numpy as np

CANDIDATES = 200
EMBED_ON_QUERY = 500  # passage texts: about 1.5 s on 2 cores


class Loaded(NamedTuple):
    """A vault's model and the packed vectors of its passages."""

    embedder: Embedder
    matrix: Matrix


class Near(NamedTuple):
    """A passage near a question: its score among the candidates (0..1) and its cosine."""

    passage: StoredPassage
    score: float
    cosine: float


def loaded(vault: Vault) -> Loaded | None:
    """The vault's model and current vectors (None when semantic recall is off or cannot
    work here; ``vault.notices`` says why), once per reading of the vault."""
    if not vault.config.semantic.on:
        return None
    if "meaning" not in vault.derived:
        vault.derived["meaning"] = _load(vault)
    found: Loaded | None = vault.derived["meaning"]
    return found


def _load(vault: Vault) -> Loaded | None:
    """Load the model, embed what changed (a few) and read the packed vectors."""
    _ = vault.notes  # the index is current first
    try:
        embedder = load_embedder(vault.config.semantic)
    except (MissingExtra, SemanticModelError) as exc:
        vault.notices.append(f"{exc}; recall uses keywords alone")
        return None
    store = VectorStore(vault.store.folder, embedder.identity, embedder.dim)
    try:
        done = embed_passages(vault.store, store, embedder, most=EMBED_ON_QUERY,
                              progress=vault.embed_progress)
        found = Loaded(embedder, store.matrix())
    except sqlite3.DatabaseError:  # damaged past what opening it reads: started over
        store.delete_files()
        vault.notices.append(f"the vector store {store.path} was damaged and is started over; "
                             "recall uses keywords alone until: vaultmem index --embed")
        return None
    finally:
        store.close()
    if done.waiting:
        vault.notices.append(f"{done.waiting} of {done.texts} passage texts have no vector yet "
                             "and are found by keywords alone; run: vaultmem index --embed")
    return found


def embed_vault(vault: Vault) -> Embedded:
    """Give every passage of the vault a vector now (what ``vaultmem index --embed`` does), with
    ``vault.embed_progress``; raises :class:`MissingExtra` or :class:`SemanticModelError` when
    semantic recall cannot work, :class:`SemanticOff` when no model is set."""
    settings = vault.config.semantic
    if not settings.on:
        raise SemanticOff("semantic recall is off: name a model in .vaultmem/config.toml, "
                          '[semantic] model = "<a folder with an ONNX export, or a fastembed '
                          'model name>", and install fastembed: ' + INSTALL)
    _ = vault.notes  # the index is current first
    embedder = load_embedder(settings)
    store = VectorStore(vault.store.folder, embedder.identity, embedder.dim)
    try:
        done = embed_passages(vault.store, store, embedder, progress=vault.embed_progress)
    except sqlite3.DatabaseError:  # damaged past what opening it reads: started over
        store.delete_files()
        done = embed_passages(vault.store, store, embedder, progress=vault.embed_progress)
    finally:
        store.close()
    vault.derived.pop("meaning", None)
    return done


def near_text(vault: Vault, text: str, *, limit: int = CANDIDATES) -> list[Near]:
    """The passages nearest ``text`` in meaning, best first (none when semantic is off, or
    for a text in a language the model does not read: its ``languages`` setting)."""
    found = loaded(vault)
    if found is None or not text.strip() or not written_in(text, vault.config.semantic.languages):
        return []
    key = ("query vector", found.embedder.identity, text)
    if key not in vault.derived:  # a question is embedded once
        vault.derived[key] = found.embedder.query(text)
    return _passages(vault, nearest(found.matrix, vault.derived[key], limit=limit))


def near_note(vault: Vault, note_id: str, *, limit: int = CANDIDATES) -> list[Near]:
    """The passages nearest a note's own (their mean vector), best first, its own left out;
    none when semantic is off or the note's passages have no vectors."""
    found = loaded(vault)
    if found is None:
        return []
    own = set(digests_of(vault.store, note_id))
    vector = _mean(found.matrix, own)
    if vector is None:
        return []
    ranked = nearest(found.matrix, vector, limit=limit + len(own))
    return _passages(vault, [(digest, cosine) for digest, cosine in ranked
                             if digest not in own][:limit])


def _mean(matrix: Matrix, digests: set[bytes]) -> np.ndarray | None:
    """The unit mean of the vectors of ``digests`` (None for none)."""
    import numpy as np

    rows = [at for at, digest in enumerate(matrix.digests) if digest in digests]
    if not rows:
        return None
    mean = (matrix.vectors[rows].astype(np.float32) * matrix.scales[rows, None]).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm else None


def _passages(vault: Vault, ranked: list[tuple[bytes, float]]) -> list[Near]:
    """The passages of the ranked texts, each scored between the least and the most similar,
    but those in a language the model does not read; none when even the most similar is under
    the ``min_cosine`` setting."""
    if not ranked or ranked[0][1] < vault.config.semantic.min_cosine:
        return []
    low, high = ranked[-1][1], ranked[0][1]
    texts = passages_of_texts(vault.store, [digest for digest, _ in ranked])
    reads = vault.config.semantic.languages
    return [Near(passage, (cosine - low) / (high - low) if high > low else 1.0, cosine)
            for digest, cosine in ranked for passage in texts.get(digest, [])
            if written_in(passage.text, reads)]
