"""vaultmem: long-term memory for AI agents that lives in an Obsidian vault."""

__version__ = "0.1.0"
