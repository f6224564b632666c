"""What of a passage is searched as its words: its prose, not the notation in it (math, code
blocks, URLs, the names of attached files).

A question's "cup" must not meet ``$A \\cup B$``, nor "pasted" a ``[[Pasted image 2023.png]]``.
Its headings are searched with its note's title, at a quarter of a text's weight
(:mod:`vaultmem.recall.context.own_scores`): with the nearest heading among its own words, a
short line under a heading the question names outranked the passages that answer (owner
questions: precision 0.23 -> 0.20, answers shown 123 -> 121 of 144; ``docs/evaluation.md``). A
code span of a few words (```ripgrep```, ```git rebase```) names what the prose speaks of and is
kept; a longer one is code. A code block's words are searched with its title and headings
(:func:`code_words`), which count for a quarter of a text's: a question asking for a command
(``sparse-checkout``) still finds the block that holds it, and prose comes first. The passage's
text, as stored and shown, is unchanged.
"""

from __future__ import annotations

import re

from ..read.code_spans import protected

NOTATION_KINDS = frozenset({"code", "math"})  # passages with no words of their own
CODE_SPAN_WORDS = 3  # a code span of at most this many words is a name, kept
URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s<>()\[\]]+|\bwww\.[^\s<>()\[\]]+")
ATTACHMENT = re.compile(  # a link or embed whose target is a file other than a note
    r"\[\[[^\[\]|#\n]+\.(?:png|jpe?g|gif|svg|webp|bmp|avif|heic|pdf|mp3|mp4|m4a|wav|ogg|webm"
    r"|mov|mkv|excalidraw|canvas|base|zip)(?:[#|][^\[\]\n]*)?\]\]", re.IGNORECASE)


def passage_words(kind: str, text: str) -> str:
    """The words of a passage for search: its text without math, long code spans, URLs and
    attached files' names (code and math blocks have none: they keep the title and heading
    path every passage has, and a code block its text beside them: :func:`code_words`).

    >>> passage_words("paragraph", "We chose $A \\\\cup B$ "
    ...               "and `sqlite`, see https://x.org/cup [[Pasted image 1.png]]")
    'We chose  and `sqlite`, see  '
    >>> passage_words("math", "$$A \\\\cup B$$")
    ''
    """
    return "" if kind in NOTATION_KINDS else _prose(text)


def code_words(kind: str, text: str) -> str:
    """What of a code block is searched beside its title and headings: its text ("" for
    any other passage, and for math: notation, no words)."""
    return text if kind == "code" else ""


def _prose(text: str) -> str:
    """``text`` with its math, long code spans, URLs and attached files' names left out."""
    if "$" in text or "`" in text:
        kept, at = [], 0
        for start, end in protected(text):
            if text[start] == "$" or len(text[start:end].split()) > CODE_SPAN_WORDS:
                kept.append(text[at:start])
                at = end
        text = "".join(kept) + text[at:]
    if "://" in text or "www." in text:
        text = URL.sub("", text)
    return ATTACHMENT.sub("", text) if "[[" in text else text
