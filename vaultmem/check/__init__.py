"""Read-only judgements of a vault: conflicts, duplicates, current facts, lint, summaries."""
