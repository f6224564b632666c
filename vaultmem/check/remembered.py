"""Whole-vault results kept in the index: computed once for a state of the vault (its index
generation, its listing and the checks' code), then read back by every later process."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from ..index.store import folder_stamp
from ..model import Finding
from ..vault import Vault

FIELDS = [field.name for field in fields(Finding)]


def remembered(vault: Vault, name: str, compute: Callable[[], Any]) -> Any:
    """What ``compute`` returns (marshal-able data) for the vault as it is now: stored under
    ``name`` the first time, read back while no file and no setting has changed."""
    store = vault.store
    if store is None:
        return compute()
    index = vault.index
    key = f"{index.generation}|{index.listing_digest}|{folder_stamp('check')}"
    stored = store.load_result(name, key)
    if stored is not None:
        return stored
    data = compute()
    if store.generation() == index.generation:  # else another process stored meanwhile: the
        store.save_result(name, key, data)  # rows read may be of a later state than the key
    return data


def remembered_findings(vault: Vault, name: str,
                        compute: Callable[[], Iterable[Finding]]) -> list[Finding]:
    """:func:`remembered` for a list of findings."""
    rows = remembered(vault, name, lambda: [as_row(found) for found in compute()])
    return [Finding(*row) for row in rows]


def as_row(found: Finding) -> tuple[Any, ...]:
    """A finding as it is stored (its fields in order; ``Finding(*row)`` makes it again)."""
    return tuple(getattr(found, key) for key in FIELDS)
