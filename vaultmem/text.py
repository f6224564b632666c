"""Words for search: lower-case, light English stemming, character bigrams for CJK text."""

from __future__ import annotations

import functools
import re
import unicodedata

WORD = re.compile(r"[^\W_]+", re.UNICODE)
CJK_RUN = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+"
STOP = frozenset({
    "about", "did", "do", "does", "get", "got", "how", "us", "whose", "why",
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "he",
    "her", "his", "i", "in", "is", "it", "its", "of", "on", "or", "our", "she", "so", "that",
    "the", "their", "them", "they", "this", "to", "was", "we", "were", "what", "when", "where",
    "which", "who", "will", "with", "you", "your",
})
STAMP = re.compile(r"by \[\[[^\[\]\n]+\]\]")  # a line saying which agent wrote an entry
# a stamp as one part of a list saying who and where, ``(by [[Agent]], source [[X]])``
STAMP_PART = re.compile(r"(?:^|[(,;])[\s*_]*by\s+\[\[", re.IGNORECASE)
SUFFIXES = ("ational", "ization", "fulness", "iveness", "ations", "nesses", "ments", "ation",
            "ings", "ness", "ment", "ing", "ies", "ied", "ers", "ed", "es", "er", "ly", "s")


@functools.cache
def cjk() -> re.Pattern[str]:
    """Runs of CJK characters, compiled on first use (a class this wide takes milliseconds)."""
    return re.compile(CJK_RUN)


def cjk_runs(text: str) -> list[str]:
    """The runs of CJK characters in ``text`` (ASCII text has none: it is not scanned)."""
    return [] if text.isascii() else cjk().findall(text)


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A light English stem, so that word forms meet (``decided`` and ``decides`` -> ``decid``).

    >>> [stem(w) for w in ("decide", "decided", "decisions", "running", "runs", "bookkeepers")]
    ['decid', 'decid', 'decision', 'run', 'run', 'bookkeep']
    >>> [stem(w) for w in ("note", "notes", "noted", "file", "files", "rule", "rules")]
    ['not', 'not', 'not', 'fil', 'fil', 'rul', 'rul']
    """
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                base += "y"
            elif suffix in ("ing", "ed", "er", "ers", "ings") and len(base) > 3 and \
                    base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]
            return base
    return word[:-1] if word.endswith("e") else word  # "note" as "notes": "not"


def stamp(link: str) -> str:
    """The line under an entry that says which agent wrote it (``token add --agent``).

    >>> stamp("[[Rafael]]"), bool(STAMP.fullmatch(stamp("[[Agents/Rafael|Rafael]]")))
    ('by [[Rafael]]', True)
    """
    return f"by {link}"


def stamp_line(text: str) -> int | None:
    """The first line (1-based) of ``text`` that reads as a stamp, or None: ``by [[...]]``
    alone on its line, in any case, spacing or emphasis (a quoted ``> by [[...]]`` does not).

    >>> stamp_line("Met Lucy.\\n **By  [[Strategist]]**"), stamp_line("> by [[Strategist]]")
    (2, None)
    """
    for number, line in enumerate(text.splitlines(), 1):
        plain = " ".join(line.strip().strip("*_=~").split())
        if STAMP.fullmatch(plain[:2].casefold() + plain[2:]):
            return number
    return None


def stamp_part(text: str) -> bool:
    """True when ``text`` holds a stamp where a list of who and where would name one: at its
    start, or after ``(``, ``,`` or ``;`` (as a fact's ``## History`` line names its writer).

    >>> stamp_part("UTC+7 (by [[Strategist]])"), stamp_part("approved by [[Lucy]]")
    (True, False)
    """
    return bool(STAMP_PART.search(text))


def search_terms(text: str) -> list[str]:
    """Search terms of ``text``: stemmed words, and CJK characters and bigrams.

    >>> search_terms("Lucy decided: 使用 PaddleOCR 识别")
    ['lucy', 'decid', '使', '用', '使用', 'paddleocr', '识', '别', '识别']
    """
    words = WORD.findall(unicodedata.normalize("NFKC", text).casefold())
    if text.isascii() or not cjk().search(text):  # the common case: no per-word CJK check
        return [stem(word) for word in words if word not in STOP]
    is_cjk = cjk().search
    out: list[str] = []
    for word in words:
        if is_cjk(word):
            out.extend(_cjk_terms(word))
        elif word not in STOP:
            out.append(stem(word))
    return out


def _cjk_terms(word: str) -> list[str]:
    """Characters and character bigrams of the CJK runs in ``word``; other parts as words."""
    whole_run = cjk().fullmatch
    out: list[str] = []
    for part in re.split(f"({CJK_RUN})", word):
        if not part:
            continue
        if whole_run(part):
            out.extend(part)
            out.extend(part[i : i + 2] for i in range(len(part) - 1))
        elif part not in STOP:
            out.append(stem(part))
    return out


def line_runs(numbers: list[int]) -> str:
    """Sorted line numbers as runs.

    >>> line_runs([9, 14, 15, 16]), line_runs([2])
    ('lines 9, 14-16', 'line 2')
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    text = ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)
    return ("lines " if len(numbers) > 1 else "line ") + text
