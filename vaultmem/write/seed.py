"""The council-memory ``memory_op.py`` operations (``write --fact``, ``read``) on vault notes."""

from __future__ import annotations

import datetime as dt

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError
from ..model import Json
from ..vault import Vault
from .apply import WriteResult, apply, guard
from .sections import append_to_section, section_lines

MEMORY_PATH = "MEMORY.md"
CATEGORIES = {"decisions": "Decisions", "facts": "Facts", "lessons": "Lessons", "kpis": "KPIs"}
NEW_MEMORY = "---\ntype: core\n---\n# MEMORY\n"


def write_fact(vault: Vault, fact: str, category: str, *, when: dt.datetime | None = None,
               dry_run: bool = False, caller: Caller = LOCAL) -> WriteResult:
    """Append ``- DATE: fact`` to the category's section of MEMORY.md (created if missing)."""
    title = CATEGORIES.get(category.lower())
    if title is None:
        raise UsageError(f"unknown category {category!r}; use {', '.join(CATEGORIES)}")
    if not fact.strip():
        raise UsageError("the fact is empty")
    guard(vault, fact, where="MEMORY.md")
    day = (when or clock.now()).date().isoformat()
    line = f"- {day}: {' '.join(fact.split())}"

    def change(old: str | None) -> str | None:
        base = old if old is not None else NEW_MEMORY
        if line in section_lines(base, title):
            return None  # the same fact on the same day is written once
        return append_to_section(base, title, [line])

    return apply(vault, MEMORY_PATH, change, action="appended", dry_run=dry_run, caller=caller)


def read_memory(vault: Vault) -> Json:
    """MEMORY.md's text and its category lists (what ``memory_op.py read`` printed)."""
    path = vault.root / MEMORY_PATH
    # as the scan reads it: bytes that are not UTF-8 are shown replaced, not a crash
    text = path.read_bytes().decode("utf-8-sig", "replace") if path.is_file() else ""
    categories = {key: [line[2:] for line in section_lines(text, title) if line.startswith("- ")]
                  for key, title in CATEGORIES.items()}
    return {"path": MEMORY_PATH, "text": text, "categories": categories}
