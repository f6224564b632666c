"""Passages that only name what is elsewhere: a heading with nothing under it, a line of a few
bold words or of a few words ending in a colon, a line of links and nothing else but a key (a
navigation bar, a list of notes, ``KPIs: [[A]], [[B]]``), a note's properties that hold none
of the question's words where they say something of the note."""

from __future__ import annotations

import re

from ...index.lookup import StoredPassage
from ...text import cjk, cjk_runs

LABEL_WORDS = 4
BOLD_LINE = re.compile(r"(\*\*|__)[^*_\n]+\1:?")
WORD = re.compile(r"\w+")
KEY = re.compile(r"^\W*\w+(?:[ -]\w+)?\s*[:\uff1a]")  # "KPIs:", "See also:" before links
COLONS = (":", "\uff1a")  # and the full-width one of CJK text
# Properties that name or file a note rather than say something of it: a question's words in
# their values (the title again, a tag, a link, a date) are no answer. A category or type
# stays: it says what the note is ("which book" is answered by a note of category Books).
NAMING_KEYS = frozenset({"title", "aliases", "alias", "tags", "tag", "cssclasses", "cssclass",
                         "publish", "permalink", "url", "source", "link", "cover", "image",
                         "banner"})
DATED_KEY = re.compile(r"date|created|modified|updated", re.IGNORECASE)
A_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T][\d:.]+Z?)?")


def is_label(passage: StoredPassage, links: list[str], *, says_asked: bool = True) -> bool:
    """True for a heading with nothing under it, a line of at most ``LABEL_WORDS`` bold words
    (``**Other Analytics**``) or words ending in a colon (``These rules are:``), a passage
    whose words all belong to its ``links`` (as written in it, from the index:
    ``[[Fleeting|1_Fleeting]] | [[Literature|2_Literature]]``), or a note's properties unless
    ``says_asked`` (the question's words are in :func:`what_properties_say`)."""
    text = passage.text.strip()
    if passage.kind == "heading":
        return True
    if passage.kind == "properties":
        return not says_asked
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
    link it is written with: ``![[Map.canvas]]`` as ``[[Map.canvas]]``) but a key before them
    (``KPIs: [[OCR Accuracy]], [[Processing Time]]``).

    >>> _links_only("KPIs: [[OCR Accuracy]], [[Speed]]", ["[[OCR Accuracy]]", "[[Speed]]"])
    True
    >>> _links_only("Owner: [[Lucy]] since May", ["[[Lucy]]"])
    False
    """
    written = {form for raw in links for form in (raw, raw.removeprefix("!"))}
    for raw in sorted(written, key=len, reverse=True):  # the longest first: one may hold another
        text = text.replace(raw, " ")
    return WORD.search(KEY.sub("", text, count=1)) is None


def what_properties_say(text: str) -> str:
    """The keys of a properties passage (``key: value; key: value``) and the values that say
    something of the note: not those of ``NAMING_KEYS``, ``linter-`` keys or dated keys, and
    no value that is a date.

    >>> what_properties_say("title: Kyoto; loc: Japan; created: 2023-09-12; end: 2023-09-30")
    'title; loc; Japan; created; end'
    """
    said: list[str] = []
    for part in text.split("; "):
        key, _, value = part.partition(": ")
        said.append(key)
        name = key.strip().lower()
        if not (name in NAMING_KEYS or name.startswith("linter-") or DATED_KEY.search(name)
                or A_DATE.fullmatch(value.strip())):
            said.append(value)
    return "; ".join(filter(None, said))
