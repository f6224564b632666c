"""Turn one Markdown file's bytes into a :class:`~vaultmem.model.Note`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple
from urllib.parse import unquote

from markdown_it.token import Token

from ..config import Config
from ..model import BlockId, Field, Heading, Link, Note, Problem, Tag, Task
from . import frontmatter
from .inline import split_wikilink
from .plain_blocks import body_tokens
from .sync import conflict_line, repeated_line
from .types import daily_of, in_folder, note_type
from .walk import MAX_BYTES

TASK = re.compile(r"\[(.)\][ \t]+(.*)", re.DOTALL)
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
DRAWING = re.compile(r"^#{1,2} Drawing\s*$", re.MULTILINE)
LONE_CR = re.compile(r"\r(?!\n)")


def decode(path: str, data: bytes, size: int | None = None) -> tuple[str | None, list[Problem]]:
    """Bytes to text; binary or oversized files (``size``: the file's, when ``data`` is only
    its start) give no text, bad UTF-8 is replaced."""
    size = max(size or 0, len(data))
    if size > MAX_BYTES:
        return None, [Problem(path, "too-large", f"{size} bytes is over the "
                              f"{MAX_BYTES}-byte limit; split the note", None)]
    if b"\x00" in data:
        return None, [Problem(path, "binary", "binary data in a .md file; not indexed", None)]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        before = data[: exc.start]  # lines end as the parser ends them: \n, \r\n or a lone \r
        line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
        message = "not valid UTF-8; bad bytes shown as U+FFFD; re-save the file as UTF-8"
        return data.decode("utf-8", "replace"), [Problem(path, "encoding", message, line)]


class Parsed(NamedTuple):
    """A parsed note with what its parse saw: the body text, the 0-based file line the body
    starts at, and the body's markdown-it tokens."""

    note: Note
    body: str
    body_line: int
    tokens: list[Token]


def parse_note(path: str, data: bytes, config: Config) -> Note:
    """Parse a note at vault path ``path`` (with ``.md``) from its bytes."""
    return parse_with_body(path, data, config).note


def parse_with_body(path: str, data: bytes, config: Config, size: int | None = None) -> Parsed:
    """The parsed note and what its parse saw (``size``: the file's, when ``data`` was read
    only up to the size limit)."""
    note_id = path[:-3]
    note = Note(id=note_id, path=path, title=note_id.rsplit("/", 1)[-1], size=len(data))
    text, note.problems = decode(path, data, size)
    if text is None:
        note.type, note.typed_by = note_type(path, {}, [], config)
        return Parsed(note, "", 0, [])
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = LONE_CR.sub("\n", text)  # classic Mac line endings; CRLF keeps its \r
    in_templates = config.templates_folder is not None and in_folder(path, config.templates_folder)
    meta = frontmatter.parse(path, text, check_placeholders=not in_templates)
    note.frontmatter, note.aliases, note.tags = meta.data, meta.aliases, meta.tags
    note.links, note.problems = list(meta.links), note.problems + meta.problems
    note.generated = meta.data.get("generated_by") == "vaultmem"
    note.date = daily_of(note_id, config)
    body = text.split("\n", meta.body_line)[-1] if meta.body_line else text
    if "excalidraw-plugin" in meta.data:
        body = DRAWING.split(body, 1)[0]
    tokens = _read_body(note, body, meta.body_line)
    note.type, note.typed_by = note_type(path, meta.data, [t.name for t in note.tags], config,
                                         daily=note.date is not None)  # body tags count too
    _sync_traces(note, text, meta.body_line)
    return Parsed(note, body, meta.body_line, tokens)


def _sync_traces(note: Note, text: str, body_line: int) -> None:
    """Problems for two versions of the note mixed into its one file."""
    line = conflict_line(text)
    if line is not None:
        note.problems.append(Problem(note.path, "conflict-markers", "git conflict markers "
                                     "(<<<<<<< ... >>>>>>>): two versions are mixed; keep one "
                                     "and delete the marker lines", line))
    line = repeated_line(text, body_line, [(h.line, h.level) for h in note.headings])
    if line is not None:
        note.problems.append(Problem(note.path, "sync-duplicate", "the content starts over "
                                     "here (frontmatter or a whole section again), as when a "
                                     "sync tool keeps both versions by concatenating them; "
                                     "delete the second copy", line))


def _read_body(note: Note, body: str, offset: int) -> list[Token]:
    """Collect headings, tasks, links, tags, fields and block ids from the body's tokens
    (returned)."""
    tokens = body_tokens(body)
    for index, token in enumerate(tokens):
        if token.type == "math_block" and token.meta and token.map is not None:
            note.block_ids.append(BlockId(token.meta["id"],
                                          token.map[0] + offset + 1 + token.meta["offset"]))
        if token.type != "inline" or token.map is None:
            continue
        line = token.map[0] + offset + 1
        opener = tokens[index - 1]
        if opener.type == "heading_open":
            note.headings.append(Heading(token.content.strip(), int(opener.tag[1:]), line))
        elif opener.type == "paragraph_open" and tokens[index - 2].type == "list_item_open":
            _task(note, token.content, line)
        _read_inline(note, token.children or [], line)
    return tokens

def _task(note: Note, content: str, line: int) -> None:
    """Record a task list item (``- [ ] text``)."""
    match = TASK.match(content)
    if match:
        note.tasks.append(Task(match.group(1), match.group(2).split("\n", 1)[0].strip(), line))


def _read_inline(note: Note, children: list[Token], line: int) -> None:
    """Turn this plugin's inline tokens into links, tags, fields and block ids."""
    field_key, field_end = None, -1
    for token in _flatten(children):
        meta = token.meta or {}
        at = line + meta.get("offset", 0)
        kind = token.type
        if kind == "field":
            note.fields.append(Field(meta["key"], meta["raw_key"], meta["value"], at))
            field_key, field_end = meta["key"], meta["end"]
        elif kind == "wikilink":
            target, subpath, alias, size = split_wikilink(meta["inner"], meta["embed"])
            in_field = field_key if meta["pos"] < field_end else None
            note.links.append(Link(token.content, target, subpath, alias, meta["embed"], at,
                                   "field" if in_field else "body", in_field, size))
        elif kind in ("link_open", "image"):
            _markdown_link(note, token, at)
        elif kind == "tag":
            note.tags.append(Tag(meta["name"], at))
        elif kind == "block_id":
            note.block_ids.append(BlockId(meta["id"], at))


def _flatten(children: list[Token]) -> Iterator[Token]:
    """Inline tokens in order, including those nested in images' alt text."""
    for token in children:
        yield token
        if token.children:
            yield from _flatten(token.children)


def _markdown_link(note: Note, token: Token, line: int) -> None:
    """A Markdown link or image to a file in the vault (URLs are not links)."""
    href = str(token.attrGet("src") if token.type == "image" else token.attrGet("href") or "")
    href = unquote(href)
    if not href:
        return
    if SCHEME.match(href) and not re.match(r"[A-Za-z]:[\\/]", href):
        return
    path, hash_, subpath = href.partition("#")
    note.links.append(Link(token.meta.get("raw", ""), path, hash_ + subpath if hash_ else "",
                           None, token.type == "image", line, "markdown", None))
