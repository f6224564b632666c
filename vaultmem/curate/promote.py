"""Promote learning keys seen three times that no entry promoted yet (entries written by hand)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError, VaultmemError
from ..vault import Vault
from ..write.apply import WriteResult, apply
from .learn import KINDS, PROMOTE_AT, Logged, lesson_link, promote, promotion_target
from .learning_files import Entry, entries_of, first_logged, of_key, seen, set_fields

RULE_SECTIONS = ("Learning", "Action", "Context")


def _rule(lines: list[str], entry: Entry, starts: list[int]) -> str:
    """The entry's ``### Learning`` text (else Action, else Context), joined into one line."""
    end = min([s for s in starts if s > entry.start] or [len(lines)])
    body = lines[entry.start + 1:end]
    for name in RULE_SECTIONS:
        heads = [i for i, line in enumerate(body) if line.strip() == f"### {name}"]
        if heads:
            part = []
            for line in body[heads[0] + 1:]:
                if line.startswith("#"):
                    break
                part.append(line.strip())
            return " ".join(p for p in part if p)
    return entry.id


def due_keys(text: str) -> list[tuple[str, int, list[Entry]]]:
    """(key, count, entries) of each key seen ``PROMOTE_AT`` times with an unpromoted entry."""
    entries = entries_of(text)
    found = []
    for key in sorted({e.value("Pattern-Key") for e in entries} - {""}):
        mine = of_key(entries, key)
        count = seen(mine)
        if count >= PROMOTE_AT and any(e.value("Status") != "promoted" for e in mine):
            found.append((key, count, mine))
    return found


def _logged(vault: Vault, rel: str, key: str, count: int, mine: list[Entry]) -> Logged:
    """What a promotion of ``key`` needs to know, as if its last entry had just been logged."""
    logged = Logged(key, rel, *promotion_target(vault, key, None, None, mine))
    logged.count, logged.sources = count, [e.id for e in mine]
    logged.first = first_logged(mine)
    logged.again = any(e.value("Status") == "promoted" for e in mine)
    logged.link = lesson_link(vault, rel, logged.lesson)
    return logged


def _marking(key: str, marks: dict[str, str]) -> Callable[[str | None], str]:
    """The change that sets ``marks`` on every entry of ``key``."""

    def change(old: str | None) -> str:
        if old is None:
            raise UsageError("the learnings file disappeared; nothing was promoted")
        return set_fields(old, of_key(entries_of(old), key), marks)

    return change


def promote_due(vault: Vault, *, when: dt.datetime | None = None, dry_run: bool = False,
                on_error: Callable[[str], None] | None = None,
                caller: Caller = LOCAL) -> list[WriteResult]:
    """Promote every due key of the learnings files; nothing is due the second time.

    A key whose lesson cannot be written raises, or with ``on_error`` is reported and skipped.
    """
    when, results = when or clock.now(), []
    folder = vault.config.folders.get("learning", "Learnings")
    for stem, _ in KINDS.values():
        rel = f"{folder}/{stem}.md".removeprefix("/")
        if rel[:-3] not in vault.notes:
            continue
        text = vault.note_text(rel[:-3])
        lines, starts = text.splitlines(), [e.start for e in entries_of(text)]
        for key, count, mine in due_keys(text):
            logged = _logged(vault, rel, key, count, mine)
            marks = {"Count": str(count), "Status": "promoted", "Promoted-To": logged.link or ""}
            try:  # the lesson first: entries are marked promoted only once it holds the rule
                lesson = promote(vault, logged, _rule(lines, mine[-1], starts), when, dry_run,
                                 caller)
            except VaultmemError as exc:
                if on_error is None:
                    raise
                on_error(f"{key} in {rel} was not promoted: {exc}")
                continue
            results += [apply(vault, rel, _marking(key, marks), action="updated",
                              dry_run=dry_run,  # its lesson written just before, unless a dry run
                              caller=caller.expecting(logged.lesson)), lesson]
    return results
