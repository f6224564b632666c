"""Which note wins a conflict (most specific, then most recent), and findings' stable ids."""

from __future__ import annotations

import hashlib

from ..index.doc import Meta
from ..model import Fact
from .current_facts import Ledger


def finding_id(kind: str, *parts: str) -> str:
    """A stable id: the same conflict keeps its id from run to run."""
    digest = hashlib.sha1("\x1f".join([kind, *sorted(parts)]).encode()).hexdigest()
    return f"{kind}:{digest[:8]}"


AGENT_KEYS, PROJECT_KEYS = frozenset({"agent"}), frozenset({"project", "applies_to"})
SCOPE_KEYS = AGENT_KEYS | PROJECT_KEYS  # the facts that make a source more specific


def scope(meta: Meta | None) -> int:
    """How specific a source is: 3 an agent's, 2 a project's, 1 global."""
    kind = meta.type if meta else ""
    keys = {fact.attribute for fact in meta.facts} if meta else set()
    if kind in ("agent", "lesson") or keys & AGENT_KEYS:
        return 3
    if kind == "project" or keys & PROJECT_KEYS:
        return 2
    return 1


def choose(facts: list[Fact], ledger: Ledger) -> tuple[str | None, str]:
    """The winning source: most specific, then most recent (all dates known), else nobody."""
    sources = sorted({f.source for f in facts})
    scopes = {s: scope(ledger.metas.get(s)) for s in sources}
    best = max(scopes.values())
    if list(scopes.values()).count(best) == 1:
        return next(s for s in sources if scopes[s] == best), "most specific wins"
    dates = {f.source: f.asserted for f in facts}
    if all(dates.values()):
        newest = max(dates.values())
        winners = [s for s, d in dates.items() if d == newest]
        if len(winners) == 1:
            return winners[0], "most recent wins"
    return None, "ask the user"
