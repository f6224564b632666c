"""Findings sorted out for the owner: those shown, and how many of each kind were left out as
unsure (below :data:`~vaultmem.model.SHOWN`) or as ignored (``.vaultmem/ignored.txt``); what
``lint`` and ``conflicts`` answer, over every face."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from ..errors import UsageError
from ..model import SHOWN, Finding, Json
from ..vault import Vault
from .conflicts import KINDS, find_conflicts
from .habits import Habit, habits_apart
from .linting import FILE_KINDS, lint
from .linting import KINDS as LINT_KINDS


class Sorted(NamedTuple):
    """Findings sorted out for the owner: those shown, how many of each kind were left out
    as unsure or as ignored (``.vaultmem/ignored.txt``), and the vault's habits among them
    (shapes of finding so many notes share that they are how the vault is written)."""

    shown: list[Finding]
    unsure: dict[str, int]
    ignored: dict[str, int]
    habits: list[Habit]

    def to_dict(self) -> Json:
        """What ``lint --json``, ``conflicts --json`` and the MCP tools answer."""
        return {"findings": [f.to_dict() for f in self.shown], "unsure": self.unsure,
                "ignored": self.ignored, "habits": [h.to_dict() for h in self.habits]}


def sorted_out(vault: Vault, findings: list[Finding], everything: bool = False) -> Sorted:
    """Sort ``findings`` (made with none left out) into what to show and what to count."""
    quiet = [f for f in findings if vault.ignored.quiets(f.id, f.kind, f.notes)]
    taken = {id(f) for f in quiet}
    unsure = [f for f in findings if id(f) not in taken and not everything
              and f.confidence < SHOWN]
    taken |= {id(f) for f in unsure}
    quieted = {id(f) for f in quiet}
    return Sorted([f for f in findings if id(f) not in taken], by_kind(unsure), by_kind(quiet),
                  habits_apart(f for f in findings if id(f) not in quieted)[1])


def by_kind(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings of each kind, by kind."""
    return dict(sorted(Counter(f.kind for f in findings).items()))


def lint_sorted(vault: Vault, *, kinds: Iterable[str] = (), everything: bool = False,
                suggest_links: bool = False) -> Sorted:
    """What ``lint`` answers: the findings of ``kinds`` (none: all) sorted out; an unknown
    kind is refused with the known ones."""
    wanted = set(kinds)
    unknown = sorted(wanted - set(LINT_KINDS) - set(FILE_KINDS))
    if unknown:
        raise UsageError(f"unknown kind {', '.join(unknown)}; use one of "
                         f"{', '.join(LINT_KINDS + FILE_KINDS)}")
    found = lint(vault, least=0.0, quiet=False, suggest_links=suggest_links)
    return sorted_out(vault, [f for f in found if not wanted or f.kind in wanted], everything)


def conflicts_sorted(vault: Vault, *, kinds: Iterable[str] = (),
                     everything: bool = False) -> Sorted:
    """What ``conflicts`` answers: the conflicts of ``kinds`` (none: all) sorted out; an
    unknown kind is refused with the known ones."""
    wanted = tuple(kinds) or KINDS
    unknown = sorted(set(wanted) - set(KINDS))
    if unknown:
        raise UsageError(f"unknown kind {', '.join(unknown)}; use {', '.join(KINDS)}")
    return sorted_out(vault, find_conflicts(vault, kinds=wanted, least=0.0, quiet=False),
                      everything)
