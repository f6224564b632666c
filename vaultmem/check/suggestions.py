"""Fixes for links that reach no note: the note that has the name as an alias, the note whose
title is the name with other punctuation, or the titles most like it."""

from __future__ import annotations

import functools
import hashlib
import re
from typing import NamedTuple

from ..index.lookup import every_alias, source_ids
from ..index.store import folder_stamp
from ..similar_names import NameIndex
from ..text import cjk
from ..vault import Vault

TYPO = 85  # a title this alike, as whole names, may be the one the link meant
FUZZY_SHORTEST = 5  # letters of a name looked up by spelling: shorter ones are other words
TYPO_SHORTEST, SURE_TYPO = 10, 85  # a name this long and this alike is surely a typo
PUNCTUATION = re.compile(r"[\W_]+")
EXTENSION = re.compile(r"\.([A-Za-z0-9]{1,5})$")
# A link ending in one of these (or in an extension of the vault's own attachments) is to a
# file: Obsidian's own formats, and what people attach most. Any other dotted name is a note
# name (``Release 1.2``, ``dv.table``, ``DataArray.map``, ``Node.js``).
FILE_FORMATS = frozenset({
    "base", "canvas", "pdf", "avif", "bmp", "gif", "jpeg", "jpg", "png", "svg", "webp", "heic",
    "tif", "tiff", "ico", "flac", "m4a", "mp3", "ogg", "wav", "aac", "webm", "3gp", "mkv", "mov",
    "mp4", "ogv", "avi", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf",
    "epub", "zip", "gz", "tar", "7z", "rar"})
# Names of files people write about more than attach (``[[package.json]]``, ``index.html``):
# a link to one is to a file only in a vault keeping files of that format (Obsidian otherwise
# makes a note of the name when it is clicked), an embed always.
WRITTEN_ABOUT = frozenset({"csv", "tsv", "txt", "json", "xml", "yml", "yaml", "toml", "html",
                           "htm", "ipynb"})
CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
UNWRITTEN = "create the note or fix the link"
CLOSEST = "closest-titles"  # the kept lookups' name in the index


class Fix(NamedTuple):
    """How to fix a broken link; ``found``: a note it likely meant exists; ``file``: the link
    names a file, not a note; ``guess``: the note was found only by a like spelling, which
    is as often another word (``Liver`` and ``Sliver``) as a typo."""

    text: str
    found: bool
    file: bool = False
    guess: bool = False


def typo_of(name: str, title: str) -> bool:
    """True when ``name`` is surely ``title`` mistyped: in letters, a letter or two off,
    neither holding the other, and long, or one word off in a name of several (``Lucy Tn``).
    A short word a letter off is as often another word (``Liver``, ``Sliver``), and one CJK
    character another word (``阿里云`` is not ``阿里云盘``).

    >>> typo_of("Eigenvectr", "Eigenvector"), typo_of("Liver", "Sliver")
    (True, False)
    >>> typo_of("Lucy Tn", "Lucy Tan"), typo_of("胸部肌肉训练的技术细节", "肩部肌肉训练的技术细节")
    (True, False)
    """
    from rapidfuzz import fuzz  # only a looked-up title needs it

    mine, theirs = loose_key(name), loose_key(title)
    if not (mine.isascii() and theirs.isascii()) or mine in theirs or theirs in mine \
            or fuzz.ratio(mine, theirs) < SURE_TYPO or _a_word_apart(name, title):
        return False
    words = [name.casefold().split(), title.casefold().split()]
    one_word_off = (len(words[0]) == len(words[1]) > 1
                    and sum(a != b for a, b in zip(*words, strict=True)) == 1)
    return len(mine) >= TYPO_SHORTEST or one_word_off


def _a_word_apart(name: str, title: str) -> bool:
    """True when one name is the other with a whole word more, camelCase words too: another
    name, not a typo (``date.toFormat`` is not ``dateformat``).

    >>> _a_word_apart("date.toFormat", "dateformat"), _a_word_apart("Eigenvectr", "Eigenvector")
    (True, False)
    """
    for longer, shorter in ((name, title), (title, name)):
        words = [loose_key(w) for w in PUNCTUATION.split(CAMEL.sub(" ", longer)) if w]
        if len(words) > 1 and any("".join(words[:i] + words[i + 1:]) == loose_key(shorter)
                                  for i in range(len(words))):
            return True
    return False


def letters(key: str) -> int:
    """How long a name is to tell a typo: a CJK character counts as two letters.

    >>> letters("bash"), letters("实分析")
    (4, 6)
    """
    return len(key) + sum(len(run) for run in cjk().findall(key))


def loose_key(name: str) -> str:
    """A name without case, spaces or punctuation (``--Real Analysis--``: ``realanalysis``).

    >>> loose_key("--实分析--"), loose_key("Bash &&")
    ('实分析', 'bash')
    """
    return PUNCTUATION.sub("", name.casefold())


