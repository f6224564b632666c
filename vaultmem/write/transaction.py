"""Changes to several notes made as one: all of them or none, each kept in the History so that
``vaultmem undo`` can put every byte back.

A transaction is written to ``.vaultmem/history/<when>-<id>.json`` (every file's text before and
after, and where it moves) before any note is touched, marked ``pending``. Then each note is
rewritten under its lock, compared and swapped against the text the change was planned on (an
editor or another agent that saved it meanwhile stops the transaction), and moved when it is
renamed; last the record is marked ``done``. If anything stops it, what was done is put back and
the record marked ``rolled back``; if the process dies, the next transaction (or undo) finds the
``pending`` record and puts back what it had done first (:func:`recover`). Undo puts back the
last ``done`` transaction, refusing when a note it changed was changed since.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import clock
from ..caller import Caller
from ..errors import ChangedMeanwhile, NothingToUndo
from .apply import OutsideScope, WriteRefused
from .files import atomic_write, drop_twin, make_folder, move, remove, update
from .locks import file_lock
from .note_file import read_text

HISTORY = ".vaultmem/history"
PENDING, DONE, ROLLED_BACK, UNDONE = "pending", "done", "rolled back", "undone"
STATE = re.compile(r'"state": ("[a-z ]+")')
HEAD_CHARS = 4096  # a record's "what", "when" and "state" come first


@dataclass(frozen=True)
class FileChange:
    """One note's part of a transaction: its text before and after, and where it moves."""

    path: str
    before: str | None  # None: the file is not there yet (the trash record of a first merge)
    after: str
    moved_to: str | None = None

    @property
    def final(self) -> str:
        """Where the note is once the change is made."""
        return self.moved_to or self.path


@dataclass(frozen=True)
class Record:
    """A transaction as the History keeps it."""

    name: str  # its file name in HISTORY
    what: str  # the command that made it, as a person reads it
    when: str
    state: str
    changes: tuple[FileChange, ...]


def in_scope(caller: Caller, changes: list[FileChange]) -> None:
    """WriteRefused unless ``caller`` may write every note the changes touch, where it is and
    where it moves (a token's folders hold them all; the vault's trash is everyone's)."""
    if not caller.may_write:
        raise WriteRefused(f"token {caller.name!r} may only read; nothing was changed")
    for path in [p for change in changes for p in (change.path, change.moved_to)
                 if p and not p.startswith(".trash/")]:
        if not caller.may_touch(path):
            raise OutsideScope(f"{path} is outside the folders this token may write "
                               f"({', '.join(caller.folders)}); nothing was changed: ask for a "
                               "token that covers every note the change touches")


def commit(root: Path, changes: list[FileChange], *, what: str) -> Record:
    """Make ``changes`` as one transaction (see the module docstring); ChangedMeanwhile, with
    nothing changed, when a note is not the text it was planned on."""
    with file_lock(root, HISTORY):
        recover(root, locked=True)
        when = clock.now().isoformat(timespec="seconds")
        name = f"{when.replace(':', '')}-{secrets.token_hex(3)}.json"
        record = Record(name, what, when, PENDING, tuple(changes))
        _save(root, record)
        done: list[FileChange] = []
        try:
            for change in changes:
                done.append(change)  # before it starts: a half-made change is put back too
                _forward(root, change)
        except BaseException:
            _back(root, done)
            _save(root, _with_state(record, ROLLED_BACK))
            raise
        return _save(root, _with_state(record, DONE))


def undo(root: Path, *, dry_run: bool = False) -> Record:
    """Put back the last transaction done and not undone (its record then says ``undone``);
    NothingToUndo when there is none, ChangedMeanwhile when a note it changed was changed
    since (nothing is put back then)."""
    with file_lock(root, HISTORY):
        recover(root, locked=True)
        record = next(reversed(history(root, states=frozenset({DONE}))), None)
        if record is None:
            raise NothingToUndo("nothing to undo: no rename or merge is recorded in "
                                f"{HISTORY}/ that was not undone")
        for change in record.changes:
            _expect(root, change.final, change.after, what="undo")
            if change.moved_to and (root / change.path).exists():
                raise ChangedMeanwhile(f"{change.path} exists again; nothing was changed: move "
                                       "it away, then undo")
        if not dry_run:
            _back(root, list(record.changes))
            record = _save(root, _with_state(record, UNDONE))
        return record


