"""Knowing the index is current without reading every file: what a scan changed, what a
watcher vouches for, the index as a watcher keeps it, and taking in a few changed files."""
