"""A lint finding: its stable id, and how sure it is that the owner would act on it."""

from __future__ import annotations

import hashlib

from ..model import Finding

SURE, UNSURE, GUESS = 0.9, 0.3, 0.45


def finding(kind: str, note: str, line: int | None, message: str, suggestion: str,
            *extra: str, sure: tuple[float, str] = (1.0, "")) -> Finding:
    """A finding with an id that stays the same while the problem does; ``sure``: its
    confidence and the reason for it.

    >>> finding("orphan", "Notes/A", None, "no links", "link it").id
    'orphan:...'
    """
    digest = hashlib.sha1("\x1f".join([kind, note, str(line), *extra]).encode()).hexdigest()
    return Finding(f"{kind}:{digest[:8]}", kind, [note], message, suggestion, line,
                   confidence=sure[0], reason=sure[1])
