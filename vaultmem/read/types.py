"""A note's memory type, read from the vault's own conventions, and daily-note dates (moment.js
formats).

Vaults type notes in many ways: ``type: person``, ``Type: Person``, ``type: "[[Authors]]"``,
``categories: ["[[People]]"]``, ``document_type: contact``, a ``People/`` or ``Contacts/``
folder, a ``#person`` tag. The first of these a note has gives its type (the names of memory
types and their plurals and synonyms mapped onto vaultmem's, any other value kept as given);
:class:`Typed` says which one did it.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..config import ROOT_FILES, Config
from ..folders import day_format, home_of

TYPE_KEYS = {"type", "document_type", "note_type", "kind"}  # the note's own type, any case
CATEGORY_KEYS = {"categories", "category"}  # read only for a value naming a memory type
TYPE_NAMES = {  # names vaults use for vaultmem's memory types: singular, plural, synonyms
    **dict.fromkeys(("person", "people", "persons", "contact", "contacts", "author", "authors",
                     "crm"), "person"),
    **dict.fromkeys(("project", "projects"), "project"),
    **dict.fromkeys(("decision", "decisions", "adr", "adrs"), "decision"),
    **dict.fromkeys(("lesson", "lessons"), "lesson"),
    **dict.fromkeys(("agent", "agents"), "agent"),
    **dict.fromkeys(("kpi", "kpis", "metric", "metrics"), "kpi"),
    **dict.fromkeys(("fact", "facts"), "fact"),
    **dict.fromkeys(("daily", "dailies", "daily note", "daily notes"), "daily"),
}
# folders and tags never make a note daily: the daily-notes settings (folder, format) do
PLACE_TYPES = {name: kind for name, kind in TYPE_NAMES.items() if kind != "daily"}
# A tag types a note by a type's own name (#person, #people/friends); a tag that is only a
# synonym (#crm, #metrics, #authors) means the type only on a note with that type's properties
# (a #crm tag marks CRM products as often as contacts, #metrics a lesson about measuring).
TAG_TYPES = {name: kind for name, kind in PLACE_TYPES.items()
             if name in (kind, f"{kind}s", "people")}
TYPE_PROPERTIES = {
    "person": {"email", "phone", "role", "company", "organization", "birthday", "linkedin",
               "twitter", "timezone", "pronouns"},
    "project": {"status", "deadline", "due", "owner", "start", "stage", "client"},
    "decision": {"decided", "decision", "rationale", "supersedes", "superseded_by"},
    "lesson": {"pattern_key", "rule"}, "agent": {"model", "persona"},
    "kpi": {"target", "unit", "baseline", "current", "metric"},
    "fact": {"entity", "attribute", "valid_from"},
}

MONTHS = "|".join(calendar.month_name[1:])
MONTHS_SHORT = "|".join(calendar.month_abbr[1:])
DAYS = "|".join(calendar.day_name)
DAYS_SHORT = "|".join(calendar.day_abbr)
# moment.js format parts, longest first; named groups carry the date parts.
DATE_FORMAT_PARTS = [
    ("YYYY", r"(?P<Y>\d{4})"), ("YY", r"(?P<y>\d{2})"),
    ("MMMM", rf"(?P<B>{MONTHS})"), ("MMM", rf"(?P<b>{MONTHS_SHORT})"),
    ("MM", r"(?P<m>\d{2})"), ("M", r"(?P<m>\d{1,2})"),
    ("Do", r"(?P<d>\d{1,2})(?:st|nd|rd|th)"), ("DD", r"(?P<d>\d{2})"), ("D", r"(?P<d>\d{1,2})"),
    ("dddd", rf"(?:{DAYS})"), ("ddd", rf"(?:{DAYS_SHORT})"), ("dd", r"(?:Mo|Tu|We|Th|Fr|Sa|Su)"),
    ("d", r"\d"), ("E", r"\d"), ("e", r"\d"), ("WW", r"\d{2}"), ("W", r"\d{1,2}"),
    ("ww", r"\d{2}"), ("w", r"\d{1,2}"), ("Q", r"\d"), ("gggg", r"\d{4}"), ("GGGG", r"\d{4}"),
]


@functools.lru_cache(maxsize=32)
def daily_pattern(fmt: str) -> re.Pattern[str]:
    """A regex that matches file stems written in the moment.js format ``fmt``.

    >>> daily_pattern("YYYY-MM-DD").fullmatch("2026-08-20") is not None
    True
    """
    out, index, seen = [], 0, set()
    while index < len(fmt):
        if fmt[index] == "[":
            close = fmt.find("]", index)
            close = len(fmt) if close < 0 else close
            out.append(re.escape(fmt[index + 1 : close]))
            index = close + 1
            continue
        token = next((t for t in DATE_FORMAT_PARTS if fmt.startswith(t[0], index)), None)
        if token is None:
            out.append(re.escape(fmt[index]))
            index += 1
            continue
        group = token[1]
        name = re.match(r"\(\?P<(\w)>", group)
        if name and name.group(1) in seen:  # a repeated part must not redefine the group
            group = f"(?P={name.group(1)})"
        elif name:
            seen.add(name.group(1))
        out.append(group)
        index += len(token[0])
    return re.compile("".join(out), re.IGNORECASE)


def daily_date(stem: str, fmt: str) -> str | None:
    """The ISO date of a daily note named ``stem`` in format ``fmt``, or None.

    >>> daily_date("2026/08/20-Thu", "YYYY/MM/DD-ddd")
    '2026-08-20'
    """
    match = daily_pattern(fmt).fullmatch(stem)
    if not match:
        return None
    parts = match.groupdict()
    year = int(parts["Y"]) if parts.get("Y") else 2000 + int(parts["y"] or 0)
    month = _month(parts)
    day = int(parts.get("d") or 1)
    if parts.get("Y") is None and parts.get("y") is None:
        return None
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _month(parts: dict[str, str | None]) -> int:
    """The month number from whichever month token matched."""
    if parts.get("m"):
        return int(parts["m"] or 1)
    for key, names in (("B", calendar.month_name), ("b", calendar.month_abbr)):
        if parts.get(key):
            return [n.lower() for n in names].index((parts[key] or "").lower())
    return 1


def in_folder(path: str, folder: str) -> bool:
    """True when vault path ``path`` lies inside ``folder`` ("" is the vault root)."""
    return not folder or path.lower().startswith(folder.lower().rstrip("/") + "/")


class Typed(NamedTuple):
    """A note's memory type and what says so (``type``, ``categories``, ``folder People``,
    ``tag #person``, ``daily folder``, ``root file``, or ``default``)."""

    type: str
    by: str


