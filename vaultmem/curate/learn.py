"""The learning loop: log corrections, errors and requests; promote a key seen three times."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import NoteNotFound, UsageError
from ..names import check_title
from ..vault import Vault
from ..write.apply import TextRefused, WriteResult, apply, guard
from ..write.author import agent_for, author_note
from ..write.entries import link_to, new_note
from ..write.journal import entry_title
from ..write.props import Value, set_properties
from ..write.sections import append_text, append_to_section, headings_in, section_lines
from .learning_files import Entry as Entry  # re-exported: the format's entry type
from .learning_files import entries_of as entries_of
from .learning_files import first_logged, of_key, seen, set_fields

KINDS = {"correction": ("LEARNINGS", "LRN"), "error": ("ERRORS", "ERR"),
         "request": ("FEATURE_REQUESTS", "FEAT")}
PROMOTE_AT = 3
PATTERN_KEY = re.compile(r"[A-Za-z0-9][\w.-]*")
HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)", re.MULTILINE)


@dataclass
class Logged:
    """What one ``learn`` call recorded (or would record), and where a promotion goes."""

    key: str
    rel: str
    lesson: str  # id of the lesson note a promotion goes to
    agent: str | None = None
    id: str = ""
    count: int = 0
    sources: list[str] = field(default_factory=list)  # entry ids of the key, the new one last
    first: str = ""  # the key's first Logged date
    link: str | None = None  # the Promoted-To link, when the key is promoted
    again: bool = False  # the key had been promoted before


def lesson_link(vault: Vault, rel: str, lesson: str) -> str:
    """The link from learnings file ``rel`` to lesson note ``lesson`` (existing or to be)."""
    shown = lesson if lesson in vault.notes else lesson.rsplit("/", 1)[-1]
    return link_to(vault, rel[:-3], shown)


def _block(logged: Logged, kind: str, text: str, context: str | None, action: str | None,
           day: str, by: str | None = None) -> str:
    """The Markdown of a new entry (``by``: the link to the agent that logged it); an error's
    or request's full text goes into its context when the title had to cut it."""
    title = entry_title(text)
    full = None if kind == "correction" or title == text.strip() else text.strip()
    parts = [("Context", "\n\n".join(t.strip() for t in (full, context) if t and t.strip())),
             ("Learning", text.strip() if kind == "correction" else ""), ("Action", action)]
    head = [f"## [{logged.id}] {title}", f"**Pattern-Key**: {logged.key}",
            f"**Count**: {logged.count}", f"**Status**: {'promoted' if logged.link else 'pending'}",
            f"**Logged**: {day}", *([f"**Logged-By**: {by}"] if by else []),
            *([f"**Promoted-To**: {logged.link}"] if logged.link else [])]
    body = [f"### {name}\n{part.strip()}" for name, part in parts if part and part.strip()]
    return "\n\n".join(["\n".join(head), *body]) + "\n"


def promotion_target(vault: Vault, key: str, agent: str | None, area: str | None,
            prior: list[Entry]) -> tuple[str, str | None]:
    """(lesson id, agent id) a promotion of ``key`` goes to: the agent's lesson of that key,
    else any lesson of that key, else the one it was promoted to before, else
    ``Lessons/<area>``."""
    folder = vault.config.folders.get("lesson", "Lessons")
    if agent:
        who = vault.note(agent, kind="agent")
        mine = [n.id for n in vault.notes.values() if n.type == "lesson"
                and str(n.frontmatter.get("pattern_key") or "").casefold() == key.casefold()
                and any(link.key == "agent" and link.resolved == who.id for link in n.links)]
        words = " ".join(w[:1].upper() + w[1:] for w in re.split(r"[._\s-]+", key) if w)
        new = f"{folder}/{check_title(f'{who.title} - {words}')}".removeprefix("/")
        return (mine or [new])[0], who.id
    same = sorted(n.id for n in vault.notes.values() if n.type == "lesson"
                  and str(n.frontmatter.get("pattern_key") or "").casefold() == key.casefold())
    if same and not area:
        return same[0], None
    for entry in [] if area else prior:
        try:
            before = vault.note(entry.value("Promoted-To").strip("[]").split("|")[0])
        except NoteNotFound:
            continue
        if before.type == "lesson":
            return before.id, None
    return _free(vault, folder, check_title(area or key.split(".")[0])), None


