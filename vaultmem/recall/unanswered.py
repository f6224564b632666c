"""What a context says when no passage holds much of its question (see :mod:`.closeness`):
which of its words no note holds, so an agent reads what is under Relevant as weak matches."""

from __future__ import annotations

from .relevant import Answer

NOTHING_CLOSE = "No passage holds much of the question"


def far_note(found: Answer | None) -> str:
    """The line saying so, "" when a passage is close (or there was no question)."""
    if found is None or found.closest.close:
        return ""
    missing = found.closest.unheld[:3]
    held = f" (no note holds {', '.join(missing)})" if missing else ""
    what = ": what is under Relevant may not answer it" if found.passages else ""
    return f"{NOTHING_CLOSE}{held}{what}.\n"
