"""Create memory entries from templates: any type, decisions (with supersedes) and lessons."""

from __future__ import annotations

import datetime as dt
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence

from rapidfuzz import fuzz, process

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError, VaultmemError
from ..index.lookup import every_name, named, notes_of_type
from ..model import Note
from ..names import check_title
from ..read.frontmatter import normalise
from ..similar_names import name_variant, same_name
from ..vault import Vault
from .apply import Check, WriteResult, apply, guard
from .author import agent_for, author_note, refuse_stamp_parts
from .props import Value, set_properties
from .sections import append_to_section, insert_before_sections
from .templates import builtin_names, render, template_text

FUZZY_MIN = 90
RULE = "Rule"  # the section of a lesson note its rule is written in (and read from)
SHORT_NAME = 5
DUPLICATE_OF = "possible_duplicate_of"  # set by new --force on a note named like another
RECORDED_BY = "recorded_by"  # the agent that created a note through a token made for it


class DuplicateNote(VaultmemError):
    """A note with the same or a near-identical title or alias exists already."""


def find_duplicate(vault: Vault, kind: str, title: str) -> Note | None:
    """An existing note named or aliased ``title``, or the same name written another way
    (``agh-iberica`` for ``AGH Ibérica``, a folder note by its folder:
    :func:`~vaultmem.similar_names.same_name`; ``Tan Lucy``, ``Lucy T.``, a middle name dropped:
    :func:`~vaultmem.similar_names.name_variant`), of any type (one of ``kind`` first); or a
    note of ``kind`` named near-identically.

    Names shorter than five characters only match exactly (``Ana`` is not ``Ann``).
    """
    wanted = " ".join(title.split())  # "Steph  ango" is "Steph Ango"
    held = [note_id for note_id in named(vault.store, wanted) if note_id in vault.notes]
    if held:
        return vault.notes[held[0]]
    names = {i: given for i, given in every_name(vault.store).items() if i in vault.notes}
    kin = notes_of_type(vault.store, kind)
    same = sorted((i not in kin, i) for i in same_name(wanted, names))  # a slug, accents
    if same:
        return vault.notes[same[0][1]]
    variants = sorted((i not in kin, i) for i, given in names.items()
                      if any(name_variant(title, name) for name in given))
    if variants or len(title) < SHORT_NAME:
        return vault.notes[variants[0][1]] if variants else None
    choices = {f"{i}\x00{name}": name for i in kin for name in names.get(i, ())
               if len(name) >= SHORT_NAME}
    best = process.extractOne(title, choices, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN,
                              processor=str.casefold)
    return vault.notes[best[2].split("\x00")[0]] if best else None


def _folder_for(vault: Vault, kind: str) -> str | None:
    """Where a new note of ``kind`` goes: its configured folder when the vault has it (or
    ``.vaultmem/config.toml`` names it), else where the vault keeps most notes of that type
    (``References/`` for people typed by ``categories``), else the configured one to make."""
    folder = vault.config.folders.get(kind)
    if folder is None or (vault.root / folder).is_dir() or kind in vault.config.folders_set:
        return folder
    _ = vault.index  # current first: the index says where the notes are
    homes = Counter(note_id.rpartition("/")[0] for note_id in
                    notes_of_type(vault.store, kind) if "/" in note_id)
    return homes.most_common(1)[0][0] if homes else folder


def link_to(vault: Vault, source: str, target: str) -> str:
    """The wikilink to write in ``source`` for ``target``, in the vault's newLinkFormat."""
    resolved, _ = vault.index.resolver.resolve(target.strip().strip("[]"), source)
    if resolved is None:
        return f"[[{target.strip().strip('[]')}]]"
    return vault.index.resolver.link_text(source, resolved, vault.config.new_link_format)


def _props(vault: Vault, note_id: str, fields: Mapping[str, Value],
           links: Mapping[str, Sequence[str]]) -> dict[str, Value]:
    """Fields as given, links as wikilinks (a list when a key has several)."""
    props: dict[str, Value] = {k: v for k, v in fields.items() if v not in (None, "")}
    for key, targets in links.items():
        written: list[Value] = [link_to(vault, note_id, t) for t in targets if t]
        if written:
            props[key] = written if len(written) > 1 or isinstance(fields.get(key), list) \
                else written[0]
    return props


def _expect(kind: str, props: Mapping[str, Value]) -> Check:
    """A check that the new note has the type and every property it was given."""

    def check(note: Note) -> str | None:
        if note.type != kind:
            return f"the note would have type {note.type!r}, not {kind!r}"
        wrong = [k for k, v in props.items() if note.frontmatter.get(k) != normalise(v)]
        return f"properties {', '.join(wrong)} would not read back as given" if wrong else None

    return check