def _free(vault: Vault, folder: str, name: str) -> str:
    """``folder/name``, or ``folder/name lessons`` when another note has that name (its links
    would become ambiguous)."""
    wanted = f"{folder}/{name}".removeprefix("/")
    taken = {i.rsplit("/", 1)[-1].casefold() for i in vault.notes if i != wanted}
    return f"{wanted} lessons" if name.casefold() in taken else wanted


def _lesson_change(count: int | None, rule: str | None,
                   sources: list[str]) -> Callable[[str | None], str]:
    """Confirm a lesson: its status, count (unless None), the rule and sources (none twice)."""

    def change(old: str | None) -> str:
        if old is None:
            raise UsageError("the lesson note disappeared; the learning entry is written")
        text = set_properties(old, {"status": "confirmed", **({"count": count} if count else {})})
        if rule and rule not in section_lines(text, "Rule"):
            text = append_to_section(text, "Rule", [rule])
        new = [s for s in sources if s not in section_lines(text, "Sources")]
        return append_to_section(text, "Sources", new) if new else text

    return change


def promote(vault: Vault, logged: Logged, rule: str, when: dt.datetime,
            dry_run: bool, caller: Caller = LOCAL) -> WriteResult:
    """Add the confirmed rule and the sources to the lesson note, creating it when it is
    missing; a key promoted before only adds sources, and only a lesson of this key counts."""
    source, note = logged.rel[:-3], vault.notes.get(logged.lesson)
    sources = [f"- {i} ({link_to(vault, logged.lesson, source)})" for i in logged.sources]
    own = str((note.frontmatter if note else {}).get("pattern_key") or logged.key)
    change = _lesson_change(logged.count if own.casefold() == logged.key.casefold() else None,
                            None if logged.again and note else "- " + " ".join(rule.split()),
                            sources)
    if note is not None:
        return apply(vault, note.path, change, action="updated", dry_run=dry_run,
                     caller=caller)
    fields: dict[str, Value] = {"pattern_key": logged.key, "count": logged.count,
                                "status": "confirmed", "first_seen": logged.first}
    made = new_note(vault, "lesson", logged.lesson.rsplit("/", 1)[-1], fields=fields,
                    links={"agent": [logged.agent] if logged.agent else [], "source": [source]},
                    force=True, when=when, dry_run=dry_run,  # the name is the key's: no guess
                    caller=caller)
    if dry_run:
        made.messages.append(f"would add the rule and {len(sources)} sources")
    else:
        made.messages += apply(vault, made.path, change, action="updated",
                               caller=caller).messages
    return made


def _check_input(vault: Vault, kind: str, text: str, key: str, *more: str | None) -> None:
    """Refuse bad input (UsageError) and secrets (SecretRefused) before anything is written."""
    if kind not in KINDS:
        raise UsageError(f"unknown learning kind {kind!r}; use {', '.join(KINDS)}")
    if not text.strip():
        raise UsageError("nothing to learn: the text is empty")
    if not PATTERN_KEY.fullmatch(key):
        raise UsageError(f"pattern key {key!r} must be one word like ocr.deskew")
    if any(HEADING.search(t) or headings_in(t, "### Context\n") for t in (text, *more) if t):
        raise TextRefused("entry texts cannot hold Markdown headings (lines starting with #, "
                          "or a line of - or = under a line of text): a heading would read as "
                          "another entry, which only the writer writes; write it as a plain "
                          "line, with a blank line above a line of - or =")
    guard(vault, text, key, *more, where="learning entry")


