"""What a passage shows of a block's inline syntax: what a reader of the note sees, in words.

- An embed reads as a link to what it embeds (``![[Books.base#Author]]`` ->
  ``[[Books.base#Author]]``, an image's size left out), a Markdown image as a Markdown link
  (``![cover|150](x.png)`` -> ``[cover](x.png)``).
- A Markdown link to a note, a file or a heading has its destination percent-decoded
  (``[t](My%20Note.md)`` -> ``[t](My Note.md)``, a title left out); a URL stays as written.
- A Dataview field reads as a property: ``key:: value`` -> ``key: value`` (``[key:: value]``
  and ``(key:: value)`` keep their brackets).
- HTML tags are left out, their text kept (a tag that breaks a line leaves a space).
- A Dataview inline query (```= this.file.name```, ```$= dv.current().size```) is left out: a
  reader with Dataview sees its result, which vaultmem cannot compute, and without it the
  code means nothing to a reader.

What is where comes from the block's tokens (links, embeds, fields); HTML, which vaultmem's
parser does not tokenize, is found outside code spans, inline math and escapes (:mod:`.html`).
Other code spans and inline math are shown as written.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote

from markdown_it.token import Token

from .code_spans import protected
from .html import Edit, html_edits
from .inline import split_wikilink

IMAGE_SIZE = re.compile(r"\|\s*\d+(?:x\d+)?\s*(?=\]$)")  # ``![alt|150](x)``: a width
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
INLINE_QUERY = re.compile(r"`+\$?=")  # Dataview's prefixes: ``=`` a query, ``$=`` JavaScript


class Shown(NamedTuple):
    """How a block's syntax is shown: the edits to make, and what its embeds read as."""

    edits: list[Edit]
    embeds: list[str]


def shown_syntax(token: Token) -> Shown:
    """The edits that show an inline token's links, embeds, fields and HTML as read."""
    reader = _Reader(token.content)
    for child in token.children or []:
        reader.read(child)
    return Shown(reader.edits + html_edits(token.content) + _inline_queries(token.content),
                 reader.embeds)


def _inline_queries(content: str) -> list[Edit]:
    """Dataview's inline queries of a block, each left out."""
    if "`" not in content:
        return []
    return [Edit(start, end, "") for start, end in protected(content)
            if INLINE_QUERY.match(content, start)]


class _Reader:
    """The edits of one block, found child token by child token, in order."""

    def __init__(self, content: str) -> None:
        self.content = content
        self.starts = [0] + [m.end() for m in re.finditer("\n", content)]
        self.cursor = 0  # the source before this is read
        self.labels = 0  # Markdown link labels open (an image or embed in one is its label)
        self.edits: list[Edit] = []
        self.embeds: list[str] = []

    def read(self, child: Token) -> None:
        """Add the edits of one child token."""
        self.cursor = max(self.cursor, child.meta.get("pos", 0))
        if child.type == "wikilink" and child.meta["embed"]:
            self._embed(child)
        elif child.type == "field":
            end = child.meta["pos"] + len(child.content)
            self.edits.append(Edit(end - 1, end, ""))  # "key::" -> "key:"
        elif child.type in ("link_open", "image") and "raw" in child.meta:
            self._link(child)
        elif child.type == "link_close":
            self.labels = max(0, self.labels - 1)

    def _embed(self, token: Token) -> None:
        """An embed reads as a link (its ``!`` and size left out), in a label as its name."""
        pos, inner = token.meta["pos"], token.meta["inner"]
        target, subpath, alias, size = split_wikilink(inner, True)
        if self.labels:
            self.edits.append(Edit(pos, pos + len(token.content), alias or target + subpath))
            return
        self.edits.append(Edit(pos, pos + 1, ""))
        if size is not None:  # ``|300``: a size, no alias
            bar = inner.rfind("|")
            bar -= inner[bar - 1 : bar] == "\\"
            self.edits.append(Edit(pos + 3 + bar, pos + 3 + len(inner), ""))
            inner = inner[:bar]
        self.embeds.append(f"[[{inner}]]")

    def _link(self, token: Token) -> None:
        """A Markdown link or image (see :func:`_link`); an image in a label is its alt text."""
        image = token.type == "image"
        if image and self.labels:
            self._labelled_image(token)
            return
        raw = token.meta["raw"]
        line = self.starts[min(token.meta["offset"], len(self.starts) - 1)]
        at = self.content.find(raw, max(self.cursor, line))
        if at < 0:
            return
        if shown := _link(raw, str(token.attrs.get("src" if image else "href") or "")):
            self.edits += [Edit(at + start, at + end, text) for start, end, text in shown.edits]
            self.embeds += shown.embeds if image else []
        self.cursor = at + (len(raw) if image else 1)  # a link's label is read on
        self.labels += not image

    def _labelled_image(self, token: Token) -> None:
        """An image in a link's label (``[![](x.png)](url)``) reads as its alt text, or
        "image". Its token carries the link's source, so its own is found in the label."""
        start = self.content.find("![", self.cursor)
        close = _label_end(self.content, start + 1) if start >= 0 else -1
        end = _paren_end(self.content, close + 1) if close >= 0 else -1
        if end < 0:
            return
        alt = IMAGE_SIZE.sub("", f"[{token.content}]")[1:-1].strip()
        self.edits.append(Edit(start, end, alt or "image"))
        self.cursor = end


