"""A vault's habits among its findings: a way of writing (a finding's ``shape``) that many of
its notes share is how this vault is written, not a mistake; only the rare shapes are shown.

The vault decides, not a rule: ``]]^figure`` written under 195 images is that vault's syntax
for its figure plugin, while the same shape in two notes is a slip worth a finding.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from ..model import SHOWN, Finding, Json

# Notes (or targets) holding one shape before it is the vault's habit: on the shared corpora's
# labelled findings, shapes of one to four notes were slips and of six or more habits, none
# between (docs/evaluation.md, "Habits").
HABIT_NOTES = 5
BY_TARGETS = {"missing-block"}  # shapes the linked notes write, whoever links them
HABIT = SHOWN * 0.8  # a habit's findings: left out by default, listed with --all
HABIT_REASON = "this vault's habit, not a slip: "  # marks them: sorting out again finds them


class Habit(NamedTuple):
    """One shape of finding that many notes of the vault share: its kind, the shape, how many
    findings and notes, and one note that shows it."""

    kind: str
    shape: str
    findings: int
    notes: int
    example: str

    def to_dict(self) -> Json:
        """JSON-ready data."""
        return self._asdict()

    def says(self) -> str:
        """One line for the owner.

        >>> Habit("missing-block", "block ids written `]]^id`", 195, 40, "Notes/A").says()
        '195 missing-block findings in 40 notes: block ids written `]]^id` (e.g. [[Notes/A]])'
        """
        return (f"{self.findings} {self.kind} findings in {self.notes} notes: {self.shape} "
                f"(e.g. [[{self.example}]])")


def habits_apart(findings: Iterable[Finding]) -> tuple[list[Finding], list[Habit]]:
    """``findings`` with those of a shape :data:`HABIT_NOTES` or more notes share (or that
    names as many targets: a whole series the vault links and does not hold) made unsure
    (the reason says whose habit), and the habits found, by kind and shape (only shapes some
    of whose findings would be shown: a habit hides what would be taken for a mistake).

    >>> def slip(note):
    ...     return Finding(note, "broken-link", [note], "no such note", shape="[[Example]]")
    >>> found, habits = habits_apart([slip(f"N{i}") for i in range(5)])
    >>> [f.confidence < SHOWN for f in found], habits[0].notes
    ([True, True, True, True, True], 5)
    """
    found = list(findings)
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for at, item in enumerate(found):
        if item.shape:
            groups[item.kind, item.shape].append(at)
    habits = []
    for (kind, shape), places in sorted(groups.items()):
        notes = sorted({note for at in places for note in found[at].notes})
        targets = {source for at in places for source in found[at].sources}
        held = len(targets) if kind in BY_TARGETS else max(len(notes), len(targets))
        if held < HABIT_NOTES or not any(
                found[at].confidence >= SHOWN or found[at].reason.startswith(HABIT_REASON)
                for at in places):
            continue  # a slip, or findings nobody is shown anyway (links to a planned note)
        habit = Habit(kind, shape, len(places), len(notes), notes[0])
        habits.append(habit)
        for at in places:
            found[at] = dataclasses.replace(
                found[at], confidence=min(found[at].confidence, HABIT),
                reason=f"{HABIT_REASON}{habit.says()}")
    return found, habits
