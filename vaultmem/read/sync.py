"""Traces of sync tools: conflict copies beside a note; git conflict markers or a second copy of
the content inside one."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

# Syncthing, Dropbox / Nextcloud / ownCloud / Obsidian Sync style copies, case-conflict copies
COPY = re.compile(r"\.sync-conflict-\d{8}-\d{6}(?:-\w+)?$|\s*\([^()]*conflicted copy[^()]*\)$"
                  r"|\s*\(Case Conflict(?: \d+)?\)$|\s*\(conflict(?:ed)?(?: \d+)?\)$",
                  re.IGNORECASE)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ENTRY = re.compile(r"^#+\s+(?:\d{1,2}:\d{2}\b|\[[A-Z]{3}-\d{8}-\d{3}\])")
KEY = re.compile(r"^([^\s:#][^:]*):(?:\s|$)")


def copy_of(path: str) -> str | None:
    """The vault path of the note a sync tool's conflict copy ``path`` was copied from.

    >>> copy_of("People/Lucy Tan.sync-conflict-20261129-101500-ABCDEFG.md")
    'People/Lucy Tan.md'
    >>> copy_of("NOW (Lucy's conflicted copy 2026-11-29).md"), copy_of("NOW.md")
    ('NOW.md', None)
    """
    stem = path.removesuffix(".md")
    if not stem.endswith(")") and "sync-conflict" not in stem.lower():
        return None  # every copy name ends so: most paths are ruled out without the regex
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


def repeated_line(text: str, body_line: int, headings: list[tuple[int, int]]) -> int | None:
    """The 1-based line where the note starts over, or None, as a sync tool leaves a note when
    it keeps both versions by concatenating them: a second frontmatter block with the same
    properties, the first headings again in order, or a dated entry (``### 09:00 ...``,
    ``## [LRN-20261129-001] ...``) repeated word for word. ``headings``: (line, level).

    >>> note = "---\\na: 1\\n---\\n# A\\nx\\n---\\na: 2\\n---\\n# A\\nx\\n"
    >>> repeated_line(note, 3, [(4, 1), (9, 1)])
    6
    """
    lines = text.split("\n")
    found = [_frontmatter_again(lines, body_line), _headings_again(lines, headings),
             _entry_again(lines, headings)]
    return min((line for line in found if line is not None), default=None)


def _frontmatter_again(lines: list[str], body_line: int) -> int | None:
    """The line of a later ``---`` block, outside code fences, naming the same properties as
    the frontmatter (a note without one has nothing to repeat)."""
    keys = _keys(lines[1:body_line - 1]) if body_line else frozenset()
    if not keys:
        return None
    rules = [index for index in _unfenced(lines, body_line) if lines[index] == "---"]
    for start, end in itertools.pairwise(rules):
        if _keys(lines[start + 1:end]) == keys:
            return start + 1
    return None


def _unfenced(lines: list[str], start: int) -> Iterator[int]:
    """The indexes of the lines from ``start`` on that are not inside a fenced code block."""
    fence = ""
    for index in range(start, len(lines)):
        opened = FENCE.match(lines[index])
        if opened and (not fence or opened.group(1)[0] == fence[0]):
            fence = "" if fence else opened.group(1)
        elif not fence:
            yield index


def _keys(block: list[str]) -> frozenset[str]:
    """The top-level property names of a YAML block."""
    return frozenset(m.group(1) for line in block if (m := KEY.match(line)))


def _headings_again(lines: list[str], headings: list[tuple[int, int]]) -> int | None:
    """The line where the note's first headings (up to three, at least two, all different)
    recur in order."""
    names = [lines[line - 1].strip() for line, _ in headings]
    size = min(3, len(names) // 2)
    if size < 2:
        return None
    first = names[:size]
    if len(set(first)) < size:  # turns of a dialogue (You said, ChatGPT said) recur by design
        return None
    return next((headings[i][0] for i in range(size, len(names) - size + 1)
                 if names[i:i + size] == first), None)


def _entry_again(lines: list[str], headings: list[tuple[int, int]]) -> int | None:
    """The heading line of a dated or numbered entry seen before word for word."""
    seen: set[tuple[str, ...]] = set()
    for index, (line, level) in enumerate(headings):
        if not ENTRY.search(lines[line - 1]):
            continue
        end = next((other for other, depth in headings[index + 1:] if depth <= level),
                   len(lines) + 1)
        entry = lines[line - 1:end - 1]
        while entry and not entry[-1].strip():
            entry.pop()
        if tuple(entry) in seen:
            return line
        seen.add(tuple(entry))
    return None
