"""Titles that can become Obsidian file names (no link syntax, no path tricks)."""

from __future__ import annotations

import re

from .errors import InvalidTitle

FORBIDDEN = re.compile(r'[#|^:\[\]/\\*"<>?\x00-\x1f]')
RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
            *(f"LPT{i}" for i in range(1, 10))}


def safe_title(title: str) -> str:
    """The file-name stem for ``title``: link and path characters become spaces.

    >>> safe_title("Q3: pricing | plan")
    'Q3 pricing plan'
    """
    text = FORBIDDEN.sub(" ", title.replace("%%", "%"))
    text = re.sub(r"\s+", " ", text).strip().lstrip(".").strip()
    if not text or text.split(".")[0].upper() in RESERVED:
        raise InvalidTitle(f"{title!r} cannot be a note title (empty, only dots, or a name "
                           "Windows reserves); choose another title")
    return text
