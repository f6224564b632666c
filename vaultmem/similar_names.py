"""Notes whose title or alias looks like a misspelt name: fuzzy matching over the few titles
that share enough letter trigrams (CJK: bigrams) with it, never over every title."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from .text import cjk_runs

NUMBERS = re.compile(r"\d+(?:[.,:/-]\d+)*")  # a number, a version, a date
WORDS = re.compile(r"\w+")
WORDS_ONLY = re.compile(r"[^\W_]+")  # words without the underscores \w holds
TYPO = 80  # two words this alike are one word mistyped
CANDIDATES = 200  # the names sharing most grams with the one looked up, scored in full


def name_key(name: str) -> str:
    """A name as compared for sameness: case, accents, spacing and punctuation aside, so a
    slug and its title meet.

    >>> name_key("AGH Ibérica") == name_key("agh-iberica") == name_key(" AGH  iberica ")
    True
    >>> name_key("Centro Elphis — HUB")
    'centro elphis hub'
    """
    plain = "".join(char for char in unicodedata.normalize("NFKD", name.casefold())
                    if not unicodedata.combining(char))
    return " ".join(WORDS_ONLY.findall(plain))


def names_of_note(note_id: str, given: Iterable[str]) -> list[str]:
    """A note's names: its title and aliases (``given``), and for a folder note
    (``clients/centro-elphis/index``, ``clients/centro-elphis/centro-elphis``) its folder's.

    >>> names_of_note("clientes/centro-elphis/index", ["index"])
    ['index', 'centro-elphis']
    """
    folder, _, stem = note_id.rpartition("/")
    parent = folder.rpartition("/")[2]
    folder_note = parent and (stem.casefold() in ("index", "readme", "_index")
                              or name_key(stem) == name_key(parent))
    return [*given, parent] if folder_note and parent not in given else list(given)


def same_name(name: str, names: Mapping[str, Iterable[str]]) -> list[str]:
    """The ids (of ``names``: id -> its names) one of whose names is ``name`` written another
    way (:func:`name_key`), sorted.

    >>> same_name("AGH Ibérica", {"00-home/agh-iberica": ["agh-iberica"], "b": ["AGH"]})
    ['00-home/agh-iberica']
    """
    key = name_key(name)
    return sorted(i for i, given in names.items()
                  if key and any(name_key(n) == key for n in names_of_note(i, given)))


def same_but_numbers(a: str, b: str) -> bool:
    """``Sprint 12`` and ``Sprint 13`` differ only in a number: two things, not one spelt two
    ways.

    >>> same_but_numbers("2022-12-10", "2022-12-12"), same_but_numbers("Sprint 1", "Sprint 1")
    (True, False)
    >>> same_but_numbers("Release 1.2", "Release 1")
    True
    """
    return a != b and NUMBERS.sub("#", a) == NUMBERS.sub("#", b)


def other_words(a: str, b: str) -> bool:
    """True when the titles differ by whole different words (``Adopt REST for Caching`` and
    ``Adopt Rust for Caching``), not by a typo or punctuation.

    >>> other_words("Adopt REST for Caching", "Adopt Rust for Caching")
    True
    >>> other_words("Project Atlas", "Projct Atlas"), other_words("Mobile App", "Mobile-App")
    (False, False)
    """
    left, right = WORDS.findall(a.casefold()), WORDS.findall(b.casefold())
    if "".join(left) == "".join(right):
        return False
    only_left = [w for w in left if w not in right]
    only_right = [w for w in right if w not in left]
    if len(only_left) != len(only_right):
        return False
    from rapidfuzz import fuzz  # loaded by a comparison, not by every importer

    return any(fuzz.ratio(x, y) < TYPO for x, y in zip(only_left, only_right, strict=True))


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
    for run in cjk_runs(text):
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

    def closest(self, name: str, *, limit: int = 2, cutoff: float = 75,
                whole: bool = False) -> list[str]:
        """Ids of the notes whose names are most like ``name``, best first, at most ``limit``.

        Scored by WRatio (a name typed in part finds the whole one), or with ``whole`` by the
        similarity of the whole names, words in any order (a misspelt title: sharing one
        word with a long title is not enough, and a name with another number, such as
        another day's date, is another note), each at least ``cutoff``.
        """
        from rapidfuzz import fuzz, process  # loaded by a lookup, not by every importer

        keys = sorted(grams(name), key=lambda gram: len(self.postings.get(gram, ())))
        if whole:  # a whole name this alike shares half its grams: one of the rarer half
            keys = keys[: len(keys) // 2 + 1]
        shared = Counter(key for gram in keys for key in self.postings.get(gram, ()))
        candidates = {key: self.choices[key] for key, _ in shared.most_common(CANDIDATES)}
        scorer = fuzz.token_sort_ratio if whole else fuzz.WRatio
        hits = process.extract(name, candidates, scorer=scorer, limit=None,
                               score_cutoff=cutoff, processor=str.casefold)
        if whole:  # another number, or another word in place of one, names another note
            hits = [h for h in hits if not same_but_numbers(name.casefold(), h[0].casefold())
                    and not other_words(name, h[0])]
        ordered = sorted(hits, key=lambda hit: (-hit[1], hit[2]))
        return list(dict.fromkeys(key.split("\x00")[0] for _, _, key in ordered))[:limit]


def name_variant(a: str, b: str) -> bool:
    """True when two names of two words or more are one name written another way: the words
    reordered (``Tan Lucy``), a word as its initial (``Lucy T.``, ``L. Tan``), or a middle
    name dropped (``Lucy Tan`` of ``Lucy Mei Tan``).

    >>> name_variant("Tan Lucy", "Lucy Tan"), name_variant("Lucy T.", "Lucy Tan")
    (True, True)
    >>> name_variant("Lucy Tan", "Lucy Mei Tan"), name_variant("Lucy Tan", "Lucy Tang")
    (True, False)
    >>> name_variant("Priya Shah", "Priya Nair"), name_variant("L. T.", "Lucy Tan")
    (False, False)
    """
    left, right = _name_words(a), _name_words(b)
    if len(left) < 2 or len(right) < 2 or left == right:
        return False
    if sorted(left) == sorted(right):
        return True
    if len(left) == len(right):
        pairs = list(zip(left, right, strict=True))
        return any(x == y and len(x) > 1 for x, y in pairs) and all(
            x == y or _initial_of(x, y) or _initial_of(y, x) for x, y in pairs)
    short, long = sorted((left, right), key=len)
    return short[0] == long[0] and short[-1] == long[-1] and _in_order(short, long)


def _name_words(name: str) -> list[str]:
    """A name's words, case-folded, without the dot of an initial."""
    return [w for w in WORDS.findall(name.casefold()) if w]


def _initial_of(initial: str, word: str) -> bool:
    """True when ``initial`` is one letter that ``word`` (a whole word) starts with."""
    return len(initial) == 1 and len(word) > 1 and word.startswith(initial)


def _in_order(short: list[str], long: list[str]) -> bool:
    """True when the words of ``short`` appear in ``long`` in the same order."""
    rest = iter(long)
    return all(word in rest for word in short)
