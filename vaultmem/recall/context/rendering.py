"""How a context reads: its sections, each item's line, the order items are shown in, and
why each item is in (``context --explain``)."""

from __future__ import annotations

import re

from ..token_budget import counter
from .candidates import NOTE_REASON, ContextItem
from .restated import EARLIER

# (key, title, floor share of the budget, weight when sharing what is left)
SECTIONS = [("core", "Core memory", 0.12, 1.5), ("now", "Now", 0.10, 2.0),
            ("agent", "Agent", 0.15, 2.5), ("relevant", "Relevant", 0.28, 3.0),
            ("decisions", "Decisions", 0.08, 1.2), ("kpis", "KPIs", 0.05, 1.0),
            ("people", "People", 0.07, 1.2), ("recent", "Recent activity", 0.10, 1.0),
            ("conflicts", "Open conflicts: ask the user before relying on these", 0.05, 3.0)]
WHY_TITLE = "Why each item is in (not part of the context)"
SECTION_REASONS = {
    "core": "a line of MEMORY.md", "now": "a line of NOW.md",
    "agent": "the agent's role, rules or a confirmed lesson",
    "relevant": "a note the agent links",
    "decisions": "a decision in force (those the agent or the notes above link, or holding the "
                 "question's words, first)",
    "kpis": "a KPI (those the agent or the notes above link, or holding the question's words, "
            "first)",
    "people": "a person linked from the agent or the notes above",
    "recent": "an entry of the last daily notes",
    "conflicts": "an open conflict touching a note above"}


def reasons_shown(items: list[ContextItem]) -> str:
    """Why each item is in, in the order shown, as a section to put after a context."""
    shown = [f"- {item.source()}: {'; '.join(item.reasons or [SECTION_REASONS[item.section]])}"
             for item in in_order(items)]
    return f"\n## {WHY_TITLE}\n" + "\n".join(shown) + "\n" if shown else ""


def item_line(item: ContextItem) -> str:
    """``- text (source)``, continuation lines indented; code fenced, its source below it; a
    passage said earlier than another on the same thing says so after its source."""
    source = item.cite + "".join(f", {reason}" for reason in item.reasons
                                 if reason.startswith(EARLIER))
    if item.kind == "code":
        fence = "`" * max([3, *(len(run) + 1 for run in re.findall("`+", item.text))])
        return f"- {fence}\n  " + item.text.replace("\n", "\n  ") + f"\n  {fence}\n  ({source})"
    return "- " + item.text.replace("\n", "\n  ") + f" ({source})"


def render(header: str, items: list[ContextItem]) -> str:
    """The Markdown context: sections in their fixed order, items in score order; grouped
    items under their group's heading (best group first), in file order."""
    parts = [header.rstrip("\n")] if header else []
    for key, title, _, _ in SECTIONS:
        section = _section_items(items, key)
        if section:
            parts.append(f"\n## {title}\n" + "\n".join(_section_lines(section)))
    for item in items:
        item.tokens = counter()(item_line(item) + "\n")
    return "\n".join(parts).strip("\n") + "\n"


def _section_items(items: list[ContextItem], key: str) -> list[ContextItem]:
    """The items of section ``key``, best first."""
    return sorted((i for i in items if i.section == key), key=lambda i: (-i.score, i.id, i.lines))


def in_order(items: list[ContextItem]) -> list[ContextItem]:
    """``items`` in the order the text shows them."""
    return [item for key, *_ in SECTIONS for item in _section_order(_section_items(items, key))]


def _section_order(section: list[ContextItem]) -> list[ContextItem]:
    """A section's items as shown: ungrouped ones as they come, then each group's (in the
    order groups first come) in file order; of passages answering a question, a note's
    properties after what it says (its defining passage first; a note asked for shows its
    properties first, as its head)."""
    ordered = [item for item in section if not item.group]
    for group in dict.fromkeys(item.group for item in section if item.group):
        ordered += sorted((i for i in section if i.group == group), key=lambda i: (
            i.kind == "properties" and NOTE_REASON not in i.reasons, i.lines))
    return ordered


def _section_lines(items: list[ContextItem]) -> list[str]:
    """A section's lines, each group's items under its heading."""
    lines: list[str] = []
    group = ""
    for item in _section_order(items):
        if item.group and item.group != group:
            lines.append(f"### {item.group}")
        group = item.group
        lines.append(item_line(item))
    return lines
