"""Resolve link paths to notes and attachments exactly as Obsidian does.

Order for a link path: the exact vault path; a path relative to the linking note's folder; then
every file with that name (whose path ends with the link path): one in the linking note's own
folder wins, else the shortest path (ties: alphabetical). More than one candidate = ambiguous.
"""

from __future__ import annotations

import functools
import posixpath
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from ..model import Link


class Resolver:
    """Look-up tables over every note id and attachment path of a vault (built on first use).

    ``vaults``: folders that are vaults of their own side by side (see
    :func:`vaultmem.folders.side_by_side`); a link written in one resolves among its files
    only, its paths read from its folder, as Obsidian opening that vault alone resolves it.
    """

    def __init__(self, note_ids: Iterable[str], attachments: Iterable[str],
                 vaults: Iterable[str] = ()) -> None:
        self.vaults = tuple(sorted(vaults, key=lambda folder: (-len(folder), folder)))
        if self.vaults:  # read again for each vault's own resolver
            note_ids, attachments = tuple(note_ids), tuple(attachments)
        self._sources = (note_ids, attachments)
        self._seen: dict[tuple[str, str], tuple[str | None, bool]] = {}  # links repeat a lot

    @functools.cached_property
    def notes(self) -> _Table:
        """Note ids by path and by name."""
        return _Table(self._sources[0])

    @functools.cached_property
    def files(self) -> _Table:
        """Attachment paths by path and by name."""
        return _Table(self._sources[1])

    def resolve(self, linkpath: str, source: str) -> tuple[str | None, bool]:
        """(resolved id or attachment path, ambiguous) for ``linkpath`` written in ``source``.

        >>> r = Resolver(["a/Note", "b/Note", "b/Src"], ["img/x.png"])
        >>> r.resolve("note", "b/Src"), r.resolve("X.png", "b/Src"), r.resolve("", "b/Src")
        (('b/Note', True), ('img/x.png', False), ('b/Src', False))
        >>> r = Resolver(["en/Links", "en/Home", "zh/Links", "zh/Home"], [], vaults=["en", "zh"])
        >>> r.resolve("Links", "zh/Home"), r.resolve("Home", "en/Links")
        (('zh/Links', False), ('en/Home', False))
        """
        if self.vaults:
            return self._in_own_vault(linkpath, source)
        path = link_path(linkpath)
        if not path:
            return source, False
        folder = source.rpartition("/")[0]
        found = self._seen.get((path, folder))
        if found is None:
            found = self._seen[path, folder] = self._find(path, folder)
        return found

    def vault_of(self, note: str) -> str:
        """The folder of the vault (side by side) holding ``note``, "" for the rest."""
        return next((v for v in self.vaults if note.startswith(v + "/")), "")

    @functools.cached_property
    def _apart(self) -> dict[str, Resolver]:
        """A resolver for each vault side by side ("" for the files in none), over its own
        files, their paths read from its folder."""
        apart: dict[str, tuple[list[str], list[str]]] = {v: ([], []) for v in (*self.vaults, "")}
        for kind, paths in enumerate(self._sources):
            for path in paths:
                vault = self.vault_of(path)
                apart[vault][kind].append(path[len(vault) + 1:] if vault else path)
        return {vault: Resolver(*paths) for vault, paths in apart.items()}

    def _in_own_vault(self, linkpath: str, source: str) -> tuple[str | None, bool]:
        """``resolve`` among the files of the vault (side by side) holding ``source``."""
        vault = self.vault_of(source)
        inner = source[len(vault) + 1:] if vault else source
        found, ambiguous = self._apart[vault].resolve(linkpath, inner)
        return (f"{vault}/{found}" if vault and found is not None else found), ambiguous

    def _find(self, path: str, folder: str) -> tuple[str | None, bool]:
        """``resolve`` of a non-empty path written in a note of ``folder``."""
        stem = _stem(path)
        found = self.notes.find(stem, folder)
        if found[0] is None:
            found = self.files.find(path, folder)
        if found[0] is None and stem != path:
            found = self.files.find(stem, folder)
        return found

    def resolve_link(self, link: Link, source: str) -> None:
        """Fill in ``link.resolved`` and ``link.ambiguous``."""
        link.resolved, link.ambiguous = self.resolve(link.target, source)

    def moved(self, old: str, new: str | None) -> Resolver:
        """This resolver with note ``old`` at ``new`` instead (a rename, before it is made), or
        gone (``new`` None: to the trash).

        >>> Resolver(["a/Old", "b/New"], []).moved("a/Old", "a/New").resolve("New", "a/X")
        ('a/New', True)
        >>> Resolver(["a/Old", "b/Old"], []).moved("a/Old", None).resolve("Old", "a/X")
        ('b/Old', False)
        """
        notes, attachments = self._sources
        kept = [new if note == old else note for note in notes]
        return Resolver([note for note in kept if note is not None], attachments, self.vaults)

    def link_text(self, source: str, target: str, style: str = "shortest") -> str:
        """The wikilink vaultmem writes in ``source`` for ``target`` (``newLinkFormat``).

        >>> Resolver(["a/Note", "b/Note", "c/Solo"], []).link_text("c/Solo", "a/Note")
        '[[a/Note]]'
        """
        table = self.notes if target in self.notes.exact else self.files
        name = posixpath.basename(target)
        if style == "absolute":
            text = target
        elif style == "relative":
            text = posixpath.relpath(target, posixpath.dirname(source) or ".")
        else:
            unique = len(table.by_name.get(name.lower(), ())) <= 1
            text = name if unique else target
        return f"[[{text}]]"


