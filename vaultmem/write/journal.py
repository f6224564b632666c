"""The daily log (append-only entries) and the NOW board (the one overwritable note)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from .. import clock
from ..errors import UsageError, VaultmemError
from ..model import Note
from ..moment import format_moment
from ..text import stamp
from ..vault import Vault
from .apply import WriteResult, apply, guard
from .author import author_note
from .entries import link_to
from .props import set_property
from .sections import append_text, append_to_section, replace_section, section_lines
from .templates import render, template_text

NOW_PATH = "NOW.md"


class ItemNotFound(VaultmemError):
    """The NOW board has no such item."""
SECTIONS = {"task": "Current Task", "priorities": "Priorities", "blockers": "Blockers",
            "completions": "Today's Completions"}
TITLE_MAX = 60


def daily_path(vault: Vault, day: dt.date) -> str:
    """The vault path of the daily note for ``day`` (Daily notes folder and format)."""
    stem = format_moment(dt.datetime.combine(day, dt.time()), vault.config.daily_format)
    folder = vault.config.daily_folder
    return f"{folder}/{stem}.md" if folder else f"{stem}.md"


def entry_title(text: str) -> str:
    """A title for an entry without one: its first line, cut at a word near 60 characters.

    >>> entry_title("Rafael standup: OCR accuracy at 87%, needs 8% improvement before launch")
    'Rafael standup: OCR accuracy at 87%, needs 8% improvement…'
    """
    first = text.strip().splitlines()[0] if text.strip() else "Note"
    if len(first) <= TITLE_MAX:
        return first
    return first[:TITLE_MAX].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def append_daily(vault: Vault, text: str, *, title: str | None = None,
                 when: dt.datetime | None = None, dry_run: bool = False) -> WriteResult:
    """Append ``### HH:MM — Title`` and ``text`` to the day's note, creating it if needed."""
    if not text.strip():
        raise UsageError("nothing to log: the entry text is empty")
    guard(vault, text, title, where="daily entry")
    when = when or clock.now()
    rel = daily_path(vault, when.date())
    name = (title or entry_title(text)).strip()
    heading = f"### {when:%H:%M} — {name}"
    body = text.strip()
    writer = author_note(vault)
    by = stamp(link_to(vault, rel[:-3], writer.id)) + "\n" if writer else ""
    block = f"{heading}\n{by}" if body in name else f"{heading}\n{by}{body}\n"

    fresh = render(template_text(vault.config, "daily"), vault.config,
                   rel[:-3].rsplit("/")[-1], when)

    def change(old: str | None) -> str:
        if old is not None and ends_with(old, block):  # the same entry again the same minute:
            return old  # a call made again (its answer lost on the way) writes it once
        return append_text(old if old is not None else fresh, block)

    def check(note: Note) -> str | None:
        found = heading[4:] in [h.text for h in note.headings]
        return None if found else "the entry heading would not be a heading"

    return apply(vault, rel, change, action="appended", check=check, dry_run=dry_run,
                 template=fresh)


def ends_with(text: str, block: str) -> bool:
    r"""True when ``block`` is the last lines of ``text`` (line endings and trailing blank
    lines aside).

    >>> ends_with("# Day\n\n### 10:00 — Met\nMet Lucy\n\n", "### 10:00 — Met\nMet Lucy\n")
    True
    >>> ends_with("### 10:00 — Met\nMet Lucy\n", "Lucy\n")
    False
    """
    return ("\n" + text.replace("\r\n", "\n").rstrip()).endswith("\n" + block.rstrip())


def done_title(text: str) -> str:
    """The daily entry title of a finished NOW item (shortened like any entry title)."""
    return f"Done: {text}" if len(text) <= TITLE_MAX else f"Done: {entry_title(text)}"


def _now_base(vault: Vault, old: str | None, when: dt.datetime) -> str:
    """NOW.md as it is, or a new board from the template."""
    return old if old is not None else render(template_text(vault.config, "now"), vault.config,
                                              "NOW", when)


def now_update(vault: Vault, action: str, text: str | None = None, *,
               when: dt.datetime | None = None, dry_run: bool = False) -> list[WriteResult]:
    """Change the NOW board: set, add, done, block, unblock or clear (``text`` = section)."""
    when = when or clock.now()
    guard(vault, text, where="NOW board")
    if action != "clear" and not (text or "").strip():
        raise UsageError(f"now {action} needs a text")
    edit = _now_edit(action, (text or "").strip())

    def change(old: str | None) -> str:
        board = edit(_now_base(vault, old, when))
        return set_property(board, "updated", when.date().isoformat()) if board != old else board

    results = [apply(vault, NOW_PATH, change, action="updated", dry_run=dry_run,
                     template=_now_base(vault, None, when))]
    if action == "done":
        done = (text or "").strip()
        results.append(append_daily(vault, done, title=done_title(done), when=when,
                                    dry_run=dry_run))
    return results


def _now_edit(action: str, text: str) -> Callable[[str], str]:
    """The text change for one NOW action."""
    if action == "set":
        return lambda board: replace_section(board, SECTIONS["task"], [text])
    if action == "add":
        return lambda board: append_to_section(board, SECTIONS["priorities"], [f"- {text}"])
    if action == "block":
        return lambda board: append_to_section(board, SECTIONS["blockers"], [f"- {text}"])
    if action == "unblock":
        return lambda board: _drop_item(board, SECTIONS["blockers"], text, required=True)
    if action == "done":
        return lambda board: append_to_section(_drop_item(board, SECTIONS["priorities"], text),
                                               SECTIONS["completions"], [f"- [x] {text}"])
    if action == "clear":
        title = SECTIONS.get(text.lower() if text else "completions")
        if title is None:
            raise UsageError(f"unknown NOW section {text!r}; use {', '.join(SECTIONS)}")
        return lambda board: replace_section(board, title, [])
    raise UsageError(f"unknown NOW action {action!r}")


def _drop_item(board: str, title: str, text: str, *, required: bool = False) -> str:
    """The board without the list items of section ``title`` whose text is ``text``."""
    wanted = _item_key(text)
    keep = [line for line in section_lines(board, title) if _item_key(line) != wanted]
    if len(keep) == len(section_lines(board, title)):
        if required:
            raise ItemNotFound(f"no item {text!r} under ## {title} in NOW.md")
        return board
    return replace_section(board, title, keep)


def _item_key(line: str) -> str:
    """A list item's text for matching: no bullet, checkbox or case."""
    return re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+(\[.\]\s+)?", "", line).strip().casefold()
