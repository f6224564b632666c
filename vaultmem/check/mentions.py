"""Unlinked mentions, as Obsidian's backlinks pane shows them: a note's title or an alias
written as plain words in another note (any case, whole words; not inside a link, a code span
or a code block). A property value counts too (``author: Kevin Kelly``): its edit is the link
quoted, as a property holds a link (``author: "[[Kevin Kelly]]"``).

Both ways read the index, never every file: the notes mentioning one note are the passages an
FTS5 phrase query finds (:func:`mentions_of`); the notes one note mentions are the runs of its
words that the names table holds (:func:`mentioned_by`). Either way the words are then found on
the note's own lines, with its links (as the index records them) blanked out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..index import fts
from ..index.lookup import link_raws
from ..index.phrases import phrase_hits
from ..index.sql import IN_ARRAY, array
from ..index.store import Store
from ..model import Json
from ..secrets import redact
from ..text import cjk
from ..vault import Vault
from .suggestions import letters

HITS = 5000  # passages a name's phrase query reads at most
TEXT_MOST = 300  # characters of a line shown
SHORTEST = 3  # characters of a name looked for (two for a CJK name)
LONGEST_WORDS = 8  # words of a run looked up as a name
LONGEST_WORD = 80  # characters of one word of a name at most
LONG_RUN = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")
LONGEST_CJK = 16  # characters of a CJK run looked up as a name
NOT_TEXT = ("code", "math")  # passages whose words are not prose
PROPERTIES = "properties"  # a passage of property values: a link there is quoted
# properties whose values are names of the note itself or labels, never a mention of another
NOT_NAMES = frozenset({"aliases", "alias", "tags", "tag", "cssclasses", "cssclass"})
PROPERTY_KEY = re.compile(r"^([^\s#\-][^:]*):")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SPACES = re.compile(r"\s+")
EDGE = re.compile(r"^[^\w]+|[^\w]+$")


class Mention(NamedTuple):
    """A name of ``target`` written as plain words on a line of ``source``."""

    source: str  # note id
    line: int  # 1-based file line
    words: str  # as written
    target: str  # the note named
    linked: bool  # ``source`` already links ``target`` elsewhere
    text: str  # the line
    edit: str  # the link that would replace the words

    def to_dict(self) -> Json:
        """The ``mentions --json`` result shape."""
        return {"id": self.source, "line": self.line, "words": self.words,
                "text": self.text, "linked": self.linked, "edit": self.edit}


def link_for(link: str, words: str) -> str:
    """The link replacing ``words`` that name the note ``link`` reaches (``[[Name]]`` as
    Obsidian writes it in that note): ``[[Name|words]]``, or ``[[words]]`` when they are its
    name as written.

    >>> link_for("[[Lucy Tan]]", "Lucy"), link_for("[[People/Lucy Tan]]", "Lucy Tan")
    ('[[Lucy Tan|Lucy]]', '[[People/Lucy Tan|Lucy Tan]]')
    """
    name = link[2:-2]
    return link if words == name else f"[[{name}|{words}]]"


def names_of(vault: Vault, note_id: str) -> list[str]:
    """The title and aliases of a note worth looking for (long enough), each once."""
    note = vault.notes[note_id]
    names = [note_id.rsplit("/", 1)[-1], *note.aliases]
    kept = {name.casefold(): name.strip() for name in names if long_enough(name.strip())}
    return list(kept.values())


def long_enough(name: str) -> bool:
    """True for a name of ``SHORTEST`` characters or more (two for CJK), not a common word,
    with a letter (a date or a number is not a name).

    >>> long_enough("CD"), long_enough("the"), long_enough("实分析"), long_enough("Lucy")
    (False, False, True, True)
    >>> long_enough("2026-11-25")
    False
    """
    return (letters(name) >= SHORTEST and name.casefold() not in fts.STOPWORDS
            and any(char.isalpha() for char in name))


def pattern(name: str) -> re.Pattern[str]:
    """The words of ``name`` as written anywhere in prose: any case, any spacing between its
    words, not inside another word (a CJK end needs no boundary).

    >>> bool(pattern("Lucy Tan").search("met lucy  tan today"))
    True
    >>> bool(pattern("Tan").search("Tandem"))
    False
    """
    parts = [re.escape(part) for part in name.split()]
    body = r"\s+".join(parts)
    before = "" if cjk().match(name) else r"(?<!\w)"
    after = "" if cjk().search(name[-1:]) else r"(?!\w)"
    return re.compile(before + body + after, re.IGNORECASE)


def prose(line: str, links: Iterable[str]) -> str:
    """``line`` with its links (as written), code spans and runs longer than any word of a
    name (a data URL, a hash) blanked out, columns kept."""
    for raw in links:
        line = line.replace(raw, " " * len(raw))
    line = CODE_SPAN.sub(lambda match: " " * len(match.group()), line)
    return LONG_RUN.sub(lambda match: " " * len(match.group()), line)


def unlinked_mentions(vault: Vault, name: str) -> tuple[str, list[Mention]]:
    """(note id, its unlinked mentions) for a note given by id, name or path: what the
    ``mentions`` command and MCP tool answer (lines redacted of credentials)."""
    note = vault.note(name)
    secrets = vault.config.secret_patterns
    return note.id, [m._replace(text=redact(m.text.strip(), secrets)[:TEXT_MOST])
                     for m in mentions_of(vault, note.id)]


def mentions_of(vault: Vault, note_id: str, *, limit: int = HITS) -> list[Mention]:
    """Every unlinked mention of the note ``note_id`` in other notes, by note and line."""
    names = names_of(vault, note_id)
    linking = set(vault.store.linking(note_id))
    found: dict[tuple[str, int], Mention] = {}
    for name in names:
        with vault.store.held() as db:
            hits = phrase_hits(db, name, limit=limit)
        spans = [Span(hit.path[:-3], hit.start, hit.end, hit.kind == PROPERTIES) for hit in hits
                 if hit.path[:-3] != note_id and hit.kind not in NOT_TEXT
                 and hit.path[:-3] in vault.notes]
        for mention in _on_lines(vault, spans, {name: note_id}, linking):
            found.setdefault((mention.source, mention.line), mention)
    return sorted(found.values(), key=lambda m: (m.source, m.line))


def mentioned_by(vault: Vault, note_id: str) -> list[Mention]:
    """Every other note whose title or alias ``note_id`` writes as plain words, by line."""
    _ = vault.notes  # the index is current first
    store = vault.store
    with store.held() as db:
        rows = db.execute("SELECT p.start_line, p.end_line, p.kind FROM passages AS p JOIN "
                          "notes AS n ON n.path = p.path WHERE n.id = ? ORDER BY p.number",
                          (note_id,)).fetchall()
    spans = [Span(note_id, start, end, kind == PROPERTIES) for start, end, kind in rows
             if kind not in NOT_TEXT]
    lines = vault.note_text(note_id).split("\n")
    runs = {run for span in dict.fromkeys(spans) for line in lines[span.start - 1:span.end]
            for run in word_runs(line)}
    names = names_among(store, runs)
    names = {name: target for name, target in names.items() if target != note_id}
    if not names:
        return []
    linked = set(names.values()) & _linked_from(store, note_id)
    return [m._replace(linked=m.target in linked)
            for m in _on_lines(vault, spans, names, set())]


class Span(NamedTuple):
    """Lines of a note where mentions are looked for; ``quoted``: property values."""

    source: str
    start: int
    end: int
    quoted: bool


def _on_lines(vault: Vault, spans: list[Span], names: dict[str, str],
              linking: set[str]) -> Iterator[Mention]:
    """The mentions of each name (name -> its note) on the lines of ``spans``."""
    raws = link_raws(vault.store, [(span.source, span.start, span.end) for span in spans])
    patterns = [(pattern(name), name, target)  # the longest name of a note first
                for name, target in sorted(names.items(), key=lambda item: -len(item[0]))]
    resolver, style = vault.index.resolver, vault.config.new_link_format
    texts: dict[str, list[str]] = {}  # a note's lines, split once for all its spans
    for span in dict.fromkeys(spans):  # a long paragraph's pieces share its lines: once
        if span.source not in texts:
            texts[span.source] = vault.note_text(span.source).split("\n")
        lines = texts[span.source]
        links = raws.get((span.source, span.start, span.end), [])
        for number in range(span.start, min(span.end, len(lines)) + 1):
            line = lines[number - 1]
            if span.quoted and _key_of(lines, number).casefold() in NOT_NAMES:
                continue
            text = prose(line, links)
            met: set[str] = set()
            for found, name, target in patterns:
                matches = [] if target in met else list(found.finditer(text))
                if matches:  # one per note and line: the words as the name is written, if so
                    met.add(target)
                    match = next((m for m in matches if m.group() == name), matches[0])
                    edit = link_for(resolver.link_text(span.source, target, style),
                                    match.group())
                    if span.quoted and not _in_quotes(line, match.start(), match.end()):
                        edit = f'"{edit}"'
                    yield Mention(span.source, number, match.group(), target,
                                  span.source in linking, line, edit)


def _key_of(lines: list[str], number: int) -> str:
    """The property a frontmatter line gives a value of (the nearest key line at or above).

    >>> _key_of(["---", "aliases:", "  - Lucy", "role: CEO"], 3)
    'aliases'
    """
    for line in reversed(lines[:number]):
        if (match := PROPERTY_KEY.match(line)) is not None:
            return match.group(1).strip()
    return ""


def _in_quotes(line: str, start: int, end: int) -> bool:
    """True when ``line[start:end]`` is a quoted string's whole text or inside one."""
    return line[:start].count('"') % 2 == 1 or line[:start].count("'") % 2 == 1