def _link(raw: str, target: str) -> Shown | None:
    """The edits (within ``raw``) that show a Markdown link written ``[label](target)`` with
    the target of a note, file or heading decoded, an image as a link (``![a|150](x)`` ->
    ``[a](x)``), and the text it then reads as; None when it stays as written (a link to a
    URL, a reference link). The label keeps its own edits (an embed in it)."""
    opener = raw.find("[")
    close = _label_end(raw, opener)
    if opener < 0 or close < 0 or raw[close + 1 : close + 2] != "(":
        return None
    edits = [Edit(0, opener, "")] if opener else []  # an image's "!"
    label = raw[opener : close + 1]
    size = IMAGE_SIZE.search(label) if opener else None
    if size:
        edits.append(Edit(opener + size.start(), opener + size.end(), ""))
        label = label[: size.start()] + label[size.end() :]
    destination = raw[close + 1 :]
    if target and not SCHEME.match(target):
        destination = f"({unquote(target)})"
        destination += "\n" * (raw.count("\n", close) - destination.count("\n"))
        edits.append(Edit(close + 1, len(raw), destination))
    return Shown(edits, [label + destination]) if edits else None


def _label_end(raw: str, opener: int) -> int:
    """Where the ``]`` closing the ``[`` at ``opener`` is (escapes skipped), or -1."""
    depth, at = 0, opener
    while 0 <= at < len(raw):
        char = raw[at]
        if char == "\\":
            at += 1
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return at
        at += 1
    return -1


def _paren_end(text: str, opener: int) -> int:
    """Just after the ``)`` closing the ``(`` at ``opener`` (escapes skipped), or -1."""
    if text[opener : opener + 1] != "(":
        return -1
    depth, at = 0, opener
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 1
        elif char in "()":
            depth += 1 if char == "(" else -1
            if depth == 0:
                return at + 1
        at += 1
    return -1


def edited(content: str, edits: list[Edit]) -> str:
    """``content`` with each edit made (one overlapping an earlier one is not), keeping the
    line breaks of what an edit replaces."""
    kept, pos = [], 0
    for start, end, text in sorted(edits):
        if start < pos:
            continue
        kept += [content[pos:start], text, "\n" * (content.count("\n", start, end)
                                                  - text.count("\n"))]
        pos = end
    kept.append(content[pos:])
    return "".join(kept)


def only_embeds(text: str, embeds: list[str]) -> bool:
    """True when ``text`` holds nothing but ``embeds`` (``[[Books.base]]``, an image): the
    embedded file's words are not the note's, and the link alone tells a reader nothing."""
    for embed in embeds:
        text = text.replace(embed, " ")
    return bool(embeds) and not any(char.isalnum() for char in text)
