"""Frontmatter: find it, load it with python-frontmatter, normalise values, pull out links."""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler

from ..model import Json, Link, Problem, Tag
from .fences import key_line, split
from .inline import split_wikilink

HANDLER = YAMLHandler()
MAX_DEPTH = 40
MAX_SOURCE = 256 * 1024
MAX_ALIASES = 64
ALIAS = re.compile(r"(?:^|[\s\[{,:-])\*[^\s,\]}]+", re.MULTILINE)
PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}|<%.*?%>")
LIST_KEYS = {"tags": ("tags", "tag"), "aliases": ("aliases", "alias")}


@dataclass
class Frontmatter:
    """What a note's frontmatter holds, and where its body starts (0-based line)."""

    data: Json = field(default_factory=dict)
    body_line: int = 0
    tags: list[Tag] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class TooDeep(ValueError):
    """Frontmatter nested deeper than any note needs (or a self-referencing YAML alias)."""


def normalise(value: Any, depth: int = 0) -> Any:
    """YAML values as JSON-ready data: dates to ISO strings, keys to strings, NaN as text.

    >>> normalise({"date": dt.date(2026, 8, 20), 1: [dt.datetime(2026, 1, 2, 3, 4)]})
    {'date': '2026-08-20', '1': ['2026-01-02T03:04:00']}
    """
    if depth > MAX_DEPTH:
        raise TooDeep(f"nested more than {MAX_DEPTH} levels")
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): normalise(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [normalise(v, depth + 1) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def parse(path: str, text: str, check_placeholders: bool = True) -> Frontmatter:
    """Parse the frontmatter of ``text``; problems are recorded, never raised."""
    lines, body_line = split(text)
    result = Frontmatter(body_line=body_line)
    if lines is None:
        return result
    source = "\n".join(lines)
    if len(source) > MAX_SOURCE or (source.count("*") > MAX_ALIASES and ALIAS.search(source)):
        result.problems.append(Problem(path, "frontmatter", "frontmatter too large or with too "
                                       "many YAML aliases to read safely; simplify it", 2))
        return result
    try:
        loaded = HANDLER.load(source)
        data = normalise(loaded or {}) if isinstance(loaded, dict) or loaded is None else None
    except yaml.YAMLError as exc:
        result.problems.append(_yaml_problem(path, exc, source))
        return result
    except (ValueError, RecursionError) as exc:  # huge ints, self-referencing aliases
        result.problems.append(Problem(path, "frontmatter", f"frontmatter cannot be read "
                                       f"({exc.__class__.__name__}: {str(exc)[:80]}); "
                                       "simplify the properties", 2))
        return result
    if data is None:
        result.problems.append(Problem(path, "frontmatter", "frontmatter is not a list of "
                                       "properties (key: value); fix it in Obsidian", 2))
        return result
    result.data = data
    result.tags = _tags(result.data, lines)
    result.aliases = _strings(result.data, LIST_KEYS["aliases"])
    result.links = _links(result.data, lines)
    if check_placeholders:
        result.problems += _placeholders(path, lines)
    return result


def _yaml_problem(path: str, exc: yaml.YAMLError, source: str) -> Problem:
    """A problem for unparseable YAML, at the file line where the parser gave up.

    When it gave up only at the end (an unclosed ``[``), the line where that construct began;
    a character YAML does not allow (a control character) is found by its position.
    """
    count = source.count("\n") + 1
    mark = getattr(exc, "problem_mark", None)
    context = getattr(exc, "context_mark", None)
    if mark is not None and mark.line >= count and context is not None:
        mark = context
    line = min(mark.line, count) + 2 if mark is not None else None
    if isinstance(exc, yaml.reader.ReaderError):
        line = source.count("\n", 0, exc.position) + 2
    what = str(getattr(exc, "problem", None) or exc).strip()
    message = f"invalid YAML frontmatter: {what}; fix the properties (quote values with : or #)"
    return Problem(path, "frontmatter", message, line)


def _placeholders(path: str, lines: list[str]) -> list[Problem]:
    """Template placeholders left in a note outside the templates folder."""
    return [
        Problem(path, "placeholder", f"template placeholder {m.group(0)!r} in properties; "
                "fill it in or move the note to the templates folder", index + 2)
        for index, line in enumerate(lines)
        if (m := PLACEHOLDER.search(line))
    ]


def _strings(data: Json, keys: tuple[str, ...]) -> list[str]:
    """Values of the first present key among ``keys`` as a list of strings.

    Only text and numbers count (a mapping or a nested list is not a tag or an alias).
    """
    for key in keys:
        if key in data and data[key] is not None:
            value = data[key]
            items = value if isinstance(value, list) else str(value).split(",") \
                if isinstance(value, str | int | float) else []
            return [str(item).strip() for item in items
                    if isinstance(item, str | int | float) and str(item).strip()]
    return []


def _tags(data: Json, lines: list[str]) -> list[Tag]:
    """Frontmatter tags (``tags``/``tag``, list or comma/space separated), ``#`` dropped."""
    key = next((k for k in LIST_KEYS["tags"] if k in data), "tags")
    line = key_line(lines, key)
    names = [part for item in _strings(data, LIST_KEYS["tags"]) for part in item.split()]
    return [Tag(name.lstrip("#"), line) for name in names if name.lstrip("#")]


def _link_from(value: Any) -> tuple[str, str] | None:
    """(raw, inner) when ``value`` is a string holding exactly one wikilink."""
    if not isinstance(value, str):
        return None
    raw = value.strip()
    inner = raw[2:-2]
    if raw.startswith("[[") and raw.endswith("]]") and inner and "]]" not in inner:
        return raw, inner
    return None


def _links(data: Json, lines: list[str]) -> list[Link]:
    """Property links: values (or list items) that are exactly one ``[[wikilink]]``."""
    links: list[Link] = []
    for key, value in data.items():
        cursor = (key_line(lines, key) - 2, 0)  # (line index, column): repeats are found again
        for item in value if isinstance(value, list) else [value]:
            found = _link_from(item)
            if found is None:
                continue
            raw, inner = found
            target, subpath, alias, _ = split_wikilink(inner, False)
            cursor = _find(lines, raw, cursor)
            links.append(Link(raw, target, subpath, alias, False, cursor[0] + 2, "property", key))
            cursor = (cursor[0], cursor[1] + len(raw))
    return links


def _find(lines: list[str], raw: str, cursor: tuple[int, int]) -> tuple[int, int]:
    """Where ``raw`` is next written at or after ``cursor`` (the cursor itself if nowhere)."""
    row, column = cursor
    for index in range(max(row, 0), len(lines)):
        at = lines[index].find(raw, column if index == row else 0)
        if at >= 0:
            return index, at
    return cursor
