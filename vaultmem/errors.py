"""Errors raised by vaultmem; the CLI turns them into messages and exit codes."""

from __future__ import annotations

import sys

PACKAGES = {"markdown_it": "markdown-it-py", "frontmatter": "python-frontmatter",
            "yaml": "PyYAML", "rapidfuzz": "rapidfuzz", "networkx": "networkx",
            "click": "click"}  # import name: the package to install


class VaultmemError(Exception):
    """Base class of every error vaultmem raises on purpose."""

    exit_code = 1


class UsageError(VaultmemError):
    """The command was called wrongly (bad option value, missing vault)."""

    exit_code = 2


class VaultNotFound(UsageError):
    """No vault folder could be found or the given one does not exist."""


class ConfigError(UsageError):
    """A settings file (.obsidian/*.json, .vaultmem/config.toml) cannot be used."""


class BadClock(UsageError):
    """VAULTMEM_NOW holds something that is not a date or a date and time."""


class QuestionTooLong(UsageError):
    """A query is longer than any question, so answering it would cost without bound."""


class CallTooLong(VaultmemError):
    """A call of a long-running server ran past its time and was stopped; nothing changed."""


class NoteNotFound(VaultmemError):
    """No note matches the given id, name or path."""


class InvalidTitle(VaultmemError):
    """A title cannot become a file name in an Obsidian vault."""


class MissingExtra(UsageError):
    """A command needs an optional dependency that is not installed."""


class MissingDependency(UsageError):
    """A package every command needs is not installed in the Python that runs vaultmem."""


class SemanticModelError(UsageError):
    """The embedding model the ``[semantic]`` settings name cannot be found or loaded."""


class SemanticOff(UsageError):
    """Semantic recall was asked for, but ``.vaultmem/config.toml`` names no model."""


class IndexBusy(VaultmemError):
    """The index database stayed locked by another vaultmem process past the busy timeout."""


class ChangedMeanwhile(VaultmemError):
    """A note was changed by someone else after a change to several notes was planned."""


class NothingToUndo(VaultmemError):
    """The History holds no change that can still be undone."""


class RenameRefused(VaultmemError):
    """A rename or merge would lose or break something; nothing was changed."""


def missing_dependency(exc: ImportError) -> MissingDependency:
    """The error for a package vaultmem needs that this Python lacks, with the install fix."""
    package = PACKAGES.get((exc.name or "").split(".")[0], exc.name or str(exc))
    return MissingDependency(
        f"{package}, which vaultmem needs, is not installed in this Python ({sys.executable}): "
        f"install vaultmem with its dependencies there ({sys.executable} -m pip install "
        "vaultmem, or -e . in a checkout), or run the vaultmem of the environment that has them")

