"""Turns as people type them, for ``gen_conversations.py --words people``.

The plain generator writes every planted fact in one well-formed sentence, and its
paraphrased questions are the kind a sentence-embedding model reads well. People chat
otherwise; :func:`as_typed` rewrites one turn (deterministically, from the generator's random
state) the way they do:

- a fact spread over turns: a turn of ``SPLIT_WORDS`` words or more is cut at its first clause
  end (``, ``, ``! ``, ``. ``, `` - ``) after two words into two turns of the same speaker,
  often a terse one first ("Not anymore" / "I have lessons every Thursday...");
- typos: a word of five letters or more (not capitalised: names are kept) has a
  ``TYPO_RATE`` chance of a slip (``eval_retrieval.slip``: two letters swapped, one dropped
  or doubled, a vowel changed);
- casual case and punctuation: the first letter lowered and the final stop dropped, each half
  the time; now and then a filler ("haha", "tbh", "lol") after it;
- refer-back: a later turn of a story calls its pet, book or car what a friend would
  (``BACK``: "Pixel" -> "the little guy" once the dog story has begun).
"""

from __future__ import annotations

import random
import re

from eval_retrieval import slip

SPLIT_WORDS = 9
TYPO_RATE = 0.07
PRONOUN_I = ("I", "I'm", "I've", "I'll", "I'd")
FILLERS = ("haha", "tbh", "lol", "honestly", "anyway")
CLAUSE_END = re.compile(r"(?<=\w)(?:, |! |\. | - )")
WORD = re.compile(r"[a-z]{5,}")
BACK = {"dog": (("Pixel's", "the little guy's"), ("Pixel", "the little guy"))}

Turn = tuple[str, str]  # (speaker letter, text)


def as_typed(turn: Turn, rng: random.Random, story: str | None = None,
             later: bool = False) -> list[Turn]:
    """``turn`` as one or two typed turns (see the module docstring); ``later`` when an
    earlier turn of the same ``story`` was told."""
    who, text = turn
    if later and story in BACK:
        for name, called in BACK[story]:
            text = text.replace(name, called)
    parts = _spread(text, rng)
    return [(who, _casual(_typos(part, rng), rng)) for part in parts]


def _spread(text: str, rng: random.Random) -> list[str]:
    """``text`` whole, or cut in two at its first clause end after two words (two times in
    three when it is long enough)."""
    if len(text.split()) < SPLIT_WORDS or rng.random() < 1 / 3:
        return [text]
    for cut in CLAUSE_END.finditer(text):
        head, tail = text[: cut.start() + 1].rstrip(",").strip(), text[cut.end():].strip()
        if len(head.split()) >= 2 and len(tail.split()) >= 3:
            return [head, tail]
    return [text]


def _typos(text: str, rng: random.Random) -> str:
    """``text`` with a typo in some of its longer lowercase words."""
    return WORD.sub(lambda m: slip(m.group(), rng) if rng.random() < TYPO_RATE else m.group(),
                    text)


def _casual(text: str, rng: random.Random) -> str:
    """The first letter lowered and the final full stop dropped, each half the time; a filler
    after it one time in eight."""
    first = text.split(" ", 1)[0]
    if rng.random() < 0.5 and first not in PRONOUN_I and not first[1:2].isupper():
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.5:
        text = text.removesuffix(".")
    if rng.random() < 1 / 8:
        text = f"{text} {rng.choice(FILLERS)}"
    return text
