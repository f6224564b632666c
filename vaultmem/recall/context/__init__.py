"""An agent's context: candidates per section, the passages that answer its question, the
relevance floor, and how it reads."""
