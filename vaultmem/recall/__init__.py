"""Finding memory: search, related entries, index notes."""
