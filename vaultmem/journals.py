"""Folders of daily notes found by their names, as a vault keeps them with or without settings.

A journal is a folder where ``AT_LEAST`` or more notes are named by a date alone
(``2025-01-14.md``), directly or in folders named by a year or month inside it
(``Journal/2025/01/2025-01-14.md``): such notes are daily notes wherever the Daily notes
settings point new ones (vaults move old ones to an archive, or keep them with no settings).
A note named by a date and a title (``2024-07-26 Push and pull.md``) is a dated note, not a day.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import NamedTuple

AT_LEAST = 3  # notes named by a date alone that make a folder a journal
DEEPEST = 6  # folders below the vault root looked into
# Each format of day names looked for: Obsidian's format string, then its pattern.
DAY_NAMES = (("YYYY-MM-DD", r"\d{4}-\d{2}-\d{2}"), ("YYYYMMDD", r"\d{8}"),
             ("YYYY_MM_DD", r"\d{4}_\d{2}_\d{2}"), ("YYYY.MM.DD", r"\d{4}\.\d{2}\.\d{2}"))
DATED_FOLDER = re.compile(r"\d{2,4}(?:[-_.]\d{2})?")  # 2025, 01, 2025-01


class Journal(NamedTuple):
    """A folder of daily notes: where, how they are named, and how many there are."""

    folder: str  # vault-relative, "" for the root
    format: str  # Obsidian's format string of the notes' names
    notes: int


def day_format(stem: str) -> str | None:
    """The format of a note name that is a date alone, else None.

    >>> day_format("2025-01-14"), day_format("20250114"), day_format("2025-01-14 Standup")
    ('YYYY-MM-DD', 'YYYYMMDD', None)
    """
    for name, pattern in DAY_NAMES:
        if re.fullmatch(pattern, stem):
            return name
    return None


def home_of(folder: str) -> str:
    """A note's folder without the year and month folders at its end.

    >>> home_of("Journal/Daily/2023/08"), home_of("2024"), home_of("Daily notes")
    ('Journal/Daily', '', 'Daily notes')
    """
    parts = folder.split("/") if folder else []
    while parts and DATED_FOLDER.fullmatch(parts[-1]):
        parts.pop()
    return "/".join(parts)


def find_journals(root: str | os.PathLike[str], *, skip: frozenset[str] = frozenset()
                  ) -> list[Journal]:
    """The journals of the vault at ``root``, the largest first (ties by folder); dot folders
    and the folders in ``skip`` (vault-relative, such as the templates folder) are not read."""
    counts: Counter[tuple[str, str]] = Counter()
    for folder, names in _folders(os.fspath(root), "", skip, 0):
        for name in names:
            if name[:1].isdigit() and name.endswith(".md") and (fmt := day_format(name[:-3])):
                counts[home_of(folder), fmt] += 1
    found = [Journal(folder, fmt, n) for (folder, fmt), n in counts.items() if n >= AT_LEAST]
    return sorted(found, key=lambda journal: (-journal.notes, journal.folder, journal.format))


def _folders(path: str, rel: str, skip: frozenset[str], depth: int
             ) -> list[tuple[str, list[str]]]:
    """(vault-relative folder, its file names) for the folder at ``path`` and those below it,
    to ``DEEPEST`` levels (a folder that cannot be read has no files)."""
    files: list[str] = []
    below: list[tuple[str, list[str]]] = []
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                inner = f"{rel}/{entry.name}" if rel else entry.name
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if depth < DEEPEST and inner not in skip:
                        below += _folders(entry.path, inner, skip, depth + 1)
                else:
                    files.append(entry.name)
    except OSError:
        return []
    return [(rel, files), *below]
