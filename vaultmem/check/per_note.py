"""Link findings kept note by note: after a change, only the notes it touched are checked again.

A note's link findings depend on its own links, on which files the vault holds (what a link
resolves to, the titles a fix is looked up among), on the aliases (a fix can be an alias) and on
the headings and blocks of the notes its ``#subpath`` links name. So while the files and the
aliases stay the same, the findings of an earlier state are kept for every note but those
stored since and those with a subpath link to one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from ..index.link_rows import subpath_sources
from ..index.store import folder_stamp
from ..model import Finding
from ..vault import Vault
from .remembered import as_row

Check = Callable[[Collection[str] | None], Iterable[Finding]]  # of these notes (None: all)
Rows = dict[str, list[tuple[Any, ...]]]  # each note's findings as stored


def findings_per_note(vault: Vault, name: str, check: Check, *, subpaths: bool) -> list[Finding]:
    """What ``check`` finds in every note, sorted by note, made again only for the notes
    changed since the last state it was kept for (``subpaths``: it checks subpath links)."""
    store, generation = vault.store, vault.index.generation  # scanned before the key is read
    if store is None:
        return list(check(None))
    key = f"{store.files_key()}|{folder_stamp('')}|{folder_stamp('check')}"
    kept = store.load_result(name, key)
    found = _brought_up_to_date(vault, kept, check, subpaths=subpaths)
    if found is None:
        found = _grouped(check(None))
    if store.generation() == generation:  # else the rows read may be of a later state
        store.save_result(name, key, (generation, found))
    return [Finding(*row) for note in sorted(found) for row in found[note]]


def _brought_up_to_date(vault: Vault, kept: object, check: Check, *,
                        subpaths: bool) -> Rows | None:
    """The ``kept`` findings with those of the notes changed since checked again; None when
    nothing usable is kept (another state of the files or aliases, or changes too old)."""
    if not (isinstance(kept, tuple) and len(kept) == 2):
        return None
    generation, found = kept
    store = vault.index.store
    changed = store.changed_since(generation)
    if changed is None or changed.aliases:
        return None
    again = set(changed.notes)
    if subpaths:
        again |= subpath_sources(store, changed.notes)
    found = {note: rows for note, rows in found.items() if note not in again}
    found.update(_grouped(check(again)) if again else {})
    return found


def _grouped(found: Iterable[Finding]) -> Rows:
    """Findings as stored rows, grouped by their (first) note."""
    rows: Rows = {}
    for finding in found:
        rows.setdefault(finding.notes[0], []).append(as_row(finding))
    return rows
