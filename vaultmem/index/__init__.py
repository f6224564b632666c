"""The per-vault index: a SQLite database in the cache folder, updated note by note."""