def _log_change(vault: Vault, logged: Logged, kind: str, when: dt.datetime,
                texts: tuple[str, str | None, str | None],
                caller: Caller) -> Callable[[str | None], str]:
    """Append the entry, signed as ``caller`` writes; update the key's counts (and statuses,
    once promoted) in the file."""
    (stem, prefix), day = KINDS[kind], when.date().isoformat()
    writer = author_note(vault, caller)
    by = link_to(vault, logged.rel[:-3], writer.id) if writer else None

    def change(old: str | None) -> str:
        base = old if old is not None else f"---\ntype: learning\n---\n# {stem}\n"
        entries = entries_of(base)
        prior = of_key(entries, logged.key)
        taken = [int(e.id.rsplit("-", 1)[1]) for e in entries
                 if e.id.startswith(f"{prefix}-{when:%Y%m%d}-")]
        logged.id = f"{prefix}-{when:%Y%m%d}-{max(taken, default=0) + 1:03d}"
        logged.count = seen(prior) + 1
        logged.sources = [*(e.id for e in prior), logged.id]
        logged.first = first_logged(prior, day)
        logged.again = any(e.value("Status") == "promoted" for e in prior)
        logged.link = lesson_link(vault, logged.rel, logged.lesson) \
            if logged.count >= PROMOTE_AT else None
        update = {"Count": str(logged.count)}
        update |= {"Status": "promoted", "Promoted-To": logged.link} if logged.link else {}
        return append_text(set_fields(base, prior, update),
                           _block(logged, kind, *texts, day, by))

    return change


def log_learning(vault: Vault, kind: str, text: str, *, pattern_key: str,
                 context: str | None = None, action: str | None = None, area: str | None = None,
                 agent: str | None = None, when: dt.datetime | None = None,
                 dry_run: bool = False,
                 caller: Caller = LOCAL) -> tuple[list[WriteResult], Logged]:
    """``learn``, also returning what was logged (for ``capture``)."""
    agent = agent_for(vault, agent, caller) if not area else agent
    _check_input(vault, kind, text, pattern_key, context, action, area, agent)
    when = when or clock.now()
    rel = f"{vault.config.folders.get('learning', 'Learnings')}/{KINDS[kind][0]}.md"
    rel = rel.removeprefix("/")
    now = vault.note_text(rel[:-3]) if rel[:-3] in vault.notes else None
    prior = of_key(entries_of(now or ""), pattern_key)
    logged = Logged(pattern_key, rel, *promotion_target(vault, pattern_key, agent, area, prior))
    change = _log_change(vault, logged, kind, when, (text, context, action), caller)
    rule = text if kind == "correction" else action or text
    change(now)  # the plan: a lesson that cannot be written fails before anything is written
    if logged.link and not dry_run:
        promote(vault, logged, rule, when, dry_run=True, caller=caller)
    result = apply(vault, logged.rel, change, action="appended", dry_run=dry_run,
                   caller=caller.expecting(logged.lesson))  # its lesson is written next
    result.messages.append(f"{logged.id}: {pattern_key}, count {logged.count}")
    if logged.link is None:
        return [result], logged
    result.messages.append(f"{pattern_key} promoted to {logged.link}")
    return [result, promote(vault, logged, rule, when, dry_run, caller)], logged


def learn(vault: Vault, kind: str, text: str, *, pattern_key: str, context: str | None = None,
          action: str | None = None, area: str | None = None, agent: str | None = None,
          when: dt.datetime | None = None, dry_run: bool = False,
          caller: Caller = LOCAL) -> list[WriteResult]:
    """Log a correction, error or request; a pattern key seen 3 times becomes a lesson rule."""
    return log_learning(vault, kind, text, pattern_key=pattern_key, context=context,
                        action=action, area=area, agent=agent, when=when, dry_run=dry_run,
                        caller=caller)[0]