def link_path(target: str) -> str:
    """A link's target as resolution compares it: trimmed, no leading ``/``, NFC."""
    return nfc(target.strip().lstrip("/"))


def link_name(target: str, source: str = "") -> str:
    """The file name a link's target written in note ``source`` can only resolve to,
    lower-cased: what an index of links by target is keyed by. A path ending in ``/``, ``.`` or
    ``..`` names what it leads to from the note's folder, as resolution reads it.

    >>> link_name(" People/Lucy Tan.md"), link_name("../lucy TAN"), link_name("x/..", "Sub/N")
    ('lucy tan', 'lucy tan', 'sub')
    """
    path = _stem(link_path(target))
    name = path.rpartition("/")[2]
    if name in ("", ".", ".."):
        folder = source.rpartition("/")[0]
        name = posixpath.basename(posixpath.normpath(posixpath.join(folder, path)))
    return name.lower()


def _stem(path: str) -> str:
    """``path`` without a ``.md`` ending."""
    return path[:-3] if path.lower().endswith(".md") else path


def nfc(text: str) -> str:
    """Unicode NFC form (file names from macOS are often NFD; links are typed in NFC)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


class _Table:
    """Paths indexed by lower-case full path and by lower-case file name."""

    def __init__(self, paths: Iterable[str]) -> None:
        ordered = sorted(paths)
        self.exact: set[str] = set(ordered)
        self.by_path: dict[str, list[str]] = defaultdict(list)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for path in ordered:
            key = (path if path.isascii() else nfc(path)).lower()
            self.by_path[key].append(path)
            self.by_name[key.rpartition("/")[2]].append(path)

    def find(self, path: str, folder: str) -> tuple[str | None, bool]:
        """The best match for ``path`` seen from ``folder``, and whether it was ambiguous."""
        if "/" in path:
            joined = _within_vault(posixpath.normpath(posixpath.join(folder, path)))
            for candidate in (path, joined):
                hits = self.by_path.get(candidate.lower())
                if hits:
                    return _prefer_case(hits, candidate), False
            low = "/" + path.lower()
            pool = [p for p in self.by_name.get(posixpath.basename(path).lower(), ())
                    if p.lower().endswith(low)]
        else:
            pool = list(self.by_name.get(path.lower(), ()))
        if not pool:
            return None, False
        return _choose(pool, path, folder), len(pool) > 1


def _within_vault(path: str) -> str:
    """A relative path that climbs above the vault's root, read from the root, as Obsidian
    reads it (``../../images/x.png`` from ``Advanced/`` is ``images/x.png``).

    >>> _within_vault("../images/x.png"), _within_vault("a/b.md")
    ('images/x.png', 'a/b.md')
    """
    while path.startswith("../"):
        path = path[3:]
    return "" if path == ".." else path


def _prefer_case(hits: list[str], wanted: str) -> str:
    """Among case variants of one path, the one spelt exactly as written, else the first."""
    return wanted if wanted in hits else hits[0]


def _choose(pool: list[str], path: str, folder: str) -> str:
    """Obsidian's pick among files with the same name."""
    exact = [p for p in pool if p.lower() == path.lower()]
    if exact:
        return _prefer_case(exact, path)
    local = [p for p in pool if posixpath.dirname(p).lower() == folder.lower()]
    if local:
        return local[0]
    return min(pool, key=lambda p: (len(p), p))
