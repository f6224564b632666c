"""Notes whose title or alias looks like a misspelt name: fuzzy matching over the few titles
that share enough letter trigrams (CJK: bigrams) with it, never over every title."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from rapidfuzz import fuzz, process

from .recall.text import CJK

CANDIDATES = 200  # the names sharing most grams with the one looked up, scored in full


def grams(text: str) -> set[str]:
    """Letter trigrams of ``text``, case-folded and padded so word edges count, and character
    bigrams of its CJK runs (a CJK name of three characters has few trigrams in common with
    another that shares two of them).

    >>> sorted(grams("Ann"))
    ['  a', ' an', 'ann', 'nn ']
    >>> sorted(grams("实分析"))
    ['  实', ' 实', ' 实分', '分析', '分析 ', '实分', '实分析', '析 ']
    """
    padded = f"  {' '.join(text.casefold().split())} "
    found = {padded[i : i + 3] for i in range(len(padded) - 2)}
    for run in CJK.findall(text):
        edged = f" {run} "
        found.update(edged[i : i + 2] for i in range(len(edged) - 1))
    return found


class NameIndex:
    """Titles and aliases of notes (note id -> its names), looked up by a name as typed.

    >>> index = NameIndex({"People/Lucy Tan": ["Lucy Tan", "Lucy"], "Notes/n": ["n"],
    ...                    "Notes/Cancer research": ["Cancer research"]})
    >>> index.closest("lucy tn"), index.closest("Cancer"), index.closest("xyz")
    (['People/Lucy Tan'], ['Notes/Cancer research'], [])
    """

    def __init__(self, names: Mapping[str, Iterable[str]]) -> None:
        self.choices: dict[str, str] = {}
        self.postings: dict[str, list[str]] = defaultdict(list)
        for note_id, given in names.items():
            for name in dict.fromkeys(given):
                key = f"{note_id}\x00{name}"
                self.choices[key] = name
                for gram in grams(name):
                    self.postings[gram].append(key)

    def closest(self, name: str, *, limit: int = 2, cutoff: float = 75) -> list[str]:
        """Ids of the notes whose names are most like ``name`` (WRatio >= ``cutoff``), best
        first, at most ``limit``."""
        shared = Counter(key for gram in grams(name) for key in self.postings.get(gram, ()))
        candidates = {key: self.choices[key] for key, _ in shared.most_common(CANDIDATES)}
        hits = process.extract(name, candidates, scorer=fuzz.WRatio, limit=None,
                               score_cutoff=cutoff, processor=str.casefold)
        ordered = sorted(hits, key=lambda hit: (-hit[1], hit[2]))
        return list(dict.fromkeys(key.split("\x00")[0] for _, _, key in ordered))[:limit]
