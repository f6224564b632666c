"""Passages that only name what is elsewhere: a heading with nothing under it, a line of a few
bold words or of a few words ending in a colon, a line of links and nothing else (a navigation
bar, a list of notes)."""

from __future__ import annotations

import re

from ..index.lookup import StoredPassage
from ..text import cjk, cjk_runs

LABEL_WORDS = 4
BOLD_LINE = re.compile(r"(\*\*|__)[^*_\n]+\1:?")
WORD = re.compile(r"\w+")
COLONS = (":", "\uff1a")  # and the full-width one of CJK text


def is_label(passage: StoredPassage, links: list[str]) -> bool:
    """True for a heading with nothing under it, a line of at most ``LABEL_WORDS`` bold words
    (``**Other Analytics**``) or words ending in a colon (``These rules are:``), or a passage
    whose words all belong to its ``links`` (as written in it, from the index:
    ``[[Fleeting|1_Fleeting]] | [[Literature|2_Literature]]``)."""
    text = passage.text.strip()
    if passage.kind == "heading":
        return True
    if passage.kind == "paragraph" and len(text.split()) <= LABEL_WORDS \
            and BOLD_LINE.fullmatch(text):
        return True
    if passage.kind == "paragraph" and text.endswith(COLONS) and _words(text) <= LABEL_WORDS:
        return True  # "These rules are:", "What's new:": it introduces what follows
    return bool(links) and _links_only(text, links)


def _words(text: str) -> float:
    """How many words ``text`` holds, two CJK characters counting as one."""
    runs = cjk_runs(text)
    return len(WORD.findall(cjk().sub(" ", text) if runs else text)) + sum(map(len, runs)) / 2


def _links_only(text: str, links: list[str]) -> bool:
    """True when ``text`` holds no word outside the written ``links`` (an embed shows as the
    link it is written with: ``![[Map.canvas]]`` as ``[[Map.canvas]]``)."""
    written = {form for raw in links for form in (raw, raw.removeprefix("!"))}
    for raw in sorted(written, key=len, reverse=True):  # the longest first: one may hold another
        text = text.replace(raw, " ")
    return WORD.search(text) is None
