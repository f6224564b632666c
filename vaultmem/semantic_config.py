"""The ``[semantic]`` settings of ``.vaultmem/config.toml``: which embedding model, and how much
its scores count against the keyword scores."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .languages import COMMON_WORDS

KEYS = {"model", "weight", "search_weight", "threads", "model_file", "pooling", "min_cosine",
        "languages"}
LANGUAGES = ("any", *COMMON_WORDS)  # what a model may be said to read
POOLINGS = ("mean", "cls")


@dataclass(frozen=True)
class Semantic:
    """How passages are embedded; ``model`` "" means semantic recall is off."""

    model: str = ""  # a folder holding an ONNX export, or a fastembed model name
    folder: Path | None = None  # ``model`` as an existing folder (relative to the vault)
    weight: float = 1.2  # context: the meaning score's share beside the keyword score's 1
    search_weight: float = 0.3  # the same for search and related, which rank notes
    threads: int = 0  # ONNX Runtime threads; 0: every core this process may use
    model_file: str = "model.onnx"  # within ``folder``
    pooling: str = "mean"  # how a folder's model turns token vectors into one
    min_cosine: float = 0.2  # a question nearer no passage than this finds none by meaning
    languages: tuple[str, ...] = ("english",)  # what the model reads ("any": a multilingual one)

    @property
    def on(self) -> bool:
        """True when a model is set."""
        return bool(self.model)


def semantic_settings(data: Any, path: Path, root: Path) -> Semantic:
    """The ``[semantic]`` table of the config file at ``path`` (of the vault at ``root``)."""
    if not isinstance(data, dict):
        raise ConfigError(f'{path}: [semantic] must be a table (model = "a folder or a name")')
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown [semantic] setting {unknown[0]!r}; the settings are "
                          + ", ".join(sorted(KEYS)))
    model = data.get("model", "")
    if not isinstance(model, str):
        raise ConfigError(f'{path}: [semantic] model must be a string (a folder or a name)')
    weight, search_weight = (_weight(data, key, path) for key in ("weight", "search_weight"))
    threads = data.get("threads", 0)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ConfigError(f"{path}: [semantic] threads must be a whole number (0: every core)")
    pooling = data.get("pooling", "mean")
    if pooling not in POOLINGS:
        raise ConfigError(f"{path}: [semantic] pooling must be one of {', '.join(POOLINGS)}")
    model_file = data.get("model_file", "model.onnx")
    if not isinstance(model_file, str) or not model_file:
        raise ConfigError(f"{path}: [semantic] model_file must be a file name (model.onnx)")
    floor = data.get("min_cosine", Semantic.min_cosine)
    if isinstance(floor, bool) or not isinstance(floor, int | float) or not -1 <= floor < 1:
        raise ConfigError(f"{path}: [semantic] min_cosine must be a number from -1 to below 1")
    return Semantic(model.strip(), _folder(model.strip(), root), weight, search_weight,
                    threads, model_file, pooling, float(floor), _languages(data, path))


def _languages(data: dict[str, Any], path: Path) -> tuple[str, ...]:
    """The ``languages`` setting: the languages the model reads."""
    value = data.get("languages", list(Semantic.languages))
    if not isinstance(value, list) or not value or any(v not in LANGUAGES for v in value):
        raise ConfigError(f'{path}: [semantic] languages must be a list of what the model reads '
                          f'(["english"], or ["any"] for a multilingual model), from: '
                          + ", ".join(LANGUAGES))
    return tuple(value)


def _weight(data: dict[str, Any], key: str, path: Path) -> float:
    """The weight setting ``key`` (its default when not set)."""
    value = data.get(key, getattr(Semantic, key))
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 4:
        raise ConfigError(f"{path}: [semantic] {key} must be a number above 0, at most 4")
    return float(value)


def _folder(model: str, root: Path) -> Path | None:
    """``model`` as a folder (``~`` expanded, relative to the vault) if one is there."""
    if not model:
        return None
    folder = Path(model).expanduser()
    folder = folder if folder.is_absolute() else root / folder
    return folder.resolve() if folder.is_dir() else None
