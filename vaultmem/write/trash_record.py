"""The vault's trash record (``.trash/.vaultmem-trash.json``): for each note vaultmem moved to
Obsidian's ``.trash/`` (``forget``, a merged note), where it came from and when, so that
``trash`` lists it and ``restore`` puts it back."""

from __future__ import annotations

import json
from typing import Any

TRASH = ".trash"
RECORD = f"{TRASH}/.vaultmem-trash.json"


def entries(text: str | None) -> dict[str, Any]:
    """The record's entries: trash file name -> {"from", "deleted"} (none for no record or one
    that does not parse)."""
    try:
        data = json.loads(text or "")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def record_text(data: dict[str, Any]) -> str:
    """The record as it is written (sorted, indented, a final newline)."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def with_entry(text: str | None, name: str, origin: str, day: str) -> str:
    """The record ``text`` with trash file ``name`` recorded as coming from ``origin`` on
    ``day``.

    >>> with_entry(None, "Old.md", "People/Old.md", "2026-12-06")
    '{\\n  "Old.md": {\\n    "deleted": "2026-12-06",\\n    "from": "People/Old.md"\\n  }\\n}\\n'
    """
    return record_text({**entries(text), name: {"from": origin, "deleted": day}})
