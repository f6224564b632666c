"""The life of an entry: active, stale, archived, in the trash, purged after the retention."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError, VaultmemError
from ..model import Json, Note
from ..read.record import decode
from ..vault import Vault
from ..write.apply import WriteResult, apply
from ..write.entries import history_line
from ..write.files import atomic_write, move, remove
from ..write.locks import file_lock
from ..write.props import set_properties
from ..write.sections import append_to_section
from ..write.trash_record import RECORD, TRASH, entries, record_text

# Plain notes (meetings, hubs) are records of their day, not memory that goes out of date.
ENTRY_TYPES = {"person", "project", "decision", "lesson", "fact", "kpi"}
MANIFEST = RECORD
F = TypeVar("F", bound=Callable[..., Any])


class StillLinked(VaultmemError):
    """Other notes link to the note to forget; --force forgets it anyway."""


class NotInTrash(VaultmemError):
    """The trash holds no note by that name."""


@dataclass
class Stale:
    """An entry that looks out of date, and why."""

    id: str
    reason: str
    updated: str

    def to_dict(self) -> Json:
        """JSON-ready data."""
        return asdict(self)


def _updated(note: Note) -> str:
    """When the entry last changed: its ``updated`` property, else the file's mtime."""
    value = note.frontmatter.get("updated")
    if isinstance(value, str) and value[:4].isdigit():
        return value[:10]
    return dt.datetime.fromtimestamp(note.mtime_ns / 1e9).date().isoformat()


def referenced(vault: Vault, today: dt.date, days: int) -> set[str]:
    """Notes linked from daily notes of the last ``days`` days, NOW, MEMORY or context notes."""
    since = (today - dt.timedelta(days=days)).isoformat()
    citers = [vault.notes[i] for i in ("NOW", "MEMORY") if i in vault.notes]
    citers += [n for n in vault.notes.values() if n.type == "daily" and (n.date or "") >= since]
    # only context notes: the index and report notes link everything (and list the stale)
    folder = vault.config.context_folder.rstrip("/") + "/"
    citers += [decode(entry) for rel, entry in vault.index.generated.items()
               if rel.startswith(folder)]
    found = set()
    for note in citers:
        for link in note.links:
            found.add(link.resolved or "")
            if link.resolved is None:  # generated notes are not resolved on decode
                found.add(vault.index.resolver.resolve(link.target, note.id)[0] or "")
    return found


def stale(vault: Vault, *, today: dt.date | None = None) -> list[Stale]:
    """Entries not updated for ``stale_days`` and not referenced for ``unreferenced_days``, and
    entries whose ``expires`` / ``valid_until`` date has passed."""
    today = today or clock.today()
    cutoff = (today - dt.timedelta(days=vault.config.stale_days)).isoformat()
    recent = referenced(vault, today, vault.config.unreferenced_days)
    found = []
    for note in vault.notes.values():
        if note.type not in ENTRY_TYPES or note.frontmatter.get("status") == "archived":
            continue
        ends = next((str(note.frontmatter[k])[:10] for k in ("expires", "valid_until")
                     if note.frontmatter.get(k)), "")
        updated = _updated(note)
        if ends and ends < today.isoformat():
            found.append(Stale(note.id, f"expired on {ends}", updated))
        elif updated < cutoff and note.id not in recent:
            found.append(Stale(note.id, f"not updated since {updated} and not referenced "
                                        f"in the last {vault.config.unreferenced_days} days",
                               updated))
    return found


def archive(vault: Vault, name: str, *, when: dt.datetime | None = None,
            dry_run: bool = False, caller: Caller = LOCAL) -> WriteResult:
    """Set ``status: archived`` (the note stays where it is, so links keep working)."""
    note = vault.note(name)
    day = (when or clock.now()).date()

    def change(text: str | None) -> str | None:
        if text is None:
            raise UsageError(f"{note.path} disappeared; nothing was written")
        text = set_properties(text, {"status": "archived"})
        return append_to_section(text, "History", [history_line(day, "archived")])

    return apply(vault, note.path, change, action="updated", dry_run=dry_run, caller=caller)


