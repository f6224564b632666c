"""vaultmem: long-term memory for AI agents that lives in an Obsidian vault."""

__version__ = "0.1.0"

from .config import Config, find_vault, load_config
from .errors import (
    ConfigError,
    InvalidTitle,
    NoteNotFound,
    UsageError,
    VaultmemError,
    VaultNotFound,
)
from .graph import build_graph, neighbourhood
from .lint import lint
from .model import BlockId, Field, Finding, Heading, Link, Note, Problem, Tag, Task
from .names import safe_title
from .vault import Vault

__all__ = [
    "BlockId", "Config", "ConfigError", "Field", "Finding", "Heading", "InvalidTitle", "Link",
    "Note", "NoteNotFound", "Problem", "Tag", "Task", "UsageError", "Vault", "VaultNotFound",
    "VaultmemError", "__version__", "build_graph", "find_vault", "lint", "load_config",
    "neighbourhood", "safe_title",
]
