"""Passing many values to one SQLite query: a JSON array bound as one parameter."""

from __future__ import annotations

import json
from collections.abc import Iterable

# ``column IN {IN_ARRAY}`` with one bound parameter: :func:`array` (no limit on the count, one
# statement text for any count, so SQLite prepares it once)
IN_ARRAY = "(SELECT value FROM json_each(?))"


def array(values: Iterable[str]) -> str:
    """``values`` as the JSON array :data:`IN_ARRAY` binds."""
    return json.dumps(sorted(values), ensure_ascii=False)
