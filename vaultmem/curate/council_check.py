"""Check a council-memory JSON document before anything of it is written."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from ..errors import InvalidTitle, UsageError
from ..model import Json
from ..names import check_title
from ..vault import Vault
from ..write.apply import guard
from ..write.facts import HOUSEKEEPING
from ..write.props import KEY as FACT_KEY
from .council import FORMAT, VERSION

SECTIONS = ("facts", "decisions", "kpis", "lessons", "sessions")
REQUIRED = {"facts": ("entity", "attribute", "value"), "decisions": ("id",), "kpis": ("id",),
            "lessons": ("id",), "sessions": ("date", "entries")}
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
TIME = re.compile(r"(\d{1,2}):(\d{2})")
LISTS = {"facts": ("history",), "decisions": ("related", "alternatives", "history"),
         "kpis": ("history",), "lessons": ("sources",)}
DATES = {"facts": ("valid_from", "valid_until"), "decisions": ("date",), "kpis": ("updated",)}


class CouncilFormatError(UsageError):
    """A council-json document does not have the expected shape; nothing was written."""


def validate(vault: Vault, data: object) -> Json:
    """``data`` checked (shape, required keys, titles, no secrets); CouncilFormatError if not."""
    if not isinstance(data, dict):
        raise CouncilFormatError("a council-json document is a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        found = f"format {data.get('format')!r}, version {data.get('version')!r}"
        raise CouncilFormatError(f"not a {FORMAT} document of version {VERSION} ({found})")
    for section in SECTIONS:
        items = data.get(section, [])
        if not isinstance(items, list):
            raise CouncilFormatError(f"{section}: expected a list")
        for index, item in enumerate(items):
            _check_item(vault, section, f"{section}[{index}]", item)
    return data


def _check_item(vault: Vault, section: str, where: str, item: object) -> None:
    """One item: an object with its required keys, a usable title and no credentials."""
    if not isinstance(item, dict):
        raise CouncilFormatError(f"{where}: expected an object")
    for key in REQUIRED[section]:
        if item.get(key) in (None, "", []):
            raise CouncilFormatError(f"{where}: missing {key!r}")
    if section == "facts" and not isinstance(item["value"], str | int | float | bool):
        raise CouncilFormatError(f"{where}: 'value' must be text, a number or true/false")
    if section == "facts" and (not FACT_KEY.fullmatch(str(item["attribute"]))
                               or str(item["attribute"]).lower() in HOUSEKEEPING):
        raise CouncilFormatError(f"{where}: {item['attribute']!r} cannot be a fact attribute")
    _check_fields(where, section, item)
    if section == "sessions":
        _check_session(where, item)
    elif section != "facts":
        try:
            check_title(title_of(item))
        except InvalidTitle as error:
            raise CouncilFormatError(f"{where}: {error}") from None
    guard(vault, *_strings(item), where=where)


def _is_day(value: object) -> bool:
    """True for a real YYYY-MM-DD date."""
    try:
        return isinstance(value, str) and bool(DAY.fullmatch(value)) and bool(
            dt.date.fromisoformat(value))
    except ValueError:
        return False


def _check_fields(where: str, section: str, item: Json) -> None:
    """Lists are lists (of text, or of dated objects for history) and dates are real dates."""
    for key in LISTS.get(section, ()):
        value = item.get(key)
        rows = value if isinstance(value, list) else None
        if value not in (None, "") and (rows is None or (key == "history" and not all(
                isinstance(r, dict) and _is_day(r.get("date")) for r in rows))):
            kind = "objects with a YYYY-MM-DD 'date'" if key == "history" else "text"
            raise CouncilFormatError(f"{where}: {key!r} must be a list of {kind}")
    for key in DATES.get(section, ()):
        if item.get(key) not in (None, "") and not _is_day(item[key]):
            raise CouncilFormatError(f"{where}: {key!r} must be a date, YYYY-MM-DD")


def _check_session(where: str, item: Json) -> None:
    """A session: an ISO date and a list of entries with text or a title and an HH:MM time."""
    if not _is_day(item["date"]):
        raise CouncilFormatError(f"{where}: 'date' must be a date, YYYY-MM-DD")
    if not isinstance(item["entries"], list):
        raise CouncilFormatError(f"{where}: 'entries' must be a list")
    for index, entry in enumerate(item["entries"]):
        clock = TIME.fullmatch(str(entry.get("time") or "0:00")) if isinstance(entry, dict) \
            else None
        ok = isinstance(entry, dict) and (entry.get("text") or entry.get("title")) and clock \
            and int(clock.group(1)) < 24 and int(clock.group(2)) < 60
        if not ok:
            raise CouncilFormatError(f"{where}.entries[{index}]: needs a text or a title, "
                                     "and a time as HH:MM")
        if not isinstance(entry.get("by") or "", str):
            raise CouncilFormatError(f"{where}.entries[{index}]: 'by' names the agent who "
                                     "wrote the entry, as text (its agent note's name)")


def _strings(value: object) -> Iterator[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    inner = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    for part in inner if isinstance(inner, list) else []:
        yield from _strings(part)


def title_of(item: Json) -> str:
    """An item's title: ``title`` or ``name``, else the last part of its id."""
    return str(item.get("title") or item.get("name") or str(item["id"]).rsplit("/", 1)[-1])
