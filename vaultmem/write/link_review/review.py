"""The wikilinks of a text about to be written, resolved as Obsidian will, and what to write
instead when they would not reach the note meant.

Each link to a note (an attachment's is left alone) is read by the note parser, then:

- it resolves to one note: kept; written in another case or with spaces around it, it takes
  the note's own name (``[[lucy tan ]]`` -> ``[[Lucy Tan]]``);
- its name is several notes' (Obsidian would pick one by folder and path length): the one in
  the writing note's folder, the one of the type its property names (``KEY_TYPES``:
  ``project: [[Atlas]]``), or the only one linked with another note the text links, gets its
  path written; else it is refused with the candidates;
- it resolves to no note but is a note's alias: ``[[Lucy]]`` -> ``[[People/Lucy Tan|Lucy]]``
  (Obsidian never resolves a link by alias); the same when it is a title or alias written with
  other punctuation or spacing (``[[Lucy-Tan]]``);
- it is close to a note's name (a typo, a surname dropped, words added: WRatio at
  ``CLOSE``) but no note's: refused with "did you mean", unless ``LinkPolicy.new`` says the
  text links a note still to be written;
- else it is a link to a note still to be written, as Obsidian allows: kept.

``LinkPolicy.keep`` keeps every link as written (nothing is refused); ``LinkPolicy.mentions``
also links the plain-text mentions of people and projects (:func:`.mentions.mentioned`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, replace
from typing import Any

from ...caller import STRICT, LinkPolicy
from ...index.link_rows import notes_named
from ...index.lookup import every_name, named
from ...model import Link, Note
from ...read.resolve import Resolver, link_name
from ...similar_names import name_key, same_name
from ...vault import Vault
from .mentions_linked import link_mentions
from .note_names import NoteNames
from .outcome import LinkChange, LinkProblem, LinkReview

NOT_WORD = re.compile(r"[\W_]+")
KEY_TYPES = {"person": "person", "people": "person", "owner": "person", "decided_by": "person",
             "author": "person", "attendees": "person", "members": "person",
             "agent": "agent", "project": "project", "projects": "project",
             "applies_to": "project"}  # a property's key and the type of note it links
ATTACHMENTS = frozenset({"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "pdf",
                         "mp3", "wav", "m4a", "ogg", "flac", "mp4", "webm", "mov", "mkv",
                         "canvas", "base", "excalidraw", "csv", "txt", "json", "zip"})


def review_links(vault: Vault, text: str, *, source: str, lines: set[int] | None = None,
                 policy: LinkPolicy = STRICT, parsed: Note | None = None) -> LinkReview:
    """The links of ``text`` (a note's whole text, to be the note ``source``; only those on
    ``lines`` when given) reviewed as the module docstring says; ``parsed``: the note ``text``
    parses into, when the caller has it."""
    from ...read.parse import parse_note  # the parser loads with a write, not with every reader

    note = parsed or parse_note(f"{source}.md", text.encode("utf-8"), vault.config)
    review = LinkReview(text)
    if policy.keep:
        return review
    look = _Lookup(vault, source, note)
    written = text.split("\n")
    for link in note.links:
        if link.kind == "markdown" or (lines is not None and link.line not in lines):
            continue
        if link_name(link.target) in {link_name(i) for i in policy.to_be}:
            continue
        found = look.review(link, allow_new=policy.new)
        if isinstance(found, LinkProblem):
            review.problems.append(found)
        elif found is not None and link.raw in written[link.line - 1]:
            if written[link.line - 1].lstrip().startswith("|") and "\\|" not in found.after:
                found = replace(found, after=found.after.replace("|", "\\|"))  # a table row
            written[link.line - 1] = written[link.line - 1].replace(link.raw, found.after, 1)
            review.changes.append(found)
    if policy.mentions:
        link_mentions(vault, source, note, written, lines, review.changes, look.sure)
    review.text = "\n".join(written)
    return review


def review_data(review: LinkReview) -> dict[str, Any]:
    """A review as JSON (``links --check --json``, the MCP ``check_links`` tool)."""
    return {"text": review.text, "changes": [asdict(c) for c in review.changes],
            "refused": [asdict(p) | {"candidates": list(p.candidates)} for p in review.problems]}


def review_text(data: dict[str, Any]) -> str:
    """A review for people: each change, each refusal with its candidates, then the text."""
    rows = [f"line {c['line']}: {c['before']} -> {c['after']} ({c['why']})"
            for c in data["changes"]]
    rows += [f"line {p['line']}: {p['link']} refused: {p['why']}"
             + (f"; did you mean {' or '.join(f'[[{c}]]' for c in p['candidates'])}?"
                if p["candidates"] else "") for p in data["refused"]]
    if not rows:
        return "Every link can be written as it is."
    return "\n".join(rows) + ("\n\n" + data["text"] if data["changes"] else "")


class _Lookup:
    """Where one text's links go, with the notes it links that resolve to one note."""

    def __init__(self, vault: Vault, source: str, note: Note) -> None:
        self.vault = vault
        self.source = source
        self.folder = source.rpartition("/")[0]
        self.links = note.links

    @functools.cached_property
    def sure(self) -> set[str]:
        """The notes the text's links reach without doubt: read only when a shared name or
        a mention needs them (each is one more look-up per link)."""
        return {found for link in self.links if link.kind != "markdown"
                for found in [self.one_note(link.target)] if found}

    def one_note(self, target: str) -> str | None:
        """The note ``target`` resolves to, if it resolves to one without doubt."""
        found, ambiguous = self.resolver(target).resolve(target, self.source)
        return found if found in self.vault.notes and not ambiguous else None

    def resolver(self, target: str) -> Resolver:
        """A resolver over the notes ``target`` may reach by its file name."""
        return Resolver(notes_named(self.vault.index.store, target), [])

    def review(self, link: Link, *, allow_new: bool) -> LinkChange | LinkProblem | None:
        """What to write for ``link``: a change, a refusal, or None to keep it."""
        target = link.target
        if not target.strip() or _attachment(target):
            return None
        found, ambiguous = self.resolver(target).resolve(target, self.source)
        if found is not None and found in self.vault.notes:
            if ambiguous:
                return self.among(link, notes_named(self.vault.index.store, target))
            return self.tidied(link, found)
        aliased = [i for i in named(self.vault.index.store, " ".join(target.split()))
                   if i in self.vault.notes]
        if aliased:
            return self.among(link, aliased, alias=True)
        return self.near(link, allow_new=allow_new)

    def tidied(self, link: Link, found: str) -> LinkChange | None:
        """``link`` naming ``found`` as the note names itself (case, spaces), if it does not."""
        name = found.rpartition("/")[2]
        meant = found if "/" in link.target.strip("/") else name
        tidy = self.change(link, meant, link.alias, f"the note is named {name!r}")
        return None if tidy.after == link.raw else tidy

    def among(self, link: Link, ids: list[str], *, alias: bool = False
              ) -> LinkChange | LinkProblem | None:
        """``link`` to the one of ``ids`` the text means, or refused with them."""
        meant, chosen = self.meant(ids, link.key)
        if meant is None:
            return LinkProblem(link.line, link.raw, f"{len(ids)} notes are named "
                               f"{link.target.strip()!r}", tuple(ids))
        if not alias and len(ids) == 1:
            return self.tidied(link, meant)
        shown = link.alias or (link.target.strip() if alias else None)
        why = (f"{link.target.strip()!r} is an alias of {meant}, and Obsidian resolves no "
               "link by alias") if alias else f"{len(ids)} notes have this name; {chosen}"
        style = "shortest" if alias else "absolute"
        target = self.vault.index.resolver.link_text(self.source, meant, style)[2:-2]
        return self.change(link, target, shown, why)

    def meant(self, ids: list[str], key: str | None) -> tuple[str | None, str]:
        """The one of ``ids`` this text means, and why: the only one, the one in its
        folder, the one of the type its property names, or the one linked with a note the
        text links."""
        if len(ids) == 1:
            return ids[0], ""
        wanted = KEY_TYPES.get((key or "").casefold())
        for rule, found in (
                ("this one is in the same folder", lambda i: i.rpartition("/")[0] == self.folder),
                (f"this one is the {wanted} {key} names",
                 lambda i: wanted is not None and self.vault.notes[i].type == wanted),
                ("this one is linked with the rest of the text", self.linked_with_text)):
            narrowed = [i for i in ids if found(i)]
            if len(narrowed) == 1:
                return narrowed[0], rule
        return None, ""

    def linked_with_text(self, note_id: str) -> bool:
        """True when ``note_id`` links, or is linked from, a note the text links."""
        graph = self.vault.graph  # built only when a shared name needs it
        return note_id in graph and any(graph.has_edge(note_id, other)
                                        or graph.has_edge(other, note_id) for other in self.sure)

    def near(self, link: Link, *, allow_new: bool) -> LinkChange | LinkProblem | None:
        """``link`` to no note: the note whose name it is but for punctuation and spacing, or
        refused when close to some (unless ``allow_new``), else kept."""
        target = link.target.strip()
        names = self.names()
        close = names.closest(target)
        same = same_name(target, {i: names.of(i) for i in close}) or [
            i for i in same_name(target, every_name(self.vault.index.store))
            if i in self.vault.notes]  # accents, a folder note's folder
        if len(same) == 1:
            title = same[0].rpartition("/")[2]
            own = [n for n in names.of(same[0]) if name_key(n) == name_key(target)]
            written = own[0] if own else target  # the note's spelling; a folder's: as given
            alias = link.alias or (written if written != title else None)
            return self.change(link, self.vault.index.resolver.link_text(
                self.source, same[0], "shortest")[2:-2], alias,
                f"{target!r} is how {same[0]} is named but for case, accents, punctuation and "
                "spacing")
        if close and not allow_new:
            return LinkProblem(link.line, link.raw, f"no note is named {target!r}",
                               tuple(close))
        return None

    def names(self) -> NoteNames:
        """Every note's file name and aliases, read once per state of the vault."""
        key = ("link names", self.vault.store.sources_generation())
        found = self.vault.derived.get(key)
        if not isinstance(found, NoteNames):
            found = self.vault.derived[key] = NoteNames.read(self.vault)
        return found

    def change(self, link: Link, target: str, alias: str | None, why: str) -> LinkChange:
        """The change writing ``link`` to ``target`` (its heading or block and embed kept)."""
        sub = f"#{link.subpath.removeprefix('#')}" if link.subpath else ""
        shown = f"|{alias}" if alias and alias != target.rpartition("/")[2] else ""
        after = f"{'!' if link.embed else ''}[[{target}{sub}{shown}]]"
        return LinkChange(link.line, link.raw, after, why)


def _attachment(target: str) -> bool:
    """True when ``target`` names a file other than a note (``diagram.png``, not
    ``Release 1.2``)."""
    name = target.strip().rpartition("/")[2]
    return "." in name and name.rpartition(".")[2].lower() in ATTACHMENTS
