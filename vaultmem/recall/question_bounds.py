"""How long a question may be: every call's cost stays bounded whatever a caller sends."""

from __future__ import annotations

from ..errors import QuestionTooLong

MAX_QUESTION_CHARS = 2_000  # a question or a task description; a pasted document is not one


def bounded(question: str | None, *, what: str = "query") -> str | None:
    """``question`` unchanged, or QuestionTooLong when it is longer than any question.

    >>> bounded("Who owns the OCR pipeline?")
    'Who owns the OCR pipeline?'
    """
    if question is not None and len(question) > MAX_QUESTION_CHARS:
        raise QuestionTooLong(f"the {what} is {len(question):,} characters long; the most is "
                              f"{MAX_QUESTION_CHARS:,}: ask with the words that matter (names, "
                              "terms), not a whole text")
    return question
