"""The language a question is written in, read from its common words, and a word's stem in it
(Snowball's stemmer for that language): "decidimos" meets "decidir", "nueva" meets "nuevo".

English words are left to the index's porter stemmer; another language's words are never
given English stems by this module, and its common words (``la``, ``что``) are no search terms.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from .text import cjk_runs

WORD = re.compile(r"[^\W\d_]+")
CYRILLIC = re.compile("[\u0400-\u04ff]")
SHORTEST_STEM = 4  # letters: a shorter stem would meet too many other words as a prefix


def _common(words: str) -> frozenset[str]:
    """A list of common words written one space apart."""
    return frozenset(words.split())


# The most common words of each language (a short list of our own: articles, prepositions,
# pronouns, question words). English first: a question that ties with it is English.
COMMON_WORDS: dict[str, frozenset[str]] = {
    "english": _common(
        "the a an and of to in is it that was for on with what how why who when where which "
        "did do does we our i my you your are were has have had be this from by at"),
    "spanish": _common(
        "el la los las de del que y en un una por para con no es se lo al qué cómo cuál "
        "cuándo dónde quién porque pero sus su le como más este esta hay fue son nuestro "
        "nuestra hemos tenemos está estos sobre entre desde hasta sin también ya muy "
        "cuando donde quien cual"),
    "french": _common(
        "le la les de des du et en un une est que qui quoi pour dans pas sur au aux ce cette "
        "il elle nous vous quel quelle quels comment pourquoi avec par sont ont été où"),
    "german": _common(
        "der die das und ist nicht ein eine zu den dem des mit von auf für im es sich wir was "
        "wie warum wer wann haben hat wurde sind auch dass welche wo"),
    "portuguese": _common(
        "o a os as de do da dos das que e em um uma para com não por se na no qual como "
        "quando onde quem foi são nosso nossa temos está"),
    "italian": _common(
        "il lo la gli le di del della che e è un una per con non in si sono come quale quando "
        "dove chi perché abbiamo nostro nostra"),
    "dutch": _common(
        "de het een en van is dat op te in voor niet met zijn wat hoe waarom wie wanneer we "
        "wij hebben heeft waar welke"),
    "russian": _common(
        "и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по "
        "только ее мне было вот от меня еще нет о из ему когда где почему какой какие кто это "
        "для мы наш"),
}


def question_language(text: str) -> str:
    """The language of ``text`` by its common words (Cyrillic text is Russian), English when
    no other language's common words are more.

    >>> question_language("¿Qué decidimos sobre la facturación?")
    'spanish'
    >>> question_language("What did we decide on la carte pricing?")
    'english'
    >>> question_language("Как настроить таймаут?")
    'russian'
    """
    words = [word.casefold() for word in WORD.findall(text)]
    if sum(bool(CYRILLIC.match(word)) for word in words) * 2 > len(words):
        return "russian"
    counts = {language: sum(word in common for word in words)
              for language, common in COMMON_WORDS.items()}
    return max(counts, key=lambda language: counts[language])  # the first of a tie


def written_in(text: str, languages: tuple[str, ...]) -> bool:
    """True when ``text`` is in one of ``languages`` (``"any"`` takes every text); text with
    CJK characters is in none of the languages named here.

    >>> written_in("Where did I move?", ("english",)), written_in("¿Dónde vivo?", ("english",))
    (True, False)
    >>> written_in("函数的极限", ("english",)), written_in("函数的极限", ("any",))
    (False, True)
    """
    if "any" in languages:
        return True
    return _language_of(text) in languages


@functools.lru_cache(maxsize=65_536)
def _language_of(text: str) -> str:
    """:func:`question_language` of a passage, "cjk" for one with CJK characters (a keeper
    asks of the same passages call after call)."""
    return "cjk" if cjk_runs(text) else question_language(text)


def common_word(word: str, language: str) -> bool:
    """True for one of the most common words of ``language`` (no search term)."""
    return word.casefold() in COMMON_WORDS.get(language, frozenset())


def stem(word: str, language: str) -> str | None:
    """``word``'s Snowball stem in ``language`` when it is shorter and has at least
    ``SHORTEST_STEM`` letters; None for English (the index stems it) or no shorter stem.

    >>> stem("decidimos", "spanish"), stem("Entscheidungen", "german"), stem("deciding", "english")
    ('decid', 'entscheid', None)
    """
    if language == "english" or language not in COMMON_WORDS:
        return None
    folded = word.casefold()
    found = _stemmer(language).stemWord(folded)
    return found if SHORTEST_STEM <= len(found) < len(folded) else None


@functools.cache
def _stemmer(language: str) -> Any:
    """Snowball's stemmer for ``language``, loaded on first use."""
    import snowballstemmer

    return snowballstemmer.stemmer(language)
