"""Resolve a conflict by a person's choice or by the stated rule, through the writer.

Nothing is deleted: losers are marked superseded (with ``superseded_by`` and a history line),
or the entity note takes the winning value and keeps the old one in its history.
"""

from __future__ import annotations

import datetime as dt

from .. import clock
from ..caller import LOCAL, Caller
from ..check.conflicts import find_conflicts
from ..check.current_facts import build_ledger, holds
from ..check.winners import finding_id
from ..errors import UsageError, VaultmemError
from ..model import Fact, Finding
from ..vault import Vault
from ..write.apply import WriteResult
from ..write.entries import supersede
from ..write.facts import confirm_fact, record_fact


class ResolveRefused(VaultmemError):
    """A finding that vaultmem will not resolve by itself (it needs a person)."""


class ConflictNotFound(VaultmemError):
    """No open conflict has the given id."""


def resolve(vault: Vault, identifier: str, *, keep: str | None = None, auto: bool = False,
            dry_run: bool = False, when: dt.datetime | None = None,
            caller: Caller = LOCAL) -> list[WriteResult]:
    """Apply the choice for finding ``identifier``: ``keep`` a note, or the rule's winner."""
    when = when or clock.now()
    finding = _finding(vault, identifier, when.date())
    if finding.kind in ("duplicate", "alias-clash", "expired-used", "sync-copy"):
        raise ResolveRefused(f"{finding.id} is a {finding.kind}: {finding.suggestion}")
    winner = _winner(vault, finding, keep, auto)
    if finding.kind == "superseded-active" and winner != finding.winner:
        raise ResolveRefused(f"[[{finding.winner}]] supersedes [[{winner}]]; to keep the older "
                             f"one, remove `supersedes` from [[{finding.winner}]] by hand")
    if finding.kind == "fact-conflict":
        return _fact(vault, finding, winner, when, dry_run, caller)
    losers = [n for n in finding.notes if n != winner]
    return [supersede(vault, vault.note(loser), winner, when=when.date(), dry_run=dry_run,
                      caller=caller) for loser in losers]


def _finding(vault: Vault, identifier: str, today: dt.date) -> Finding:
    """The open finding with this id."""
    for finding in find_conflicts(vault, today=today, least=0.0, quiet=False):
        if finding.id == identifier:
            return finding
    raise ConflictNotFound(f"no open conflict {identifier!r}; run `vaultmem conflicts` for "
                           "the ids")


def _winner(vault: Vault, finding: Finding, keep: str | None, auto: bool) -> str:
    """The note to keep: the one named, or the one the rule picked."""
    if keep is not None:
        winner = vault.note(keep).id
        if winner not in finding.notes:
            raise UsageError(f"{winner} is not part of {finding.id}; choose one of "
                             + ", ".join(finding.notes))
        return winner
    if not auto:
        raise UsageError("say which note to keep (--keep NOTE) or let the rule decide (--auto)")
    if finding.winner is None:
        raise ResolveRefused(f"no rule decides {finding.id} ({finding.rule}); "
                             "choose with --keep NOTE")
    return finding.winner


def _facts_of(vault: Vault, finding: Finding, today: dt.date) -> list[Fact]:
    """The current facts behind a fact conflict."""
    ledger = build_ledger(vault.facts, vault.index.resolver)
    for (entity, attribute), facts in ledger.groups.items():
        if finding_id("fact-conflict", entity, attribute) == finding.id:
            return [f for f in facts if holds(f, ledger, today)]
    raise UsageError(f"{finding.id} changed meanwhile; run `vaultmem conflicts` again")


def _fact(vault: Vault, finding: Finding, winner: str, when: dt.datetime,
          dry_run: bool, caller: Caller) -> list[WriteResult]:
    """The entity note ends up holding the winning value; the others stay as history."""
    facts = _facts_of(vault, finding, when.date())
    chosen = next(f for f in facts if f.source == winner)
    entity, attribute = chosen.entity, chosen.attribute
    if entity not in vault.notes:
        raise ResolveRefused(f"[[{entity}]] has no note to hold the value; create it first")
    own = next((f for f in facts if f.source == entity and f.kind == "property"), None)
    others = "; ".join(f"{f.value} in [[{f.source}]]" for f in facts if f is not chosen)
    if own is chosen:
        results = [confirm_fact(vault, entity, attribute, others, when=when, dry_run=dry_run,
                                caller=caller)]
    else:
        results = [record_fact(vault, entity, attribute, str(chosen.value), source=winner,
                               when=when, dry_run=dry_run, caller=caller)]
    losers = {f.source for f in facts if f.kind == "fact-note" and f.source != winner}
    return results + [supersede(vault, vault.note(loser), winner, when=when.date(),
                                dry_run=dry_run, caller=caller) for loser in sorted(losers)]