def note_type(path: str, properties: Mapping[str, Any], tags: list[str], config: Config,
              *, daily: bool = False) -> Typed:
    """The memory type of the note at ``path`` from its properties, the vault's folders (the
    configured ones, then the folder it is in when named like a type), its tags, else
    ``note``."""
    names = {**TYPE_NAMES, **config.types}
    for key, value in properties.items():
        if key.casefold() in TYPE_KEYS and (found := _type_name(value, names, keep=True)):
            return Typed(found, key)
    if daily:
        return Typed("daily", "daily folder")
    for key, value in properties.items():
        if key.casefold() in CATEGORY_KEYS and (found := _type_name(value, names, keep=False)):
            return Typed(found, key)
    return _typed_by_place(path, tags, config, {str(key).casefold() for key in properties})


def _typed_by_place(path: str, tags: list[str], config: Config, keys: set[str]) -> Typed:
    """The type a note's path, folders or tags give it (``keys``: its property names)."""
    if path in ROOT_FILES:
        return Typed(ROOT_FILES[path], "root file")
    for kind, folder in sorted(config.folders.items(), key=lambda kv: -len(kv[1])):
        if folder and in_folder(path, folder):
            return Typed(kind, f"folder {folder}")
    places = {**PLACE_TYPES, **config.types}
    parent = path.rpartition("/")[0].rpartition("/")[2]  # the folder the note is in
    if (found := places.get(parent.casefold().strip("_ "))) is not None:
        return Typed(found, f"folder {parent}")
    for tag in tags:
        name = tag.casefold().split("/")[0]
        if (found := {**TAG_TYPES, **config.types}.get(name)) is not None or (
                (found := places.get(name)) is not None
                and keys & TYPE_PROPERTIES.get(found, set())):
            return Typed(found, f"tag #{tag}")
    return Typed("note", "default")


def _type_name(value: Any, types: Mapping[str, str], *, keep: bool) -> str | None:
    """The memory type a property value names (``[[People]]``, ``Person``, a list of them);
    a value naming none is kept as the type itself when ``keep`` (a ``type: movie``)."""
    values = value if isinstance(value, list) else [value]
    given = [str(v).strip().removeprefix("[[").removesuffix("]]").split("|")[0]
             .rsplit("/", 1)[-1].strip().casefold() for v in values if isinstance(v, str)]
    given = [name for name in given if name]
    known = [types[name] for name in given if name in types]
    return known[0] if known else (given[0] if keep and given else None)


def daily_of(note_id: str, config: Config) -> str | None:
    """The date of a note that lives in the daily folder and is named in the daily format, or
    that a journal of the vault holds (:mod:`vaultmem.journals`: named by a date alone, maybe
    in year or month folders inside it)."""
    if in_folder(note_id, config.daily_folder):
        inner = note_id[len(config.daily_folder) + 1 :] if config.daily_folder else note_id
        if found := daily_date(inner, config.daily_format):
            return found
    folder, _, stem = note_id.rpartition("/")
    home = home_of(folder)
    for journal in config.journals:
        if journal.folder == home and day_format(stem) == journal.format:
            return daily_date(stem, journal.format)
    return None