def word_runs(line: str) -> Iterator[str]:
    """The runs of words of ``line`` a name could be, case-folded: up to ``LONGEST_WORDS``
    words with the punctuation at their ends taken off, and the pieces of each CJK run."""
    words = [word if len(word) <= LONGEST_WORD else "" for word in line.split()]
    for first in range(len(words)):
        for last in range(first + 1, min(first + LONGEST_WORDS, len(words)) + 1):
            if not words[last - 1]:  # no name holds a word this long (a data URL, a hash)
                break
            run = EDGE.sub("", " ".join(words[first:last]))
            if run:
                yield run.casefold()
    for run in cjk().findall(line):
        for at in range(len(run)):
            for end in range(at + 2, min(at + LONGEST_CJK, len(run)) + 1):
                yield run[at:end]


def names_among(store: Store, runs: set[str]) -> dict[str, str]:
    """The titles and aliases (as written) among ``runs``, each with its note; a name that
    several notes hold is left out (which one the words mean is not known)."""
    held: dict[str, set[tuple[str, str]]] = {}
    for folded, name, note in store.query(
            f"SELECT DISTINCT folded, name, note FROM names WHERE folded IN {IN_ARRAY}",
            (array(runs),)):
        held.setdefault(folded, set()).add((name, note))
    return {min(pairs)[0]: min(pairs)[1] for pairs in held.values()
            if len({note for _, note in pairs}) == 1 and long_enough(min(pairs)[0])}


def _linked_from(store: Store, note_id: str) -> set[str]:
    """The notes ``note_id`` links to."""
    return {row[0] for row in store.query(
        "SELECT DISTINCT node FROM links WHERE source = ? AND NOT missing", (note_id,))}
