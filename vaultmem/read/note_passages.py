"""A note's passages as recall ranks them: its properties as one passage, then its body's, and
each heading with nothing under it (a log entry's title alone) as a passage of its own, its
text as shown (``### ![[a#b]]`` -> ``[[a#b]]``).

The index keeps passages :func:`without_secrets`: a credential in a note is found by no search.

The properties passage (kind ``properties``) reads ``key: value; key: value`` on the lines
between the frontmatter fences, list values joined by commas and wikilink brackets removed
(``categories: [[Books]]`` -> ``categories: Books``); nested mappings and empty values are left
out. It lets a question find what only a note's properties say (a person's role, a KPI's
target), without raw YAML in a context.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Mapping
from typing import Any

from ..model import Heading
from ..secrets import redact_each
from .parse import Parsed
from .passage_text import MAX_CHARS, one_line, visible_lines
from .passages import Passage, parser, split_passages


def note_passages(parsed: Parsed) -> list[Passage]:
    """The properties passage (when the note has any to show), then the body's passages and
    its empty headings in file order."""
    body = split_passages(parsed.tokens, parsed.body, parsed.body_line)
    body = sorted(body + empty_headings(parsed.note.headings, body), key=lambda p: p.start)
    shown = properties_passage(parsed.note.frontmatter, parsed.body_line)
    return [shown, *body] if shown else body


def without_secrets(passages: list[Passage], extra: Mapping[str, str] | None = None
                    ) -> list[Passage]:
    """``passages`` with each credential in their texts and headings replaced as output
    redaction replaces it (``extra``: the vault's own patterns), read in one scan of them all.

    >>> [p.text for p in without_secrets([Passage("password: hunter2x", "item", (), 3, 3, None)])]
    ['password: [REDACTED:password assignment]']
    """
    headings = list(dict.fromkeys(heading for passage in passages for heading in passage.headings))
    shown = redact_each([passage.text for passage in passages] + headings, extra)
    hidden = dict(zip(headings, shown[len(passages):], strict=True))
    return [passage._replace(text=text, headings=tuple(hidden[h] for h in passage.headings))
            for passage, text in zip(passages, shown, strict=False)]


def empty_headings(headings: list[Heading], body: list[Passage]) -> list[Passage]:
    """Passages of kind ``heading`` for the headings whose section (to the next heading of
    their level or above) holds no passage, under the path of the headings above them."""
    starts = sorted(passage.start for passage in body)
    found: list[Passage] = []
    path: list[Heading] = []
    for at, heading in enumerate(headings):
        path = [h for h in path if h.level < heading.level]
        end = next((h.line for h in headings[at + 1 :] if h.level <= heading.level), None)
        following = bisect.bisect_right(starts, heading.line)
        empty = following == len(starts) or (end is not None and starts[following] >= end)
        text = shown_heading(heading.text) if empty and heading.text.strip() else ""
        if text:  # only an empty section's heading is parsed again to be shown
            found.append(Passage(text, "heading", tuple(shown_heading(h.text) for h in path),
                                 heading.line, heading.line, None))
        path.append(heading)
    return found


def properties_passage(frontmatter: dict[str, Any], body_line: int) -> Passage | None:
    """The frontmatter's values as one passage (None when none is text), spanning the lines
    between the fences (``body_line``: the 0-based file line the body starts on).

    >>> properties_passage({"role": "CTO", "team": ["[[Ana]]", "Bo"], "x": {}}, 5).text
    'role: CTO; team: Ana, Bo'
    """
    parts = [f"{key}: {text}" for key, value in frontmatter.items()
             if (text := _shown(value))]
    if not parts:
        return None
    text = "; ".join(parts)
    if len(text) > MAX_CHARS:  # one passage, cut at a property's end where it can be
        cut = text.rfind("; ", 0, MAX_CHARS)
        text = text[: cut if cut > 0 else MAX_CHARS]
    return Passage(text, "properties", (), 2, max(2, body_line - 1), None)


def _shown(value: object) -> str:
    """A property value as text: lists joined, links without brackets, mappings left out."""
    if isinstance(value, list):
        return ", ".join(shown for item in value if (shown := _shown(item)))
    if value is None or isinstance(value, dict) or value == "":
        return ""
    text = str(value).strip()
    return " ".join(text.replace("[[", "").replace("]]", "").split())


@functools.lru_cache(maxsize=4096)
def shown_heading(text: str) -> str:
    """A heading's text as shown (:mod:`.shown`): ``![[a#b]] x`` -> ``[[a#b]] x``."""
    tokens = parser().parse(f"# {text}")
    return one_line(visible_lines(tokens[1], False).lines) if len(tokens) > 1 else text
