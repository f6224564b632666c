"""Notes related to a note: the evidence (links, shared neighbours, bridges, similar words)
and its ranking."""
