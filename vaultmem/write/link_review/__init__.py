"""The review of the links a write adds, as Obsidian will resolve them: what to write
instead, what to refuse, and plain mentions to link."""
