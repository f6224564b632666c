"""The conflicts as a generated note people can work through in Obsidian."""

from __future__ import annotations

from ..model import Finding
from ..write.generated import generated_text

REPORT_PATH = "_vaultmem/Conflicts.md"


def conflicts_note(findings: list[Finding]) -> str:
    """Each conflict with its message, suggestion and sources."""
    rows = ["# Conflicts", "", f"{len(findings)} open. Resolve one with "
            "`vaultmem resolve ID --keep NOTE` (or `--auto` where a rule decides).", ""]
    for item in findings:
        rows += [f"## {item.kind}: {item.id}", "", item.message, "",
                 f"- Suggestion: {item.suggestion}", f"- Sources: {', '.join(item.sources)}", ""]
    return generated_text("\n".join(rows), {"type": "report"})
