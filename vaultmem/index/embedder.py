"""Sentence embeddings of passages and queries with fastembed (ONNX Runtime, no torch): the model
of the vault's ``[semantic]`` settings, loaded once per process.

A model is a folder holding an ONNX export (``model.onnx``, ``tokenizer.json`` and its configs,
``config.json`` for the width), or a fastembed model name, which fastembed downloads where the
network allows. Its identity, stored with the vectors, is the content of its files (a folder's
model file and tokenizer, hashed; a name as written) with the pooling: a vector store of another
model is embedded again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import MissingExtra, SemanticModelError
from ..semantic_config import Semantic

if TYPE_CHECKING:
    import numpy as np

INSTALL = "pip install 'vaultmem[semantic]'"
BATCH = 32  # texts per model run: fastembed's default; larger batches pad more
FOLDER_FILES = ("tokenizer.json", "config.json")


@dataclass(frozen=True)
class Embedder:
    """A loaded embedding model: ``identity`` names what made its vectors."""

    identity: str
    dim: int
    model: Any  # a fastembed TextEmbedding

    def passages(self, texts: list[str]) -> Iterator[np.ndarray]:
        """Unit vectors (float32) of ``texts``, in order, computed ``BATCH`` at a time."""
        return iter(self.model.passage_embed(texts, batch_size=BATCH))

    def query(self, text: str) -> np.ndarray:
        """The unit vector (float32) of a question."""
        vector: np.ndarray = next(iter(self.model.query_embed([text])))
        return vector


def load_embedder(settings: Semantic) -> Embedder:
    """The model ``settings`` name, loaded (once per process and model)."""
    if settings.folder is not None:
        return _folder_model(settings.folder, settings.model_file, settings.pooling,
                             _threads(settings))
    return _named_model(settings.model, _threads(settings))


def fastembed_missing() -> bool:
    """True when fastembed cannot be imported here."""
    import importlib.util

    return importlib.util.find_spec("fastembed") is None


def _threads(settings: Semantic) -> int:
    """The ONNX Runtime threads to use: the setting, or every core this process may use."""
    return settings.threads or len(os.sched_getaffinity(0))


def _fastembed() -> Any:
    """The fastembed module, or a :class:`MissingExtra` saying how to install it."""
    try:
        import fastembed
    except ImportError as exc:
        raise MissingExtra(f"semantic recall needs fastembed, which is not installed: {INSTALL}"
                           " (or remove [semantic] from .vaultmem/config.toml)") from exc
    return fastembed


@functools.cache
def _folder_model(folder: Path, model_file: str, pooling: str, threads: int) -> Embedder:
    """The ONNX export in ``folder``, registered with fastembed under its identity."""
    fastembed = _fastembed()
    from fastembed.common.model_description import ModelSource, PoolingType

    missing = [name for name in (model_file, *FOLDER_FILES) if not (folder / name).is_file()]
    if missing:
        raise SemanticModelError(f"the model folder {folder} has no {missing[0]}; point "
                                 "[semantic] model at a folder with an ONNX export of a "
                                 "sentence-transformers model (model.onnx, tokenizer.json, "
                                 "config.json)")
    dim = _width(folder / "config.json")
    identity = f"{folder.name}:{pooling}:{_files_digest(folder, model_file)}"
    name = f"vaultmem/{identity}"
    with contextlib.suppress(ValueError):  # registered already by this process
        fastembed.TextEmbedding.add_custom_model(
            model=name, pooling=PoolingType.MEAN if pooling == "mean" else PoolingType.CLS,
            normalization=True, sources=ModelSource(hf=name), dim=dim, model_file=model_file)
    model = fastembed.TextEmbedding(model_name=name, specific_model_path=str(folder),
                                    threads=threads, local_files_only=True)
    return Embedder(identity, dim, model)


@functools.cache
def _named_model(name: str, threads: int) -> Embedder:
    """A model of fastembed's list, by name (downloaded by fastembed if it is not cached)."""
    fastembed = _fastembed()
    known = {m["model"]: m for m in fastembed.TextEmbedding.list_supported_models()}
    if name not in known:
        raise SemanticModelError(f"[semantic] model {name!r} is neither a folder nor a model "
                                 "fastembed knows; give the path of a folder holding an ONNX "
                                 "export, or a name from fastembed's list "
                                 "(TextEmbedding.list_supported_models())")
    try:
        model = fastembed.TextEmbedding(model_name=name, threads=threads)
    except Exception as exc:  # fastembed raises what its download or runtime raised
        raise SemanticModelError(f"the model {name!r} could not be loaded ({exc}); where no "
                                 "model hub is reachable, download it elsewhere and give its "
                                 "folder as [semantic] model") from exc
    return Embedder(f"fastembed:{name}", int(known[name]["dim"]), model)


def _width(config: Path) -> int:
    """The vector width a model's ``config.json`` states (``hidden_size``)."""
    try:
        width = json.loads(config.read_text(encoding="utf-8")).get("hidden_size")
    except (OSError, ValueError) as exc:
        raise SemanticModelError(f"{config} cannot be read ({exc}); it should be the model's "
                                 "config.json") from exc
    if not isinstance(width, int) or width < 1:
        raise SemanticModelError(f"{config} states no hidden_size; it should be the model's "
                                 "config.json")
    return width


def _files_digest(folder: Path, model_file: str) -> str:
    """A digest of the model file and the tokenizer: what decides the vectors."""
    digest = hashlib.sha256()
    for name in (model_file, "tokenizer.json"):
        with open(folder / name, "rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()[:16]