def recover(root: Path, *, locked: bool = False) -> list[Record]:
    """Put back what a transaction that never finished (``pending``) had done; the records
    rolled back."""
    if not locked:
        with file_lock(root, HISTORY):
            return recover(root, locked=True)
    found = history(root, states=frozenset({PENDING}))
    for record in found:
        _back(root, [c for c in record.changes if _made(root, c)])
        _save(root, _with_state(record, ROLLED_BACK))
    return found


def history(root: Path, *, states: frozenset[str] | None = None) -> list[Record]:
    """Every recorded transaction (those in ``states`` only, when given), oldest first; a
    record's state is read from its head, so only those wanted are read whole."""
    folder = root / HISTORY
    names = sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []
    wanted = [name for name in names if states is None or _state_of(folder / name) in states]
    return [_loaded(name, json.loads((folder / name).read_text(encoding="utf-8")))
            for name in wanted]


def _state_of(path: Path) -> str | None:
    """A record's state, from the start of its file (``_save`` writes it before the texts)."""
    with path.open(encoding="utf-8") as handle:
        head = handle.read(HEAD_CHARS)
    found = STATE.search(head)
    return json.loads(found.group(1)) if found else None


def _forward(root: Path, change: FileChange) -> None:
    """Rewrite one note as planned (compare and swap against ``before``), then move it."""
    update(root, change.path, _swap(change.path, change.before, change.after))
    if change.moved_to:
        move(root, change.path, change.moved_to)


def _back(root: Path, done: list[FileChange]) -> None:
    """Put back the changes of ``done`` (the last first): move back, then the text before."""
    for change in reversed(done):
        if change.moved_to and (root / change.path).exists():
            drop_twin(root, change.path, change.moved_to)  # a move cut short: both names
        if change.moved_to and (root / change.moved_to).exists() and \
                not (root / change.path).exists():
            move(root, change.moved_to, change.path)
        if _current(root, change.path) == change.after and change.before is None:
            remove(root, change.path)  # a file the change made (only ever in the trash)
        elif _current(root, change.path) == change.after:
            update(root, change.path, _swap(change.path, change.after, change.before))


def _made(root: Path, change: FileChange) -> bool:
    """Whether a pending change got as far as its note's new text or place."""
    moved = bool(change.moved_to) and (root / change.final).exists()
    return moved or _current(root, change.path) == change.after != change.before


def _current(root: Path, rel: str) -> str | None:
    """The text of note ``rel``, one in the vault's ``.trash/`` too (None: no such file)."""
    if rel.startswith(".trash/"):
        path = root / rel
        return path.read_bytes().decode("utf-8") if path.is_file() else None  # CRLF kept
    return read_text(root, rel)


def _swap(rel: str, expected: str | None, new: str | None) -> Any:
    """The change that writes ``new`` over ``expected`` (None: no file), refusing any other
    text."""
    def change(text: str | None) -> str | None:
        if text != expected:
            raise ChangedMeanwhile(f"{rel} was changed since the change was planned; nothing "
                                   "was changed: run the command again")
        return new
    return change


def _expect(root: Path, rel: str, text: str, *, what: str) -> None:
    """ChangedMeanwhile unless note ``rel`` holds ``text``."""
    if _current(root, rel) != text:
        raise ChangedMeanwhile(f"{rel} was changed after the change {what} would put back; "
                               "nothing was changed")


def _with_state(record: Record, state: str) -> Record:
    """``record`` in ``state``."""
    return dataclasses.replace(record, state=state)


def _save(root: Path, record: Record) -> Record:
    """Write the record to the History (atomically, durably); the record."""
    folder = root / HISTORY
    make_folder(folder)
    data = {"what": record.what, "when": record.when, "state": record.state,
            "changes": [asdict(change) for change in record.changes]}
    atomic_write(folder / record.name, json.dumps(data, ensure_ascii=False, indent=1).encode())
    return record


def _loaded(name: str, data: dict[str, Any]) -> Record:
    """A record as read back from the History."""
    return Record(name, data["what"], data["when"], data["state"],
                  tuple(FileChange(**change) for change in data["changes"]))

