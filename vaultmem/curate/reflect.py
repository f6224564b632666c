"""The nightly maintenance: promote due learnings, roll NOW, list stale, refresh generated notes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from .. import clock
from ..model import Json
from ..vault import Vault
from ..write.apply import WriteResult
from ..write.generated import generated_text, write_generated
from ..write.journal import SECTIONS, append_daily, daily_path, done_title, now_update
from ..write.sections import section_lines
from .lifecycle import stale
from .promote import promote_due

STALE_PATH = "_vaultmem/Stale.md"
MEMORY_LINES = 30
ROLL_TIME = dt.time(23, 59)  # rolled completions close the day they were done


@dataclass
class Reflection:
    """What one ``reflect`` run changed (or would change) and what it wants a person to see."""

    results: list[WriteResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    daily_entries: int = 0

    @property
    def changed(self) -> list[WriteResult]:
        """The writes that changed a file (or would, in a dry run)."""
        return [r for r in self.results if r.action != "unchanged"]

    def to_dict(self) -> Json:
        """JSON-ready data."""
        return {"changed": [r.to_dict() for r in self.changed], "warnings": self.warnings,
                "daily_entries": self.daily_entries}


def _item(line: str) -> str | None:
    """A completion's text without its bullet and checkbox; None for an unchecked box."""
    text = line.strip().lstrip("-*+ ").strip()
    if text.startswith("[ ]"):
        return None
    return text[3:].strip() if text[:3].lower() == "[x]" else text


def roll_completions(vault: Vault, today: dt.date, *, dry_run: bool = False) -> list[WriteResult]:
    """Log an earlier day's NOW completions in that day's note (once) and clear them."""
    if "NOW" not in vault.notes:
        return []
    board = vault.notes["NOW"]
    day = str(board.frontmatter.get("updated") or "")[:10]
    items = [i for i in map(_item, section_lines(vault.note_text("NOW"),
                                                 SECTIONS["completions"])) if i]
    if not items or not day or day >= today.isoformat():
        return []
    when = dt.datetime.combine(dt.date.fromisoformat(day), ROLL_TIME)
    note = vault.notes.get(daily_path(vault, when.date())[:-3])
    logged = {h.text.split(" — ", 1)[-1] for h in note.headings} if note else set()
    results = [append_daily(vault, item, title=done_title(item), when=when, dry_run=dry_run)
               for item in items if done_title(item) not in logged]
    now = dt.datetime.combine(today, clock.now().time().replace(second=0, microsecond=0))
    return results + now_update(vault, "clear", "completions", when=now, dry_run=dry_run)


def stale_note(vault: Vault, today: dt.date) -> str:
    """The stale entries as a generated note (the entries themselves are not touched)."""
    rows = ["# Stale memory", "", "Archive with `vaultmem archive NOTE`, forget with "
            "`vaultmem forget NOTE`, or update the note.", ""]
    rows += [f"- [[{s.id}]]: {s.reason}" for s in stale(vault, today=today)] or ["Nothing."]
    return generated_text("\n".join(rows), {"type": "report"})


def _refresh(vault: Vault, today: dt.date, dry_run: bool) -> list[WriteResult]:
    """Rewrite the stale list, the memory index and the conflicts note where they changed."""
    from ..check.conflicts import find_conflicts
    from ..generate.conflicts_note import REPORT_PATH, conflicts_note
    from ..generate.indexes import build_indexes

    pages = {STALE_PATH: stale_note(vault, today), **build_indexes(vault),
             REPORT_PATH: conflicts_note(find_conflicts(vault, today=today))}
    return [write_generated(vault, rel, text, dry_run=dry_run) for rel, text in pages.items()]


def reflect(vault: Vault, *, days: int = 7, today: dt.date | None = None,
            dry_run: bool = False) -> Reflection:
    """Run the nightly maintenance once; a second run right after changes nothing."""
    today = today or clock.today()
    when = dt.datetime.combine(today, dt.time(3, 0))
    out = Reflection()
    since = (today - dt.timedelta(days=days)).isoformat()
    out.daily_entries = sum(len(n.headings) for n in vault.notes.values()
                            if n.type == "daily" and (n.date or "") >= since)
    out.results += promote_due(vault, when=when, dry_run=dry_run, on_error=out.warnings.append)
    out.results += roll_completions(vault, today, dry_run=dry_run)
    out.results += _refresh(vault, today, dry_run)
    memory = vault.note_text("MEMORY") if "MEMORY" in vault.notes else ""
    if len(memory.splitlines()) > MEMORY_LINES:
        out.warnings.append(f"MEMORY.md has {len(memory.splitlines())} lines (more than "
                            f"{MEMORY_LINES}); move detail into notes and keep links there")
    return out
