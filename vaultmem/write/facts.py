"""Record a fact on an entity note: set the property, bump ``version``, keep the history."""

from __future__ import annotations

import datetime as dt
import re

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError
from ..model import Note
from ..read import frontmatter
from ..text import stamp
from ..vault import Vault
from .apply import WriteResult, apply, guard
from .author import author_note, refuse_stamp_parts
from .entries import link_to
from .props import KEY, Value, set_properties
from .sections import append_to_section, section_lines

HOUSEKEEPING = {"type", "tags", "tag", "aliases", "alias", "version", "updated", "created",
                "cssclasses", "cssclass", "permalink", "publish", "generated_by", "date"}
NUMBER = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)")
HISTORY_VERSION = re.compile(r"\s*[-*+]\s+v(\d+)\s+\(")  # ``- v2 (2026-11-29): ...``


def parse_value(text: str) -> Value:
    """A CLI value as the property it stands for: numbers that read back exactly and
    true/false are typed, anything else stays text (``007`` and ``+49...`` keep their form).

    >>> parse_value("0.87"), parse_value("42"), parse_value("UTC+7"), parse_value("007")
    (0.87, 42, 'UTC+7', '007')
    """
    stripped = text.strip()
    if NUMBER.fullmatch(stripped):
        number = float(stripped) if "." in stripped else int(stripped)
        return number if str(number) == stripped else stripped
    if stripped.lower() in ("true", "false"):
        return stripped.lower() == "true"
    return stripped


def same_value(old: object, new: object) -> bool:
    """Values equal after normalising case, whitespace, numbers and wikilink brackets."""
    def norm(value: object) -> str:
        text = str(frontmatter.normalise(value)).strip().strip('"')
        text = re.sub(r"\s+", " ", text.replace("[[", "").replace("]]", ""))
        try:
            return repr(float(text))
        except ValueError:
            return text.casefold()
    return norm(old) == norm(new)


def _provenance(vault: Vault, note_id: str, source: str | None, confidence: float | None,
                valid_from: str | None, caller: Caller) -> str:
    """`` (by [[Agent]], source [[X]], confidence 0.9, valid from D)`` or nothing."""
    writer = author_note(vault, caller)
    parts = [stamp(link_to(vault, note_id, writer.id))] if writer else []
    if source:
        parts.append(f"source {link_to(vault, note_id, source)}")
    if confidence is not None:
        parts.append(f"confidence {confidence:g}")
    if valid_from:
        parts.append(f"valid from {valid_from}")
    return f" ({', '.join(parts)})" if parts else ""


def record_fact(vault: Vault, entity: str, attribute: str, value: str, *,
                source: str | None = None, confidence: float | None = None,
                valid_from: str | None = None, when: dt.datetime | None = None,
                dry_run: bool = False, caller: Caller = LOCAL) -> WriteResult:
    """Set ``attribute`` of the ``entity`` note for ``caller``; the old value stays in
    ``## History``."""
    guard(vault, value, attribute, source, valid_from, where=f"fact {attribute}")
    _check_line(attribute, {"value": value, "source": source, "valid from": valid_from})
    if not KEY.fullmatch(attribute) or attribute.lower() in HOUSEKEEPING:
        raise UsageError(f"{attribute!r} cannot be a fact attribute (use a simple name that is "
                         "not one of " + ", ".join(sorted(HOUSEKEEPING)) + ")")
    if confidence is not None and not 0 <= confidence <= 1:
        raise UsageError("--confidence must be between 0 and 1")
    note = vault.note(entity)
    today = (when or clock.now()).date()
    new = parse_value(value)
    extra = _provenance(vault, note.id, source, confidence, valid_from, caller)
    outcome: dict[str, object] = {}

    def change(text: str | None) -> str | None:
        if text is None:
            raise UsageError(f"{note.path} disappeared; nothing was written")
        data = frontmatter.parse(note.path, text.removeprefix("\ufeff")).data
        key = own_key(data, attribute)
        old = data.get(key)
        # the value being replaced is kept as the note's current version (v1 when none is
        # recorded); with nothing to keep, the new value is the first version recorded
        version = max(_recorded_version(data, text), 1 if old is not None else 0)
        outcome.update(old=old, version=version + 1)
        if old is not None and same_value(old, new):
            return None
        history = _history(text, attribute, old, version, data, today)
        history.append(f"- v{version + 1} ({today}): {attribute} = {new}{extra}")
        text = set_properties(text, {key: new, "version": version + 1,
                                     "updated": today.isoformat()})
        return append_to_section(text, "History", history)

    result = apply(vault, note.path, change, action="updated", dry_run=dry_run,
                   check=lambda n: _check(n, attribute, new), caller=caller)
    return _report(result, attribute, outcome)


