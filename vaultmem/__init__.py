"""vaultmem: long-term memory for AI agents that lives in an Obsidian vault.

The names below are imported on first use, so that ``vaultmem search`` does not pay for
networkx or markdown-it when it does not need them.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Config": "config", "find_vault": "config", "load_config": "config",
    "ConfigError": "errors", "InvalidTitle": "errors", "NoteNotFound": "errors",
    "UsageError": "errors", "VaultmemError": "errors", "VaultNotFound": "errors",
    "build_graph": "graph", "neighbourhood": "graph", "lint": "check.linting",
    "BlockId": "model", "Field": "model", "Finding": "model", "Heading": "model", "Link": "model",
    "Note": "model", "Problem": "model", "Tag": "model", "Task": "model",
    "safe_title": "names", "check_title": "names", "Vault": "vault",
    "search": "recall.search", "Filters": "recall.search", "related": "recall.related.notes",
    "build_context": "recall.context.build", "find_conflicts": "check.conflicts",
}
__all__ = [*sorted(_EXPORTS), "__version__"]


def __getattr__(name: str) -> Any:
    """Import an exported name from its module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'vaultmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