class Suggester:
    """Fixes for broken links of one vault (lookups shared by the many links to one name)."""

    def __init__(self, vault: Vault, *, fuzzy: bool = True) -> None:
        self.vault = vault
        self.fuzzy = fuzzy  # False: aliases and names with other punctuation only (cheap)
        self.looked_up = 0  # titles looked up in this run, not found among the kept ones

    @functools.cached_property
    def closest(self) -> dict[str, list[str]]:
        """The titles most like each name looked up: kept in the index while the vault's titles
        and this code stay the same (an edit that adds no note needs no lookup again)."""
        store = self.vault.store
        kept = store.load_result(CLOSEST, self._titles_key) if store is not None else None
        return dict(kept) if isinstance(kept, dict) else {}

    @functools.cached_property
    def _titles_key(self) -> str:
        """What the kept lookups depend on: every title, the cutoff and the matching code."""
        titles = hashlib.blake2b("\n".join(self.ids).encode("utf-8", "surrogatepass"),
                                 digest_size=16).hexdigest()
        return f"{titles}|{TYPO}|{folder_stamp('')}|{folder_stamp('check')}"

    def keep(self) -> None:
        """Store the lookups of this run with the kept ones, when there are new ones."""
        if self.looked_up and self.vault.store is not None:
            self.vault.store.save_result(CLOSEST, self._titles_key, self.closest)

    @functools.cached_property
    def aliases(self) -> dict[str, tuple[str, str]]:
        """(id, title) of the note each lower-cased alias names (the first alias of a note wins
        over its later ones, the later note over earlier ones)."""
        return {alias.lower(): (note_id, note_id.rsplit("/", 1)[-1]) for note_id, aliases
                in every_alias(self.vault.store).items() for alias in reversed(aliases)}

    @functools.cached_property
    def extensions(self) -> frozenset[str]:
        """The file extensions a link to a file ends in: :data:`FILE_FORMATS` and those of
        the vault's attachments (lower case)."""
        return FILE_FORMATS | {match.group(1).lower() for path in self.vault.index.attachments
                               if (match := EXTENSION.search(path))}

    def names_file(self, target: str, *, embed: bool = False) -> bool:
        """True when ``target`` (a link target, an ``embed``) is a file other than a note.

        >>> import tempfile
        >>> hints = Suggester(Vault(tempfile.mkdtemp(), use_cache=False))
        >>> [hints.names_file(t) for t in ("Albums.base", "a.PNG#page=2", "dv.table", "v1.2")]
        [True, True, False, False]
        """
        match = EXTENSION.search(target.split("#", 1)[0])
        kinds = self.extensions | WRITTEN_ABOUT if embed else self.extensions
        return match is not None and match.group(1).lower() in kinds

    @functools.cached_property
    def ids(self) -> list[str]:
        """Every source note's id."""
        return source_ids(self.vault.store)

    @functools.cached_property
    def loose(self) -> dict[str, list[str]]:
        """Source note ids by the loose key of their title."""
        found: dict[str, list[str]] = {}
        for note_id in self.ids:
            found.setdefault(loose_key(note_id.rsplit("/", 1)[-1]), []).append(note_id)
        return found

    @functools.cached_property
    def titles(self) -> NameIndex:
        """Every source note's title (its file name), for fuzzy lookup."""
        return NameIndex({note_id: [note_id.rsplit("/", 1)[-1]] for note_id in self.ids})

    @functools.cached_property
    def folders(self) -> frozenset[str]:
        """Every folder of the vault holding a note or file, lower case."""
        paths = [*self.ids, *self.vault.index.attachments]
        return frozenset(path.lower().rsplit("/", 1)[0] for path in paths if "/" in path)

    def kept_elsewhere(self, target: str, *, embed: bool = False) -> str:
        """Why a file ``target`` (a link path, an ``embed``) may well exist where the owner
        keeps the vault though this copy lacks it, or "" (a folder ``.gitignore`` keeps out of
        git; a path from the root of a published site, whose folder the vault has not)."""
        config = self.vault.config
        path = target.split("#", 1)[0].strip()
        inner = path.lstrip("/").lower()
        ignored = [folder.lower() for folder in config.git_ignored]
        if any(inner.startswith(folder + "/") for folder in ignored) or (
                "/" not in inner and self.names_file(path, embed=embed)
                and config.attachment_folder.lower() in ignored):
            return "this copy lacks what .gitignore keeps out of git: the file may be there"
        if path.startswith("/") and inner.rpartition("/")[0] not in self.folders:
            return "a path from a published site's root, not a folder of this vault"
        return ""

    def fix(self, target: str, source: str = "", *, embed: bool = False) -> Fix:
        """How to fix a link (an ``embed``) to ``target`` in note ``source`` (never the note
        itself, by its title or its alias; a link to a file, ``Albums.base`` or
        ``photo.png``, is never fixed with a note)."""
        if self.names_file(target, embed=embed):
            return Fix("add the file or fix the link", False, file=True)
        name = target.rsplit("/", 1)[-1].removesuffix(".md").lower()
        aliased = self.aliases.get(name)
        if aliased is not None and aliased[0] != source:  # a note's own alias: a self-reference
            return Fix(f"{target!r} is an alias of [[{aliased[0]}]]: write "
                       f"[[{aliased[1]}|{target}]]", True)
        hits = [i for i in self.loose.get(loose_key(name), []) if i != source][:2]
        if hits:
            return Fix("did you mean " + " or ".join(f"[[{i}]]" for i in hits) + "?", True)
        if letters(loose_key(name)) >= FUZZY_SHORTEST and self.fuzzy:
            if name not in self.closest:
                self.closest[name] = self.titles.closest(name, limit=3, cutoff=TYPO, whole=True)
                self.looked_up += 1
            hits = [i for i in self.closest[name] if i != source][:2]
        if hits:
            sure = typo_of(target.rsplit("/", 1)[-1], hits[0].rsplit("/", 1)[-1])
            return Fix("did you mean " + " or ".join(f"[[{i}]]" for i in hits) + "?", True,
                       guess=not sure)
        return Fix(UNWRITTEN, False)
