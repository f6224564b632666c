"""What a context says of what it did not find: when no passage holds much of its question
(see :mod:`.closeness`), which of its words no note holds, so an agent reads what is under
Relevant as weak matches; when passages under the relevance floor (:mod:`.relevance_floor`)
were left out, how many and how much of the budget that left unused."""

from __future__ import annotations

from ..token_budget import TokenCounter
from .answer_passages import Answer

NOTHING_CLOSE = "No passage holds much of the question"
MIN_UNUSED = 50  # tokens: less unused is not worth a line


def far_note(found: Answer | None) -> str:
    """The line saying so, "" when a passage is close (or there was no question)."""
    if found is None or found.closest.close:
        return ""
    missing = found.closest.unheld[:3]
    held = f" (no note holds {', '.join(missing)})" if missing else ""
    what = ": what is under Relevant may not answer it" if found.passages else ""
    return f"{NOTHING_CLOSE}{held}{what}.\n"


def unused_note(found: Answer | None, budget: int, text: str, count: TokenCounter) -> str:
    """The line to put after a context's ``text`` (and a blank line) saying how many passages
    the relevance floor left out and how many of the ``budget`` tokens are then unused; ""
    when none was left out or the budget is nearly full."""
    if found is None or not found.left_out or budget - count(text) < MIN_UNUSED:
        return ""
    unused, line = budget - count(text), ""
    for _ in range(4):  # the line's own tokens change the count it gives
        line = (f"Left out {found.left_out} {_passages(found.left_out)} of the question; "
                f"{unused} of {budget} tokens unused.\n")
        if unused == (unused := budget - count(text + "\n" + line)):
            break
    return line


def _passages(count: int) -> str:
    """How the unused line names ``count`` passages left out."""
    return "passage that holds less" if count == 1 else "passages that hold less"
