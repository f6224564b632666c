"""Index notes: a root index of categories and one page per category, for people to browse."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from ..model import Note
from ..vault import Vault
from ..write.apply import WriteResult
from ..write.generated import generated_text, write_generated

INDEX_FOLDER = "_vaultmem/index"
ROOT = "Memory index"
TITLES = {"person": "People", "project": "Projects", "decision": "Decisions",
          "lesson": "Lessons", "agent": "Agents", "kpi": "KPIs", "fact": "Facts",
          "daily": "Daily notes", "learning": "Learnings", "core": "Core memory",
          "now": "Now", "note": "Other notes"}


def _date(note: Note) -> str:
    """The note's date: daily date, else updated, date or created, else the file's mtime."""
    for value in (note.date, *(note.frontmatter.get(k) for k in ("updated", "date", "created"))):
        if isinstance(value, str) and value[:4].isdigit():
            return value[:10]
    stamp = dt.datetime.fromtimestamp(note.mtime_ns / 1e9) if note.mtime_ns else None
    return stamp.date().isoformat() if stamp else ""


def _status(note: Note) -> str:
    """The note's status property, if it is text."""
    status = note.frontmatter.get("status")
    return status if isinstance(status, str) else ""


def build_indexes(vault: Vault) -> dict[str, str]:
    """Vault path -> text of the root index and of each category page, in a stable order."""
    groups: dict[str, list[Note]] = defaultdict(list)
    for note in vault.notes.values():
        groups[note.type].append(note)
    order = [t for t in TITLES if t in groups] + sorted(set(groups) - set(TITLES))
    pages = {f"{INDEX_FOLDER}/{ROOT}.md": _root(groups, order)}
    for kind in order:
        pages[f"{INDEX_FOLDER}/{_page_name(kind)}.md"] = _page(kind, groups[kind])
    return pages


def _title(kind: str) -> str:
    """The title of a category."""
    return TITLES.get(kind, kind.title())


def _page_name(kind: str) -> str:
    """The file name of a category page (distinct from any note, e.g. ``NOW``)."""
    return f"Index - {_title(kind)}"


def _root(groups: dict[str, list[Note]], order: list[str]) -> str:
    """The root index: one table row per category."""
    rows = ["# Memory index", "", "| Category | Entries | Last update |", "| --- | ---: | --- |"]
    for kind in order:
        last = max((_date(n) for n in groups[kind]), default="") or "-"
        link = f"[[{INDEX_FOLDER}/{_page_name(kind)}\\|{_title(kind)}]]"
        rows.append(f"| {link} | {len(groups[kind])} | {last} |")
    return generated_text("\n".join(rows), {"type": "index"})


def _page(kind: str, notes: list[Note]) -> str:
    """A category page: every entry with its status and date, newest first."""
    rows = [f"# {_title(kind)}", "", f"{len(notes)} entries. Back to [[{INDEX_FOLDER}/{ROOT}|"
            f"{ROOT}]].", ""]
    for note in sorted(notes, key=lambda n: (_date(n) or "0", n.id), reverse=True):
        detail = ", ".join(part for part in (_status(note), _date(note)) if part)
        rows.append(f"- [[{note.id}|{note.title}]]" + (f" — {detail}" if detail else ""))
    return generated_text("\n".join(rows), {"type": "index"})


def write_indexes(vault: Vault, pages: dict[str, str]) -> list[WriteResult]:
    """Write the index pages that changed."""
    return [write_generated(vault, path, text) for path, text in pages.items()]
