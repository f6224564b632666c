"""Keeping memory healthy: facts, conflicts and their resolution."""
