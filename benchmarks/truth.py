"""Compare what vaultmem parsed with a generated vault's ground truth (see gen_vault.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from vaultmem.vault import Vault


def observed(vault: Vault) -> dict[str, dict[str, list[Any]]]:
    """The vault's links, tags and fields in the ground-truth shape."""
    out = {}
    for note_id, note in vault.notes.items():
        out[note_id] = {
            "links": sorted([link.target, link.line, link.embed, link.resolved]
                            for link in note.links),
            "tags": note.tag_names(),
            "fields": sorted([field.key, field.line] for field in note.fields),
        }
    return out


def differences(vault: Vault, truth: dict[str, Any], limit: int = 20) -> list[str]:
    """Human-readable differences (empty when the parse matches the truth exactly)."""
    seen = observed(vault)
    want = truth["notes"]
    diffs = [f"missing note {i}" for i in sorted(want.keys() - seen.keys())]
    diffs += [f"extra note {i}" for i in sorted(seen.keys() - want.keys())]
    for note_id in sorted(want.keys() & seen.keys()):
        for part in ("links", "tags", "fields"):
            have = Counter(map(repr, seen[note_id][part]))
            need = Counter(map(repr, want[note_id][part]))
            if have != need:
                diffs.append(f"{note_id} {part}: extra {sorted((have - need).elements())}, "
                             f"missing {sorted((need - have).elements())}")
    return diffs[:limit] + ([f"... and {len(diffs) - limit} more"] if len(diffs) > limit else [])
