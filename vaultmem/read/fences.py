"""Where a note's frontmatter is, line by line (no YAML parsing here, so it imports fast)."""

from __future__ import annotations


def split(text: str) -> tuple[list[str] | None, int]:
    """The frontmatter lines (without the ``---`` fences) and the 0-based body start line."""
    if not text.startswith("---"):
        return None, 0
    lines = text.split("\n", 1)
    if lines[0].rstrip() != "---":
        return None, 0
    rest = lines[1].split("\n") if len(lines) > 1 else []
    for index, line in enumerate(rest):
        if line.rstrip() == "---":
            return rest[:index], index + 2
    return None, 0


def key_line(lines: list[str], key: str) -> int:
    """The file line of property ``key`` (YAML or JSON; unindented first), else 2."""
    for indented in (False, True):
        for index, line in enumerate(lines):
            if line[:1].isspace() and not indented:
                continue
            text = line.strip().lstrip("\"'")
            if text.startswith(key) and text[len(key) :].lstrip("\"' ").startswith(":"):
                return index + 2
    return 2
