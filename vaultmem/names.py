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


MAX_TITLE_BYTES = 180


def check_title(title: str) -> str:
    """``title`` stripped, if it can be a new note's file name as it is; else InvalidTitle.

    Writing refuses rather than guesses: no path separators, no ``..``, none of the
    characters Obsidian forbids in link targets, no hidden or Windows-reserved names.

    >>> check_title("  Use PaddleOCR ")
    'Use PaddleOCR'
    """
    text = title.strip()
    bad = sorted(set(FORBIDDEN.findall(text)))
    if bad or "%%" in text:
        shown = " ".join(repr(c) for c in bad) or "'%%'"
        raise InvalidTitle(f"title {title!r} contains {shown}, which cannot be in a note name "
                           "(Obsidian links and paths use them); rephrase the title")
    if text.endswith(".") and text.strip("."):
        raise InvalidTitle(f"title {title!r} ends with '.', which a file name cannot end with "
                           f"on Windows (where the vault may sync); write {text.rstrip('.')!r} "
                           "or spell the name out")
    if not text or text.startswith(".") or ".." in text:
        raise InvalidTitle(f"title {title!r} is empty, hidden or uses '..'; choose another title")
    if text.split(".")[0].upper() in RESERVED or len(text.encode("utf-8")) > MAX_TITLE_BYTES:
        raise InvalidTitle(f"title {title!r} is a reserved device name or longer than "
                           f"{MAX_TITLE_BYTES} bytes; choose a shorter, ordinary title")
    return text
