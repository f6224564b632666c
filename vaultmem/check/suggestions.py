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
from ..vault import Vault

TYPO = 85  # a title this alike, as whole names, is the one the link meant (measured on corpora)
PUNCTUATION = re.compile(r"[\W_]+")
# a link to an attachment (``.png``, ``.base``, ``.mp3``), not a note (``Release 1.2``)
FILE_NAME = re.compile(r"\.(?!md$)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,5}$", re.IGNORECASE)
UNWRITTEN = "create the note or fix the link"
CLOSEST = "closest-titles"  # the kept lookups' name in the index


class Fix(NamedTuple):
    """How to fix a broken link; ``found``: a note it likely meant exists."""

    text: str
    found: bool


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

    def fix(self, target: str, source: str = "") -> Fix:
        """How to fix a link to ``target`` in note ``source`` (never the note itself; a link
        to a file, ``Albums.base`` or ``photo.png``, is never fixed with a note)."""
        if FILE_NAME.search(target.split("#", 1)[0]):
            return Fix("add the file or fix the link", False)
        name = target.rsplit("/", 1)[-1].removesuffix(".md").lower()
        aliased = self.aliases.get(name)
        if aliased is not None:
            return Fix(f"{target!r} is an alias of [[{aliased[0]}]]: write "
                       f"[[{aliased[1]}|{target}]]", True)
        hits = [i for i in self.loose.get(loose_key(name), []) if i != source][:2]
        if not hits and loose_key(name) and self.fuzzy:
            if name not in self.closest:
                self.closest[name] = self.titles.closest(name, limit=3, cutoff=TYPO, whole=True)
                self.looked_up += 1
            hits = [i for i in self.closest[name] if i != source][:2]
        if hits:
            return Fix("did you mean " + " or ".join(f"[[{i}]]" for i in hits) + "?", True)
        return Fix(UNWRITTEN, False)
