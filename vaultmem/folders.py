"""What a vault's folders say of it, read once from its folder tree (no file is opened).

Journals: a journal is a folder where ``AT_LEAST`` or more notes are named by a date alone
(``2025-01-14.md``), directly or in folders named by a year or month inside it
(``Journal/2025/01/2025-01-14.md``): such notes are daily notes wherever the Daily notes
settings point new ones (vaults move old ones to an archive, or keep them with no settings).
A note named by a date and a title (``2024-07-26 Push and pull.md``) is a dated note, not a day.

Git: a vault kept in git may leave out of it what its ``.gitignore`` names (attachments,
private folders); a copy of it then lacks those files.

Vaults side by side: a repository may hold several vaults, each its own (a folder per language
of a documentation site): folders below the root holding Obsidian's settings folder, or else
top-level folders named by a language code that share ``SHARED`` or more note paths. Obsidian
opens each alone, so a link resolves among its own vault's files.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from .regular_files import read_regular

AT_LEAST = 3  # notes named by a date alone that make a folder a journal
DEEPEST = 6  # folders below the vault root looked into
# Each format of day names looked for: Obsidian's format string, then its pattern.
DAY_NAMES = (("YYYY-MM-DD", r"\d{4}-\d{2}-\d{2}"), ("YYYYMMDD", r"\d{8}"),
             ("YYYY_MM_DD", r"\d{4}_\d{2}_\d{2}"), ("YYYY.MM.DD", r"\d{4}\.\d{2}\.\d{2}"))
DATED_FOLDER = re.compile(r"\d{2,4}(?:[-_.]\d{2})?")  # 2025, 01, 2025-01
LANGUAGE = re.compile(r"[a-z]{2}(?:[-_][A-Za-z]{2,4})?")  # en, zh, pt-br, zh_Hans
SHARED = 5  # note paths two language folders share when they are one site's translations


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


class Folder(NamedTuple):
    """A folder of the vault: its vault-relative path ("" for the root), the names of its
    files, and whether it holds Obsidian's settings folder (a vault of its own)."""

    path: str
    files: list[str]
    settings: bool


def folder_tree(root: str | os.PathLike[str], *, config_dir: str = ".obsidian",
                skip: frozenset[str] = frozenset()) -> list[Folder]:
    """Every folder of the vault at ``root`` to ``DEEPEST`` levels, parents first; dot folders
    and the folders in ``skip`` (vault-relative, such as the templates folder) are not read."""
    return _folders(os.fspath(root), "", skip, 0, config_dir)


def find_journals(tree: list[Folder]) -> list[Journal]:
    """The journals of a vault's folder ``tree``, the largest first (ties by folder)."""
    counts: Counter[tuple[str, str]] = Counter()
    for folder, names, _ in tree:
        for name in names:
            if name[:1].isdigit() and name.endswith(".md") and (fmt := day_format(name[:-3])):
                counts[home_of(folder), fmt] += 1
    found = [Journal(folder, fmt, n) for (folder, fmt), n in counts.items() if n >= AT_LEAST]
    return sorted(found, key=lambda journal: (-journal.notes, journal.folder, journal.format))


def side_by_side(tree: list[Folder]) -> list[str]:
    """The vaults a repository holds side by side (see the module's docstring), sorted; none
    when the folder is one vault.

    >>> side_by_side([Folder("", [], False), Folder("en", ["a.md"], True),
    ...               Folder("zh", ["a.md"], True), Folder("en/x", [], False)])
    ['en', 'zh']
    """
    marked = sorted(folder.path for folder in tree if folder.path and folder.settings)
    if len(marked) >= 2:
        return marked
    languages = {f.path for f in tree if "/" not in f.path and LANGUAGE.fullmatch(f.path)}
    notes: dict[str, set[str]] = {language: set() for language in languages}
    for folder in tree:
        top, _, inner = folder.path.partition("/")
        if top in notes:
            notes[top].update(f"{inner}/{name}" for name in folder.files if name.endswith(".md"))
    return sorted(language for language in languages
                  if any(len(notes[language] & notes[other]) >= SHARED
                         for other in languages - {language}))


def _folders(path: str, rel: str, skip: frozenset[str], depth: int,
             config_dir: str) -> list[Folder]:
    """The folder at ``path`` and those below it to ``DEEPEST`` levels (a folder that cannot
    be read has no files)."""
    files: list[str] = []
    below: list[Folder] = []
    settings = False
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                inner = f"{rel}/{entry.name}" if rel else entry.name
                if entry.name.startswith("."):
                    settings = settings or entry.name == config_dir
                elif entry.is_dir(follow_symlinks=False):
                    if depth < DEEPEST and inner not in skip:
                        below += _folders(entry.path, inner, skip, depth + 1, config_dir)
                else:
                    files.append(entry.name)
    except OSError:
        return []
    return [Folder(rel, files, settings), *below]


def git_ignored(root: Path) -> tuple[str, ...]:
    """The folders (and files) the vault's ``.gitignore`` names plainly, without wildcards or
    dot names: what a git copy of the vault lacks (``Extras/Media``, its attachments, kept
    out of a public repository).

    >>> import tempfile; root = Path(tempfile.mkdtemp())
    >>> _ = (root / ".gitignore").write_text("# private\\n/Extras/Media/\\n*.log\\n.trash\\n")
    >>> git_ignored(root)
    ('Extras/Media',)
    """
    try:
        lines = read_regular(root / ".gitignore").decode("utf-8", "replace").splitlines()
    except OSError:
        return ()
    kept = {line.strip().strip("/") for line in lines}
    return tuple(sorted(path for path in kept if path and not path.startswith(("#", "!", "."))
                        and not set(path) & set("*?[\\")))
