"""Token estimates and trimming that never cuts a word or a link in two."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable

from ..text import cjk_runs

CHARS_PER_TOKEN = 4.0
TokenCounter = Callable[[str], int]


def estimate_tokens(text: str) -> int:
    """A conservative token estimate: 4 characters per token, each CJK character one token.

    This errs high for English (real tokenizers average about 4.2 characters per token), so a
    context within its budget by this estimate is within it for the model too.

    >>> estimate_tokens("Use PaddleOCR"), estimate_tokens("使用 PaddleOCR")
    (4, 5)
    """
    cjk = sum(len(run) for run in cjk_runs(text))
    return math.ceil((len(text) - cjk) / CHARS_PER_TOKEN) + cjk


def counter() -> TokenCounter:
    """The token counter: ``VAULTMEM_TOKENIZER=tiktoken`` uses tiktoken's ``cl100k_base`` when
    it is installed and its encoding is available; otherwise :func:`estimate_tokens`."""
    if os.environ.get("VAULTMEM_TOKENIZER") == "tiktoken":
        try:
            import tiktoken  # an optional, exact counter

            encoding = tiktoken.get_encoding("cl100k_base")
            return lambda text: len(encoding.encode(text))
        except Exception:  # not installed, or its data cannot be loaded here
            pass
    return estimate_tokens


# what a cut must not fall in: a wikilink, a Markdown link (its decoded destination may hold
# spaces), a code span
WHOLE = re.compile(r"!?\[\[[^\]]*\]\]|!?\[[^\[\]\n]*\]\([^()\n]*\)|(`+)[^`].*?(?<!`)\1(?!`)",
                   re.DOTALL)


def whole_spans(text: str) -> list[tuple[int, int]]:
    """Where the links and code spans of ``text`` are (start, end excluded): no cut may fall
    inside one."""
    return [(m.start(), m.end()) for m in WHOLE.finditer(text)]


def trim(text: str, limit: int, count: TokenCounter = estimate_tokens) -> str:
    """``text`` cut to at most ``limit`` tokens at a line, sentence or word end, with ``…``.

    A link (wikilink or Markdown) or code span is never cut; "" when not even one word fits.

    >>> trim("Switch to [[Use PaddleOCR]] now. Then test it well.", 9)
    'Switch to [[Use PaddleOCR]] now.…'
    """
    if count(text) <= limit:
        return text
    cuts = sorted({m.end() for m in re.finditer(r"\n|[.!?](?=\s)|\s", text)}, reverse=True)
    links = whole_spans(text)
    for cut in cuts:
        if any(start < cut < end for start, end in links):
            continue
        piece = text[:cut].rstrip()
        if piece and count(piece + "…") <= limit:
            return piece + "…"
    return ""
