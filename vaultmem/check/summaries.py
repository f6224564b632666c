"""What ``scan`` and ``show`` answer, on every face: a vault's counts and problems (counted
in the index; no note is read whole), a note with its backlinks."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..index.link_rows import backlinks_of
from ..index.tallies import Tallies, tallies
from ..model import SHOWN, Json, Note
from ..vault import Vault
from .linting import link_findings, unwritten_judged
from .per_note import findings_per_note
from .remembered import remembered, remembered_findings
from .sorted_findings import by_kind


def scan_summary(vault: Vault) -> Json:
    """What ``vaultmem scan --json`` prints (counted in the index; no note is read whole)."""
    counts = Tallies(*remembered(vault, "tallies", lambda: list(tallies(vault.index.store))))
    stats = vault.index.stats
    problems = [_problem(p) for p in vault.index.problems]
    issues = remembered_findings(vault, "scan-links", lambda: unwritten_judged(findings_per_note(
        vault, "scan-links-by-note", lambda notes: link_findings(
            vault, suggest=False, subpaths=False, notes=notes), subpaths=False), counts))
    link_issues = [f.to_dict() for f in issues if f.confidence >= SHOWN]
    return {
        "vault": str(vault.root),
        "notes": counts.notes,
        "by_type": counts.by_type,
        "links": {
            "total": counts.links,
            "resolved": counts.resolved,
            "unresolved": counts.links - counts.resolved,
            "ambiguous": counts.ambiguous,
            "embeds": counts.embeds,
            "attachments": counts.to_attachments,
        },
        "tags": {"distinct": counts.distinct_tags, "uses": counts.tag_uses},
        "fields": counts.fields,
        "attachments": len(vault.index.attachments),
        "skipped": dict(sorted(Counter(vault.index.other.values()).items())),
        "cache": {"parsed": stats.parsed, "reused": stats.reused, "removed": stats.removed,
                  "seconds": round(stats.seconds, 3)},
        "problems": problems + link_issues,
        "unsure": by_kind(f for f in issues if f.confidence < SHOWN),  # lint --all lists them
    }


def _problem(problem: Any) -> Json:
    """A file problem in the shape of a finding."""
    where = problem.path if problem.line is None else f"{problem.path}:{problem.line}"
    return {"kind": problem.kind, "notes": [problem.path.removesuffix(".md")],
            "line": problem.line, "message": f"{where}: {problem.message}"}


def note_data(vault: Vault, note: Note) -> Json:
    """What ``vaultmem show --json`` prints: the parsed note and its backlinks."""
    data = note.to_dict()
    _ = vault.notes  # the index is current first
    data["backlinks"] = [{"id": link.source, "line": link.line, "raw": link.raw}
                         for link in backlinks_of(vault.store, note.id)]
    return data
