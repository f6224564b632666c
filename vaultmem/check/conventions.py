"""What vaultmem detected of a vault's own conventions: where its templates and daily notes are,
how its notes say what they are, and its habits among the findings (``vaultmem conventions``)."""

from __future__ import annotations

from collections import Counter, defaultdict

from ..index.graph_rows import note_nodes
from ..model import Json
from ..vault import Vault

SHOWN_SOURCES = 3  # of each type, the commonest ways notes were typed


def conventions(vault: Vault) -> Json:
    """The vault's detected conventions (from the index, and the habits from the findings
    ``lint`` and ``conflicts`` keep for this state of the vault)."""
    from .sorted_findings import conflicts_sorted, lint_sorted  # the checks load with them

    config = vault.config
    _ = vault.index  # current first
    by_type: dict[str, Counter[str]] = defaultdict(Counter)
    for node in note_nodes(vault.store).values():
        by_type[node["type"]][node.get("typed_by", "default")] += 1
    return {
        "vaults": {"folders": list(config.vaults), "found_by": config.vaults_from},
        "templates": {"folder": config.templates_folder, "found_by": config.templates_from},
        "daily": {"folder": config.daily_folder, "format": config.daily_format,
                  "found_by": config.daily_from,
                  "journals": [{"folder": j.folder, "format": j.format, "notes": j.notes}
                               for j in config.journals]},
        "types": {kind: {"notes": sum(ways.values()),
                         "typed_by": dict(sorted(ways.items(), key=lambda kv: (-kv[1], kv[0])))}
                  for kind, ways in sorted(by_type.items(),
                                           key=lambda item: (-sum(item[1].values()), item[0]))},
        "habits": [habit.to_dict() for habit in (*lint_sorted(vault).habits,
                                                 *conflicts_sorted(vault).habits)],
    }


def conventions_text(data: Json) -> str:
    """The readable form of :func:`conventions`."""
    templates, daily = data["templates"], data["daily"]
    rows = [f"Templates  {templates['folder'] or 'none'}"
            + (f" ({templates['found_by']})" if templates["found_by"] else ""),
            f"Daily      {daily['folder'] or 'vault root'}, named {daily['format']} "
            f"({daily['found_by']})"]
    rows += [f"  notes named by date in {j['folder'] or 'the vault root'}: {j['notes']}"
             for j in daily["journals"]]
    vaults = data["vaults"]
    if vaults["folders"]:
        rows.append(f"Vaults     {len(vaults['folders'])} side by side, each resolving its own "
                    f"links ({vaults['found_by']}): " + ", ".join(vaults["folders"]))
    rows.append("Types")
    for kind, seen in data["types"].items():
        ways = list(seen["typed_by"].items())
        shown = ", ".join(f"{way} {count}" for way, count in ways[:SHOWN_SOURCES])
        more = f", {len(ways) - SHOWN_SOURCES} more ways" if len(ways) > SHOWN_SOURCES else ""
        rows.append(f"  {kind:<12} {seen['notes']:>5}  by {shown}{more}")
    if data["habits"]:
        rows.append("Habits     shapes of finding many notes share, not shown as mistakes")
        rows += [f"  {h['findings']} {h['kind']} in {h['notes']} notes: {h['shape']} "
                 f"(e.g. [[{h['example']}]])" for h in data["habits"]]
    return "\n".join(rows)