def _locked(func: F) -> F:
    """Run ``func`` holding the trash record's lock (two forgets at once keep both records);
    a dry run or a listing takes none (reading never leaves a lock file in the vault)."""

    @functools.wraps(func)
    def wrapper(vault: Vault, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("dry_run") or not kwargs.get("purge", True):
            return func(vault, *args, **kwargs)
        with file_lock(vault.root, MANIFEST):
            return func(vault, *args, **kwargs)

    return cast(F, wrapper)


def _manifest(vault: Vault) -> dict[str, Any]:
    """The trash record: trash file name -> where it came from and when."""
    path = vault.root / MANIFEST
    return entries(path.read_text(encoding="utf-8") if path.is_file() else None)


def _save_manifest(vault: Vault, data: dict[str, Any]) -> None:
    """Store the trash record atomically."""
    (vault.root / TRASH).mkdir(exist_ok=True)
    atomic_write(vault.root / MANIFEST, record_text(data).encode("utf-8"))


@_locked
def forget(vault: Vault, name: str, *, force: bool = False, when: dt.datetime | None = None,
           dry_run: bool = False) -> str:
    """Move a note to the vault's ``.trash/`` (Obsidian's own), recording where it came from."""
    note = vault.note(name)
    linking = sorted({source for source, _ in vault.backlinks(note.id)})
    if linking and not force:
        raise StillLinked(f"{len(linking)} note(s) link to [[{note.id}]] (" +
                          ", ".join(f"[[{i}]]" for i in linking[:5]) + "); forgetting it breaks "
                          "those links; add --force to forget it anyway")
    records = _manifest(vault)
    stem, number = Path(note.path).stem, 1
    trash_name = f"{stem}.md"
    while trash_name in records or (vault.root / TRASH / trash_name).exists():
        number += 1
        trash_name = f"{stem} {number}.md"
    if dry_run:
        return f"{TRASH}/{trash_name}"
    move(vault.root, note.path, f"{TRASH}/{trash_name}")
    records[trash_name] = {"from": note.path,
                           "deleted": (when or clock.now()).date().isoformat()}
    _save_manifest(vault, records)
    vault.refresh()
    return f"{TRASH}/{trash_name}"


@_locked
def restore(vault: Vault, name: str, *, dry_run: bool = False) -> str:
    """Put a forgotten note back where it was."""
    records = _manifest(vault)
    wanted = name.removesuffix(".md").casefold()
    exact = [k for k in records if k.removesuffix(".md").casefold() == wanted]
    found = exact or sorted(k for k, v in records.items() if wanted in (
        v["from"].removesuffix(".md").casefold(), Path(v["from"]).stem.casefold()))
    if not found:
        raise NotInTrash(f"no note {name!r} in {TRASH}/; `vaultmem trash` lists what is there")
    if len(found) > 1:
        raise UsageError(f"{name!r} is more than one note in the trash; restore one by its "
                         "trash name: " + ", ".join(found))
    match = found[0]
    origin = str(records[match]["from"])
    if (vault.root / origin).exists():
        raise UsageError(f"{origin} exists again; move or rename it before restoring")
    if dry_run:
        return origin
    move(vault.root, f"{TRASH}/{match}", origin)
    del records[match]
    _save_manifest(vault, records)
    vault.refresh()
    return origin


@_locked
def trash(vault: Vault, *, purge: bool = False, today: dt.date | None = None,
          dry_run: bool = False) -> list[Json]:
    """What the trash holds (oldest first); ``purge`` deletes what is past the retention."""
    today = today or clock.today()
    records = _manifest(vault)
    limit = (today - dt.timedelta(days=vault.config.trash_days)).isoformat()
    rows = [{"name": k, "from": v["from"], "deleted": v["deleted"],
             "purged": purge and v["deleted"] < limit}
            for k, v in sorted(records.items(), key=lambda kv: (kv[1]["deleted"], kv[0]))]
    if purge and not dry_run:
        for row in rows:
            if row["purged"]:
                remove(vault.root, f"{TRASH}/{row['name']}")
                del records[row["name"]]
        _save_manifest(vault, records)
    return rows
