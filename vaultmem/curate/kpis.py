"""KPIs: record a measurement (value, history row, trend) and list every KPI against its target."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError
from ..model import Json, Note
from ..vault import Vault
from ..write.apply import WriteResult, apply, guard
from ..write.facts import parse_value
from ..write.props import Value, newline_of, set_properties
from ..write.sections import section_span

ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*([-+]?\d+(?:\.\d+)?)\s*\|")


@dataclass
class Kpi:
    """One KPI as it stands: value, target, unit, history and trend."""

    id: str
    name: str
    value: float | None
    target: float | None
    unit: str
    updated: str
    history: list[tuple[str, float]]
    trend: str

    def to_dict(self) -> Json:
        """JSON-ready data (``kpi --json``)."""
        return asdict(self)


def _number(value: object) -> float | None:
    """A property as a number, when it is one."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def trend(history: list[tuple[str, float]], target: float | None) -> str:
    """``up``/``down``/``flat`` over the last two measurements, and whether that heads for the
    target (``towards target``) or away from it.

    >>> trend([("a", 4.6), ("b", 4.2)], 3.0), trend([("a", 0.87), ("b", 0.86)], 0.95)
    ('down, towards target', 'down, away from target')
    """
    if len(history) < 2:
        return "no trend yet"
    before, now = history[-2][1], history[-1][1]
    word = "up" if now > before else "down" if now < before else "flat"
    if target is None or word == "flat":
        return word
    closer = abs(target - now) < abs(target - before)
    return f"{word}, {'towards' if closer else 'away from'} target"


def kpi_of(vault: Vault, note: Note) -> Kpi:
    """The KPI a note holds."""
    fm = note.frontmatter
    lines = vault.note_text(note.id).splitlines()
    history = [(m.group(1), float(m.group(2))) for line in lines if (m := ROW.match(line.strip()))]
    target = _number(fm.get("target"))
    return Kpi(note.id, note.title, _number(fm.get("value")), target, str(fm.get("unit") or ""),
               str(fm.get("updated") or ""), history, trend(history, target))


def kpis(vault: Vault) -> list[Kpi]:
    """Every KPI of the vault, by id."""
    return [kpi_of(vault, note) for note in vault.notes.values() if note.type == "kpi"]


def _add_row(text: str, cells: list[str]) -> str:
    """``text`` with a row added to the table under ``## History`` (made when missing)."""
    nl = newline_of(text)
    lines = text.splitlines(keepends=True)
    span = section_span(text, "History")
    table = [i for i in range(*span) if lines[i].lstrip().startswith("|")] if span else []
    if not table:
        body = text if text.endswith("\n") else text + nl
        header = "" if span else f"{nl}## History{nl}"
        return (body + header + f"| date | value |{nl}| --- | --- |{nl}"
                + "| " + " | ".join(cells[:2]) + f" |{nl}")
    width = lines[table[0]].strip().strip("|").count("|") + 1
    row = "|" + "|".join(f" {c} " if c else " " for c in (cells + [""] * width)[:width]) + "|" + nl
    last = table[-1]
    if not lines[last].endswith(("\n", "\r")):
        lines[last] += nl
    lines.insert(last + 1, row)
    return "".join(lines)


def record_kpi(vault: Vault, name: str, value: str, *, target: str | None = None,
               unit: str | None = None, note: str | None = None,
               when: dt.datetime | None = None, dry_run: bool = False,
               caller: Caller = LOCAL) -> WriteResult:
    """Set a KPI's value (and target, unit), add a history row, and report the trend."""
    guard(vault, value, target, unit, note, where=f"kpi {name}")
    kpi_note = vault.note(name)
    if kpi_note.type != "kpi":
        raise UsageError(f"[[{kpi_note.id}]] is a {kpi_note.type}, not a KPI; create it with "
                         f"`vaultmem new kpi \"{name}\"`")
    number = parse_value(value)
    if not isinstance(number, int | float) or isinstance(number, bool):
        raise UsageError(f"a KPI value is a number, not {value!r}")
    day = (when or clock.now()).date().isoformat()
    props: dict[str, Value] = {"value": number, "updated": day}
    if target is not None:
        props["target"] = parse_value(target)
    if unit is not None:
        props["unit"] = unit

    def change(text: str | None) -> str:
        if text is None:
            raise UsageError(f"{kpi_note.path} disappeared; nothing was written")
        cell = " ".join((note or "").split()).replace("|", "\\|")  # one cell, one line
        return _add_row(set_properties(text, props), [day, str(number), cell])

    result = apply(vault, kpi_note.path, change, action="updated", dry_run=dry_run,
                   caller=caller)
    if not dry_run:
        result.messages.append(kpi_of(vault, vault.note(kpi_note.id)).trend)
    return result
