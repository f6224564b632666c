"""Edit one frontmatter property by lines, leaving every other byte of the note as it was.

python-frontmatter's ``dumps`` re-serialises (sorting keys, dropping comments and the final
newline), so edits of existing notes never go through it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from ..errors import UsageError
from ..read.frontmatter import normalise

KEY = re.compile(r"[A-Za-z_][\w.-]*")
Value = str | int | float | bool | list[Any] | None


def newline_of(text: str) -> str:
    """The note's line ending (``\\r\\n`` when it uses them, else ``\\n``)."""
    return "\r\n" if "\r\n" in text else "\n"


def fence_span(lines: list[str]) -> tuple[int, int] | None:
    """Indices of the opening and closing ``---`` lines of the frontmatter, if any."""
    if not lines or lines[0].rstrip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            return 0, index
    return None


def yaml_value(value: Value) -> str:
    """``value`` as a YAML scalar: plain when it reads back the same, else double-quoted.

    >>> yaml_value("UTC+7"), yaml_value("[[Lucy Tan]]"), yaml_value("yes"), yaml_value(0.87)
    ('UTC+7', '"[[Lucy Tan]]"', '"yes"', '0.87')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    try:
        if "\n" not in text and normalise(yaml.safe_load(f"k: {text}"))["k"] == text:
            return text
    except (yaml.YAMLError, TypeError, KeyError):
        pass
    return json.dumps(text, ensure_ascii=False)


def _property_lines(key: str, value: Value, nl: str) -> list[str]:
    """The lines that write ``key: value`` (lists as block lists, as Obsidian writes them)."""
    if isinstance(value, list):
        if not value:
            return [f"{key}: []{nl}"]
        return [f"{key}:{nl}", *(f"  - {yaml_value(item)}{nl}" for item in value)]
    scalar = yaml_value(value)
    return [f"{key}: {scalar}{nl}" if scalar else f"{key}:{nl}"]


def _key_span(lines: list[str], start: int, end: int, key: str) -> tuple[int, int] | None:
    """Lines [i, j) holding top-level ``key`` and its value, between the fences."""
    pattern = re.compile(rf"""^(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*:""",
                         re.IGNORECASE)
    for index in range(start + 1, end):
        if pattern.match(lines[index]):
            last = index + 1
            while last < end and (lines[last][:1] in (" ", "\t", "-") or not lines[last].strip()):
                last += 1
            while last - 1 > index and not lines[last - 1].strip():
                last -= 1  # blank lines after the value belong to nobody
            return index, last
    return None


def set_property(text: str, key: str, value: Value) -> str:
    """``text`` with frontmatter property ``key`` set to ``value`` (added when missing).

    >>> set_property("---\\na: 1 # keep\\nb: x\\n---\\nbody", "b", "y")
    '---\\na: 1 # keep\\nb: y\\n---\\nbody'
    """
    if not KEY.fullmatch(key):
        raise UsageError(f"{key!r} is not a property name vaultmem writes (letters, digits, "
                         "_ . -; starting with a letter)")
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = text[len(bom) :].splitlines(keepends=True)
    nl = newline_of(text)
    new = _property_lines(key, value, nl)
    span = fence_span(lines)
    if span is None:
        return bom + "".join([f"---{nl}", *new, f"---{nl}", *lines])
    start, end = span
    block = "".join(lines[start + 1 : end])
    if block.lstrip().startswith("{"):  # JSON properties (a Digital Garden export): kept JSON
        lines[start + 1 : end] = [_json_set(block, key, value) + nl]
        return bom + "".join(lines)
    found = _key_span(lines, start, end, key)
    if found is None:
        if end > 0 and not lines[end - 1].endswith(("\n", "\r")):
            lines[end - 1] += nl
        lines[end:end] = new
    else:
        spelling = lines[found[0]].split(":", 1)[0].strip().strip("\"'")  # keep ``Timezone``
        lines[found[0] : found[1]] = _property_lines(spelling, value, nl)
    return bom + "".join(lines)


def _json_set(block: str, key: str, value: Value) -> str:
    """Frontmatter written as one JSON object, ``key`` set (its spelling kept), in its style.

    >>> _json_set('{"a":1,"Tags":["x"]}', "tags", ["x", "y"])
    '{"a":1,"Tags":["x","y"]}'
    """
    try:
        data = json.loads(block)
    except ValueError as exc:
        raise UsageError(f"the properties are JSON that does not parse ({exc}); fix them in "
                         "the note first") from exc
    spelling = next((k for k in data if k.lower() == key.lower()), key)
    data[spelling] = value
    compact = ", " not in block and ": " not in block
    return json.dumps(data, ensure_ascii=False, separators=(",", ":") if compact else None)


def set_properties(text: str, values: dict[str, Value]) -> str:
    """Set several properties, in order."""
    for key, value in values.items():
        text = set_property(text, key, value)
    return text
