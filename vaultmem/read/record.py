"""Notes as compact tuples of plain values, for the cache and for passing between processes.

marshal loads such tuples far faster than pickle loads dataclasses, and a note is only turned
back into a :class:`~vaultmem.model.Note` when something asks for it.
"""

from __future__ import annotations

import marshal
import zlib
from typing import Any, NamedTuple

from ..model import BlockId, Field, Heading, Link, Note, Problem, Tag, Task

GENERATED = 1
HAS_PROBLEMS = 2


class NoteDoc(NamedTuple):
    """A note's text and metadata, kept beside its record (stored as a plain tuple: marshal
    takes no others)."""

    text: str | None  # the note's text; None when left to its file (see stored_blobs)
    start: int  # 0-based file line the text starts at
    meta: Any  # stored metadata: see index.doc.Meta


class Entry(NamedTuple):
    """A parsed note as the index keeps it: the state of the file it was read from, its flags,
    and its marshalled record and text with metadata (both ``b""`` until read from the index)."""

    mtime_ns: int
    size: int
    flags: int
    record: bytes
    doc: bytes
    identity: tuple[int, int]  # (ctime_ns, inode): a rewrite keeping mtime and size shows
    rows: bytes = b""  # the index rows made with the parse (marshalled), when made there

    @property
    def read(self) -> bool:
        """True when the record and text are here, not only the file state."""
        return bool(self.record)

    def seen_as(self, mtime_ns: int, size: int, identity: tuple[int, int]) -> bool:
        """True when this was parsed from the file in that state."""
        return (self.mtime_ns, self.size, self.identity) == (mtime_ns, size, identity)


def encode(note: Note, doc: NoteDoc, identity: tuple[int, int] = (0, 0),
           rows: bytes = b"") -> Entry:
    """The cache entry for a parsed note."""
    record = (
        note.id, note.path, note.title, note.type, note.date, note.frontmatter,
        note.aliases, [(t.name, t.line) for t in note.tags],
        [(f.key, f.raw_key, f.value, f.line) for f in note.fields],
        [(k.raw, k.target, k.subpath, k.alias, k.embed, k.line, k.kind, k.key, k.size)
         for k in note.links],
        [(h.text, h.level, h.line) for h in note.headings],
        [(b.id, b.line) for b in note.block_ids],
        [(t.state, t.text, t.line) for t in note.tasks],
        [(p.path, p.kind, p.message, p.line) for p in note.problems],
        note.generated, note.typed_by,
    )
    flags = (GENERATED if note.generated else 0) | (HAS_PROBLEMS if note.problems else 0)
    return Entry(note.mtime_ns, note.size, flags, marshal.dumps(record),
                 marshal.dumps(tuple(doc)), identity, rows)


def decode(entry: Entry) -> Note:
    """The note back from its cache entry (links not yet resolved)."""
    (note_id, path, title, kind, date, frontmatter, aliases, tags, fields, links, headings,
     blocks, tasks, problems, generated, typed_by) = marshal.loads(entry.record)
    return Note(
        id=note_id, path=path, title=title, type=kind, date=date, frontmatter=frontmatter,
        aliases=aliases, tags=[Tag(*t) for t in tags], fields=[Field(*f) for f in fields],
        links=[Link(*k) for k in links], headings=[Heading(*h) for h in headings],
        block_ids=[BlockId(*b) for b in blocks], tasks=[Task(*t) for t in tasks],
        problems=[Problem(*p) for p in problems], generated=generated,
        mtime_ns=entry.mtime_ns, size=entry.size, typed_by=typed_by,
    )


def stored_blobs(entry: Entry) -> tuple[bytes, bytes]:
    """The record and text blobs as the index stores them: compressed, and the text left out
    (its file holds it; only an empty text is kept, so an unreadable note is not read again)."""
    doc = note_doc_of(entry)
    if doc.text:
        doc = doc._replace(text=None)
    return zlib.compress(entry.record, 1), zlib.compress(marshal.dumps(tuple(doc)), 1)


def loaded_blobs(record: bytes, doc: bytes) -> tuple[bytes, bytes]:
    """The record and text blobs of an entry from what :func:`stored_blobs` made."""
    return zlib.decompress(record), loaded_doc(doc)


def loaded_doc(doc: bytes) -> bytes:
    """The text blob of an entry from what :func:`stored_blobs` made (its record left
    compressed: a reader of the metadata alone)."""
    return zlib.decompress(doc)


def note_doc_of(entry: Entry) -> NoteDoc:
    """The text and metadata stored with a note."""
    return NoteDoc._make(marshal.loads(entry.doc))
