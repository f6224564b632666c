"""Whether notes are linked with each other in the graph: one links another, or they share a
note few others link with. What tells two notes about one thing from two notes that merely
share a word (an alias ``CD`` on *Compact disc* and on *Continuous delivery*)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ..index.graph_rows import degrees
from ..index.lookup import neighbour_notes
from ..index.store import Store
from ..index.vocabulary import index_terms, particular_terms
from ..vault import Vault

SMALL_HUB = 30  # a shared neighbour linked with more notes (an index of imports) says little
RARE_SHARE, RARE_AT_LEAST = 0.005, 20  # passages holding a term particular to a few notes
SHARED_TERMS = 3  # particular terms two notes must share to say alike things ...
SHARED_SHARE = 0.2  # ... making at least this share of the smaller note's


def linked_together(store: Store, ids: list[str]) -> bool:
    """True when two of ``ids`` link each other, or share a neighbour linked with at most
    ``SMALL_HUB`` notes."""
    near = {note_id: set().union(*neighbour_notes(store, note_id)) for note_id in ids}
    shared: set[str] = set()
    for first, second in combinations(ids, 2):
        if second in near[first] or first in near[second]:
            return True
        shared |= near[first] & near[second]
    return any(degree <= SMALL_HUB for degree in degrees(store, shared).values())


def alike_in_words(ids: list[str], words: Callable[[str], set[str]]) -> bool:
    """True when two of ``ids`` share ``SHARED_TERMS`` or more of the terms particular to
    each (``words``), and at least ``SHARED_SHARE`` of the fewer.

    >>> terms = {"a": {"eigen", "matrix", "basis", "span"}, "b": {"eigen", "matrix", "basis"}}
    >>> alike_in_words(["a", "b"], terms.__getitem__)
    True
    """
    for first, second in combinations(ids, 2):
        mine, theirs = words(first), words(second)
        common = len(mine & theirs)
        if common >= SHARED_TERMS and common >= SHARED_SHARE * min(len(mine), len(theirs)):
            return True
    return False


def particular_words(vault: Vault) -> Callable[[str], set[str]]:
    """A note's terms particular to it (in no other note's passage of the same text, held by
    few passages of the vault), its title's aside; looked up once per note."""
    known: dict[str, int] = {}
    found: dict[str, set[str]] = {}

    def words(note_id: str) -> set[str]:
        if note_id not in found:
            title = index_terms(vault.store, note_id.rsplit("/", 1)[-1])
            found[note_id] = particular_terms(
                vault.store, note_id, most_share=RARE_SHARE, at_least=RARE_AT_LEAST,
                known=known) - title
        return found[note_id]
    return words
