"""Traces of sync tools: conflict copies beside a note, and git conflict markers inside one."""

from __future__ import annotations

import re

# Syncthing, Dropbox / Nextcloud / ownCloud / Obsidian Sync style copies, case-conflict copies
COPY = re.compile(r"\.sync-conflict-\d{8}-\d{6}(?:-\w+)?$|\s*\([^()]*conflicted copy[^()]*\)$"
                  r"|\s*\(Case Conflict(?: \d+)?\)$|\s*\(conflict(?:ed)?(?: \d+)?\)$",
                  re.IGNORECASE)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def copy_of(path: str) -> str | None:
    """The vault path of the note a sync tool's conflict copy ``path`` was copied from.

    >>> copy_of("People/Lucy Tan.sync-conflict-20261129-101500-ABCDEFG.md")
    'People/Lucy Tan.md'
    >>> copy_of("NOW (Lucy's conflicted copy 2026-11-29).md"), copy_of("NOW.md")
    ('NOW.md', None)
    """
    stem = path.removesuffix(".md")
    original = COPY.sub("", stem)
    return f"{original}.md" if original != stem and original else None


def conflict_line(text: str) -> int | None:
    """The 1-based line of the first git conflict (``<<<<<<<``, ``=======``, ``>>>>>>>`` in
    that order, outside code fences), or None.

    >>> conflict_line("a\\n<<<<<<< HEAD\\nx\\n=======\\ny\\n>>>>>>> other\\n")
    2
    """
    fence, start, middle = "", None, False
    for number, line in enumerate(text.split("\n"), 1):
        opened = FENCE.match(line)
        if opened and (not fence or opened.group(1)[0] == fence[0]):
            fence = "" if fence else opened.group(1)
            continue
        if fence:
            continue
        if line.startswith("<<<<<<<"):
            start, middle = number, False
        elif line.rstrip() == "=======" and start:
            middle = True
        elif line.startswith(">>>>>>>") and middle:
            return start
    return None
