"""HTML in a block of Markdown, which vaultmem's parser leaves as text: where its tags are,
outside code spans, inline math and backslash escapes, and how a reader sees them (left out,
their text kept; a tag that breaks a line leaves a space)."""

from __future__ import annotations

import re
from typing import NamedTuple

from markdown_it.common.html_re import close_tag, open_tag

from .code_spans import protected

HTML_TAG = re.compile(f"{open_tag}|{close_tag}")
TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
# elements that sit inside a line of text: left out without a trace (``H<sub>2</sub>O``)
INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em",
                    "font", "i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike",
                    "strong", "sub", "sup", "time", "tt", "u", "var"})


class Edit(NamedTuple):
    """Characters ``start`` to ``end`` (excluded) of a block shown as ``text``."""

    start: int
    end: int
    text: str


def html_edits(content: str) -> list[Edit]:
    """HTML tags outside code spans, inline math and escapes, each left out (a space for one
    that is no inline element)."""
    if "<" not in content:
        return []
    guarded = protected(content)
    edits = []
    for tag in HTML_TAG.finditer(content):
        if any(start <= tag.start() < end for start, end in guarded):
            continue
        name = TAG_NAME.match(tag.group())
        text = "" if name and name.group(1).lower() in INLINE else " "
        edits.append(Edit(tag.start(), tag.end(), text + "\n" * tag.group().count("\n")))
    return edits