def _check_line(attribute: str, texts: dict[str, str | None]) -> None:
    """Refuse what the texts of a ``## History`` line cannot hold: a line break, or a stamp
    naming a writer (only the writer's token puts one there)."""
    for what, text in texts.items():
        if text and text.splitlines() != [text]:
            raise UsageError(f"a fact {what} is one line; put longer text in the note's body")
    refuse_stamp_parts(f"fact {attribute}", texts)


def own_key(data: dict[str, object], attribute: str) -> str:
    """The note's own spelling of ``attribute`` (``Timezone`` for ``timezone``), else itself."""
    wanted = attribute.casefold()
    return next((key for key in data if key.casefold() == wanted), attribute)


def _recorded_version(data: dict[str, object], text: str) -> int:
    """The note's current version: its ``version`` property, else the highest ``vN`` of its
    ``## History`` list, else 0 (no version recorded yet)."""
    value = data.get("version")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    listed = [int(m.group(1)) for line in section_lines(text, "History")
              if (m := HISTORY_VERSION.match(line))]
    return max(listed, default=0)


def _history(text: str, attribute: str, old: object, version: int, data: dict[str, object],
             today: dt.date) -> list[str]:
    """The history line for the value being replaced, unless the list already has it."""
    if old is None:
        return []
    recorded = f"{attribute} = {frontmatter.normalise(old)}"
    latest = [line for line in section_lines(text, "History")
              if line.split("): ", 1)[-1].split(" = ", 1)[0] == attribute]
    if latest and latest[-1].split("): ", 1)[-1].split(" (", 1)[0] == recorded:
        return []  # the value being replaced is already the last one recorded
    since = data.get("updated") or data.get("created")
    return [f"- v{version} ({since or f'until {today}'}): {recorded}"]


def _check(note: Note, attribute: str, new: Value) -> str | None:
    """The written note must hold the new value."""
    have = note.frontmatter.get(own_key(note.frontmatter, attribute))
    return None if same_value(have, new) else f"{attribute} would read back as {have!r}"


def _report(result: WriteResult, attribute: str, outcome: dict[str, object]) -> WriteResult:
    """Add the version and the conflict message to the result."""
    old = outcome.get("old")
    if result.action == "unchanged":
        result.messages.append(f"{attribute} already has this value; nothing changed")
        return result
    version = outcome.get("version")
    result.version = version if isinstance(version, int) else None
    if old is not None:
        result.conflict = True
        kept = "would be kept" if result.action.startswith("would") else "kept"
        result.messages.append(f"conflict detected, both versions {kept}: {attribute} was "
                               f"{frontmatter.normalise(old)}; the old value is in ## History")
    return result


def confirm_fact(vault: Vault, entity: str, attribute: str, over: str, *,
                 when: dt.datetime | None = None, dry_run: bool = False,
                 caller: Caller = LOCAL) -> WriteResult:
    """Keep the entity note's value of ``attribute``: a history line says what it was kept over
    (``over``, e.g. ``UTC+7 in [[Daily/2026-11-26]]``) and ``updated`` moves to today."""
    note = vault.note(entity)
    today = (when or clock.now()).date()

    def change(text: str | None) -> str | None:
        if text is None:
            raise UsageError(f"{note.path} disappeared; nothing was written")
        data = frontmatter.parse(note.path, text.removeprefix("\ufeff")).data
        version = max(_recorded_version(data, text), 1)
        value = data.get(own_key(data, attribute))
        line = f"- v{version} ({today}): {attribute} = {value} (kept over {over})"
        text = set_properties(text, {"updated": today.isoformat()})
        return append_to_section(text, "History", [line])

    return apply(vault, note.path, change, action="updated", dry_run=dry_run, caller=caller)
