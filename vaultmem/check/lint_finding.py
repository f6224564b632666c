"""A lint finding: its stable id, and how sure it is that the owner would act on it."""

from __future__ import annotations

import hashlib
import re

from ..model import Finding

SURE, UNSURE, GUESS = 0.9, 0.3, 0.45
CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$|`[^`\n]+`", re.MULTILINE | re.DOTALL)
TEMPLATE_WORD = re.compile(r"(?<![^\W_])templates?(?![^\W_])", re.IGNORECASE)


def finding(kind: str, note: str, line: int | None, message: str, suggestion: str,
            *extra: str, sure: tuple[float, str] = (1.0, ""), shape: str = "",
            sources: tuple[str, ...] = ()) -> Finding:
    """A finding with an id that stays the same while the problem does; ``sure``: its
    confidence and the reason for it; ``shape``: the way of writing that produced it;
    ``sources``: what it is about besides the note (a link's target, ``[[name]]``).

    >>> finding("orphan", "Notes/A", None, "no links", "link it").id
    'orphan:...'
    """
    digest = hashlib.sha1("\x1f".join([kind, note, str(line), *extra]).encode()).hexdigest()
    return Finding(f"{kind}:{digest[:8]}", kind, [note], message, suggestion, line,
                   sources=list(sources), confidence=sure[0], reason=sure[1], shape=shape)


def named_as_template(note_id: str) -> bool:
    """True when a note's name or folders say it is a template (``Daily Template``,
    ``Meta/templates/Meeting``; not ``Contemplate``).

    >>> named_as_template("Daily/Daily Template"), named_as_template("Notes/Contemplate")
    (True, False)
    """
    return bool(TEMPLATE_WORD.search(note_id))


def without_code(text: str) -> str:
    """``text`` without its fenced code blocks and inline code (a note about templates shows
    placeholders there; a template holds them in its text).

    >>> without_code("Use `{{date}}` here.\\n```js\\n<% tp.date.now() %>\\n```\\nDone.")
    'Use  here.\\n\\nDone.'
    """
    return CODE.sub("", text)
