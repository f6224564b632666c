"""The daily log (append-only entries) and the NOW board (the one overwritable note)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError, VaultmemError
from ..model import Note
from ..moment import format_moment
from ..text import stamp
from ..vault import Vault
from .apply import TextRefused, WriteResult, apply, guard
from .author import author_note, refuse_stamp_lines
from .entries import link_to
from .props import set_property
from .sections import (
    ATX,
    append_text,
    append_to_section,
    headings_in,
    replace_section,
    section_lines,
)
from .templates import render, template_text

NOW_PATH = "NOW.md"


class ItemNotFound(VaultmemError):
    """The NOW board has no such item."""
SECTIONS = {"task": "Current Task", "priorities": "Priorities", "blockers": "Blockers",
            "completions": "Today's Completions"}
TITLE_MAX = 60
ENTRY_LEVEL = 3  # a daily entry is the section under its ``### HH:MM — title`` heading
ENTRY_TIME = re.compile(r"\d{1,2}:\d{2}\b")  # a heading that opens with a time is an entry's
SECTION_LEVEL = 2  # the NOW board's sections are ``## Title`` headings


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
                 when: dt.datetime | None = None, dry_run: bool = False,
                 caller: Caller = LOCAL) -> WriteResult:
    """Append ``### HH:MM — Title`` and ``text`` to the day's note, creating it if needed,
    signed by the agent ``caller`` writes as."""
    if not text.strip():
        raise UsageError("nothing to log: the entry text is empty")
    guard(vault, text, title, where="daily entry")
    when = when or clock.now()
    rel = daily_path(vault, when.date())
    name = (title or entry_title(text)).strip()
    heading = f"### {when:%H:%M} — {name}"
    body = text.strip()
    writer = author_note(vault, caller)
    by = stamp(link_to(vault, rel[:-3], writer.id)) + "\n" if writer else ""
    check_entry(body, title, f"{heading}\n{by}")
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
                 template=fresh, caller=caller)


def check_entry(text: str, title: str | None, above: str) -> None:
    """Refuse (TextRefused) an entry whose title or text, written under the lines ``above``
    (its heading and stamp), would read as lines only the writer writes: a title of more
    than one line, a stamp line, or a heading that starts another entry."""
    if title is not None and len(title.strip().splitlines()) > 1:
        raise TextRefused("a daily entry's title is one line (it becomes the entry's heading); "
                          "put the rest in the entry text; nothing was written")
    for line, level, name in headings_in(text, above):
        # A heading of the entry's level or above ends the entry's section: Obsidian's
        # outline and folding, a link to the entry's heading and vaultmem's sections stop
        # there, so a reader takes what follows for another entry (under a heading that
        # looks like the writer's) or for none. A heading that opens with a time reads as an
        # entry at any level (sync checks and the council export read entries so).
        if level <= ENTRY_LEVEL or ENTRY_TIME.match(name):
            raise TextRefused(_entry_refusal(text.splitlines()[line - 1].strip(), line,
                                             level, name))
    refuse_stamp_lines(text, "daily entry text")


def _entry_refusal(shown: str, line: int, level: int, name: str) -> str:
    """Why a heading in an entry's text is refused, and how to write it instead."""
    where = f"daily entry text, line {line} ({shown!r})"
    if not ATX.match(shown):  # a setext underline makes the line above it a heading
        return (f"{where} makes the line above it the heading {name!r}, which would read as "
                "another entry of the daily note; leave a blank line above it, or write it "
                "as a lower heading (#### ...) or quote it (> ...); nothing was written")
    if time := ENTRY_TIME.match(name):
        words = name[time.end():].strip(" \u2014\u2013-:") or "Title"
        return (f"{where} would read as another entry of the daily note (its heading opens with "
                "a time, as an entry's does, which only the writer writes); write it as a lower "
                f"heading that opens with words (#### {words} at {time.group()}) or quote it "
                f"(> {shown}); nothing was written")
    return (f"{where} is a heading of level {level}, which would start another entry of the "
            f"daily note (entries are ### headings, which only the writer writes); write it "
            f"as a lower heading (#### {name}) or quote it (> {shown}); nothing was written")


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
               when: dt.datetime | None = None, dry_run: bool = False,
               caller: Caller = LOCAL) -> list[WriteResult]:
    """Change the NOW board: set, add, done, block, unblock or clear (``text`` = section)."""
    when, item = when or clock.now(), (text or "").strip()
    guard(vault, text, where="NOW board")
    if action != "clear" and not item:
        raise UsageError(f"now {action} needs a text")
    check_board_text(action, item)
    edit = _now_edit(action, item)
    if action == "done":  # its daily entry is refused now, not after the board is written
        append_daily(vault, item, title=done_title(item), when=when, dry_run=True,
                     caller=caller)

    def change(old: str | None) -> str:
        board = edit(_now_base(vault, old, when))
        return set_property(board, "updated", when.date().isoformat()) if board != old else board

    results = [apply(vault, NOW_PATH, change, action="updated", dry_run=dry_run,
                     template=_now_base(vault, None, when), caller=caller)]
    if action == "done":
        results.append(append_daily(vault, item, title=done_title(item), when=when,
                                    dry_run=dry_run, caller=caller))
    return results


def board_line(action: str, text: str) -> str:
    """The text as a NOW action writes it on the board (an item, or the current task)."""
    return {"add": f"- {text}", "block": f"- {text}", "done": f"- [x] {text}"}.get(action, text)


def check_board_text(action: str, text: str) -> None:
    """Refuse (TextRefused) a text that would make a heading of the board's sections' level
    or above: a second ``## Priorities`` (or a ``# title``) where only the board's own are."""
    written = board_line(action, text)
    for line, level, name in headings_in(written, f"## {SECTIONS['task']}\n"):
        if level <= SECTION_LEVEL:
            shown = written.splitlines()[line - 1].strip()
            raise TextRefused(f"now {action}: line {line} ({shown!r}) would make a heading "
                              f"{name!r} of level {level}, a section of NOW.md beside (or "
                              "over) the board's own; write it as a lower heading (### "
                              f"{name}) or on one line with the rest; nothing was written")


def _now_edit(action: str, text: str) -> Callable[[str], str]:
    """The text change for one NOW action."""
    line = board_line(action, text)
    if action == "set":
        return lambda board: replace_section(board, SECTIONS["task"], [line])
    if action in ("add", "block"):
        section = SECTIONS["priorities" if action == "add" else "blockers"]
        return lambda board: append_to_section(board, section, [line])
    if action == "unblock":
        return lambda board: _drop_item(board, SECTIONS["blockers"], text, required=True)
    if action == "done":
        return lambda board: append_to_section(_drop_item(board, SECTIONS["priorities"], text),
                                               SECTIONS["completions"], [line])
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
