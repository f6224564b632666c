"""The notes a question names: by title or alias, and a person by a first name no other note
shares (``Marco`` for ``People/Marco Diaz``), as whole words, case aside; not a name the vault
writes far more than it links (:mod:`vaultmem.index.name_use`)."""

from __future__ import annotations

import re

from ...index.lookup import facets, names_like
from ...index.name_use import ordinary_names
from ...vault import Vault
from ..search import BLOCKED_NAMES

MIN_NAME = 3  # characters: shorter titles ("AI", "Q3") are too often words of a question
WORD = re.compile(r"\w+")


def named_in(vault: Vault, question: str) -> dict[str, list[str]]:
    """The notes ``question`` names, with the names it used (case-folded words)."""
    _ = vault.notes  # the index is current first
    folded = spaced_words(question)
    found: dict[str, list[str]] = {}
    firsts: dict[str, set[str]] = {}  # a first word of a title -> the notes it starts
    ordinary = ordinary_names(vault.store)
    for name in names_like(vault.store, question, every_below=BLOCKED_NAMES):
        words = spaced_words(name.name).strip()
        if len(words) >= MIN_NAME and f" {words} " in folded \
                and not ordinary(name.name, name.note):
            found.setdefault(name.note, []).append(words)
        first = words.split(" ", 1)[0]
        if " " in words and len(first) >= MIN_NAME and f" {first} " in folded:
            firsts.setdefault(first, set()).add(name.note)
    for first, person in _first_names(vault, firsts, found).items():
        found.setdefault(person, []).append(first)
    return found


def _first_names(vault: Vault, firsts: dict[str, set[str]],
                 found: dict[str, list[str]]) -> dict[str, str]:
    """The first words that start the title of one person note only, not found by a whole
    name nor a word of one ("Marco" of "Marco Polo Bridge")."""
    whole = " ".join(f" {name} " for names in found.values() for name in names)
    kinds = facets(vault.store, {note for notes in firsts.values() for note in notes})
    people = {first: [note for note in notes if kinds[note].type == "person"]
              for first, notes in firsts.items() if f" {first} " not in whole}
    return {first: notes[0] for first, notes in people.items() if len(notes) == 1}


def mentions(folded: str, names: list[str]) -> bool:
    """True when a text (``folded`` by :func:`spaced_words`) holds one of ``names`` as whole
    words."""
    return any(f" {name} " in folded for name in names)


def spaced_words(text: str) -> str:
    """``text``'s words, case-folded, each between spaces.

    >>> spaced_words("Ask Marco-Diaz!")
    ' ask marco diaz '
    """
    return f" {' '.join(WORD.findall(text.casefold()))} "