def new_note(vault: Vault, kind: str, title: str, *, fields: Mapping[str, Value] | None = None,
             links: Mapping[str, Sequence[str]] | None = None, body: str | None = None,
             force: bool = False, dry_run: bool = False, when: dt.datetime | None = None,
             section: str | None = None, caller: Caller = LOCAL) -> WriteResult:
    """Create a note of type ``kind`` titled ``title`` in its folder, from its template, for
    ``caller``; ``body`` goes under ``## section`` (made if the template has none), else at
    the end."""
    fields, links = dict(fields or {}), dict(links or {})
    guard(vault, title, body, *(str(v) for v in fields.values()), where=f"new {kind}")
    texts = {f"property {key}": _text(value) for key, value in fields.items()}
    refuse_stamp_parts(f"new {kind}", texts)  # a later fact's ## History line quotes them
    folder = _folder_for(vault, kind)
    if folder is None or kind not in builtin_names():
        known = sorted(set(builtin_names()) & set(vault.config.folders))
        raise UsageError(f"cannot create notes of type {kind!r}; known types: {', '.join(known)}")
    duplicate = find_duplicate(vault, kind, title)
    if duplicate is not None and not force:
        raise DuplicateNote(f"a note like {title!r} exists: did you mean [[{duplicate.id}]]? "
                            "(to create it anyway: --force; MCP force=true)")
    stem = check_title(title)
    rel = f"{folder}/{stem}.md" if folder else f"{stem}.md"
    if duplicate is not None:  # created anyway: both stay flagged until one is merged
        links[DUPLICATE_OF] = [duplicate.id]
    when = when or clock.now()
    writer = author_note(vault, caller)
    if writer is not None:
        links.setdefault(RECORDED_BY, [writer.id])
    props = _props(vault, rel[:-3], fields, links)
    template = render(template_text(vault.config, kind), vault.config, title, when)
    text = set_properties(template, props)
    text = _with_body(text, body, section)

    def create(old: str | None) -> str:
        if old is not None:
            raise DuplicateNote(f"{rel} already exists; vaultmem never overwrites a note")
        return text

    result = apply(vault, rel, create, action="created", check=_expect(kind, props),
                   dry_run=dry_run, template=template, caller=caller)
    if duplicate is not None:
        result.messages.append(f"named like [[{duplicate.id}]]: both are listed by `vaultmem "
                               "conflicts` as a possible duplicate until one is merged")
    return result


def _text(value: Value) -> str:
    """A property value as text (a list's items joined by commas)."""
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _with_body(text: str, body: str | None, section: str | None) -> str:
    """The new note's text with ``body`` under ``## section``, or as its opening text (above
    the template's sections, not under its last one)."""
    if not body or not body.strip():
        return text
    if section is None:
        return insert_before_sections(text, body)
    return append_to_section(text, section, body.strip("\n").splitlines())


def history_line(when: dt.date, text: str) -> str:
    """One line of a note's ``## History`` list."""
    return f"- {when.isoformat()}: {text}"


def supersede(vault: Vault, old: Note, new_id: str, *, when: dt.date,
              dry_run: bool = False, caller: Caller = LOCAL) -> WriteResult:
    """Mark decision ``old`` superseded by ``new_id``, keeping a history line."""
    link = link_to(vault, old.id, new_id)

    def change(text: str | None) -> str | None:
        if text is None:
            raise UsageError(f"{old.path} disappeared; nothing was written")
        text = set_properties(text, {"status": "superseded", "superseded_by": link})
        return append_to_section(text, "History", [history_line(when, f"superseded by {link}")])

    return apply(vault, old.path, change, action="updated", dry_run=dry_run,
                 check=_expect(old.type, {"status": "superseded", "superseded_by": link}),
                 caller=caller)


def decide(vault: Vault, title: str, *, topic: str, by: str | None = None,
           supersedes: str | None = None, rationale: str | None = None,
           status: str = "proposed", alternatives: Sequence[str] = (), body: str | None = None,
           force: bool = False, dry_run: bool = False,
           when: dt.datetime | None = None, caller: Caller = LOCAL) -> list[WriteResult]:
    """Record a decision; ``supersedes`` also marks the older decision superseded."""
    when = when or clock.now()
    old = vault.note(supersedes) if supersedes else None
    if old is not None:
        if old.type not in ("decision", "lesson"):
            raise UsageError(f"--supersedes takes a decision; [[{old.id}]] is a {old.type}")
        supersede(vault, old, "New", when=when.date(), dry_run=True,  # fails now, not halfway
                  caller=caller)
    fields: dict[str, Value] = {"topic": topic, "status": status, "rationale": rationale,
                                "date": when.date().isoformat()}
    if alternatives:
        fields["alternatives"] = list(alternatives)
    links = {"decided_by": [by] if by else [], "supersedes": [old.id] if old else []}
    results = [new_note(vault, "decision", title, fields=fields, links=links, body=body,
                        force=force, dry_run=dry_run, when=when, caller=caller)]
    if status == "proposed":
        results[0].messages.append(f"status proposed: contexts list it among decisions once "
                                   f"approved (vaultmem fact {shlex.quote(results[0].id)} "
                                   "status approved)")
    if old is not None:
        results.append(supersede(vault, old, results[0].id, when=when.date(), dry_run=dry_run,
                                 caller=caller))
    return results


def lesson(vault: Vault, title: str, *, agent: str | None = None,
           pattern_key: str | None = None,
           applies_to: str | None = None, source: str | None = None, status: str = "observing",
           body: str | None = None, force: bool = False, dry_run: bool = False,
           when: dt.datetime | None = None, caller: Caller = LOCAL) -> WriteResult:
    """Record a lesson learned by ``agent`` (an existing agent note; None: the one ``caller``
    writes as)."""
    chosen = agent_for(vault, agent, caller)
    if chosen is None:
        raise UsageError("a lesson is an agent's: name the agent (its agent note)")
    agent_note = vault.note(chosen, kind="agent")
    fields: dict[str, Value] = {"pattern_key": pattern_key, "status": status}
    links = {"agent": [agent_note.id], "applies_to": [applies_to] if applies_to else [],
             "source": [source] if source else []}
    return new_note(vault, "lesson", title, fields=fields, links=links, body=body, force=force,
                    dry_run=dry_run, when=when, section=RULE, caller=caller)
