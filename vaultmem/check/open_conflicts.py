"""The open conflicts found around a few notes, kept for a state of the vault and brought up to
date from the notes changed since: a context names them without reading the notes around it.

A conflict's notes are every note whose facts or status decide it (the stating notes, the
entity, the decisions, the citing note), so after a change the conflicts are found again around
the changed notes and, as a change can alter a conflict it is not part of:

- the other notes of every kept conflict touching a changed note (one losing a fact may still
  hold between the others);
- what the changed notes' facts are about and the decisions sharing their topics (a conflict
  they join; one about a name no note has is replaced by its id);
- every note of the supersede chains when a changed note is or becomes part of them (whether a
  decision supersedes another can pass through any of them);
- every note with a link written to the name of a note or file that came, went or changed
  role (what it means).

A note whose words changed but not what the checks read of it (its properties, facts, history,
links and their lines: the index tells, see :class:`~vaultmem.index.freshness.changes.Changed`)
alters no conflict. A change of aliases has every conflict found again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable

from ..index.doc import Meta
from ..index.fact_rows import RELATIONS, metas_of
from ..index.link_rows import sources_naming_any
from ..index.store import folder_stamp
from ..model import Finding
from ..vault import Vault
from .conflicts_around import concerned, documents_around, supersede_chains
from .remembered import as_row

NAME = "open conflicts"
MOST_CHANGED = 200  # more notes changed than this: finding them all again costs less
Finder = Callable[[Iterable[tuple[str, Meta]]], list[Finding]]  # the conflicts among notes


def open_conflicts(vault: Vault, today: dt.date, find: Finder, *,
                   whole: bool = False) -> list[Finding] | None:
    """The conflicts ``find`` finds among all notes (in no particular order), as kept for an
    earlier state and brought up to date; None when nothing usable is kept, unless ``whole``:
    then found in every note.

    Kept in the index for the day, the credential rules and the checks' code, and for this
    process's reading of the vault, so a call after no change reads nothing again.
    """
    key = (NAME, today)
    if key not in vault.derived:
        found = _brought_up_to_date(vault, today, find)
        if found is None and whole:
            found = _whole(vault, today, find)
        if found is None:
            return None
        vault.derived[key] = found
    return list(vault.derived[key])


def keep_found(vault: Vault, today: dt.date, found: list[Finding], chains: set[str]) -> None:
    """Keep ``found``, every open conflict of this reading of the vault, and ``chains``, the
    notes of its supersede chains read before the notes ``found`` was found in
    (:func:`chains_now`), for later calls to bring up to date.

    Kept under this reading's generation even when another process stored notes since (the
    rows read may then be of a later state): every note stored after that generation is
    looked at again by the next call, whatever state it was read in; and a note that left
    the chains after they were read is in them as kept, so the next call looks at them all.
    """
    store = vault.store
    if store is not None:
        store.save_result(NAME, _key(vault, today), (
            vault.index.generation, [as_row(f) for f in found], sorted(chains)))


def chains_now(vault: Vault) -> set[str]:
    """Every note of the supersede chains now (read before the notes conflicts are found in:
    see :func:`keep_found`)."""
    return set(supersede_chains(vault))


def _whole(vault: Vault, today: dt.date, find: Finder) -> list[Finding]:
    """Every open conflict, found in every note, and kept."""
    chains = chains_now(vault)
    held = "facts" in vault.__dict__
    found = find(vault.facts)
    if not held:  # a long-running reader keeps no copy of every note's facts for this
        vault.__dict__.pop("facts", None)
    keep_found(vault, today, found, chains)
    return found


def _brought_up_to_date(vault: Vault, today: dt.date, find: Finder) -> list[Finding] | None:
    """The kept conflicts with those the notes changed since may alter found again; None
    when none are kept, an alias changed, or the changes are too many or too old."""
    _ = vault.index  # current first: the changes since are read from it
    store = vault.store
    kept = store.load_result(NAME, _key(vault, today)) if store is not None else None
    if not (isinstance(kept, tuple) and len(kept) == 3):
        return None
    since, rows, chains = kept
    changed = store.changed_since(since) if store is not None else None
    if changed is None or changed.aliases or len(changed.memory) > MOST_CHANGED:
        return None
    found, chains = [Finding(*row) for row in rows], set(chains)
    if changed.notes or changed.named:  # only what the checks read of a note alters one
        touched = changed.memory | sources_naming_any(vault.store, changed.named)
        if len(touched) > MOST_CHANGED:  # a hub renamed: finding them all costs less
            return None
        if touched:
            found, chains = _again(vault, today, find, found, touched, chains)
        keep_found(vault, today, found, chains)
    return found


def _again(vault: Vault, today: dt.date, find: Finder, found: list[Finding],
           changed: frozenset[str], chains: set[str]) -> tuple[list[Finding], set[str]]:
    """``found`` with the conflicts touching the notes a change of ``changed`` may alter
    found again around them (one found again replaces the one kept of the same id: a fact
    conflict about a name no note has lists only the notes stating it), and the supersede
    chains' notes now (``chains`` before: read again only when a changed note is in them)."""
    metas = metas_of(vault.store, changed)
    looked_at = set(changed) | concerned(vault, metas)
    for finding in found:
        if not changed.isdisjoint(finding.notes):
            looked_at.update(finding.notes)
    if not chains.isdisjoint(changed) or _states_relations(metas):
        looked_at |= chains  # the notes of the chains before the change, and after
        chains = chains_now(vault)
        looked_at |= chains
    again = [f for f in find(documents_around(vault, looked_at, today))
             if not looked_at.isdisjoint(f.notes)]
    replaced = {f.id for f in again}
    kept = [f for f in found if looked_at.isdisjoint(f.notes) and f.id not in replaced]
    return kept + again, chains


def _states_relations(metas: dict[str, Meta]) -> bool:
    """True when one of ``metas`` states a supersede link."""
    return any(fact.kind == "relation" and fact.attribute in RELATIONS
               for meta in metas.values() for fact in meta.facts)


def _key(vault: Vault, today: dt.date) -> str:
    """What the kept conflicts depend on besides the notes and files: the day, the credential
    rules and the checks' code."""
    secrets = hashlib.sha256(repr(sorted(vault.config.secret_patterns.items())).encode())
    return f"{today}|{secrets.hexdigest()[:16]}|{folder_stamp('check')}"
