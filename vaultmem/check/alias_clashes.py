"""Aliases claimed twice: an alias two notes share, or one that is another note's title. Shown
when the notes are about one thing and are not parts of one series."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from rapidfuzz import fuzz

from ..index.doc import Meta
from ..model import Finding
from ..similar_names import same_but_numbers
from .suggestions import loose_key
from .winners import finding_id

PLAIN = {"note", "daily"}  # types no write names: an alias only they share sends no write astray
SERIES = 75  # titles this alike (but not the same) name parts of one work


def alias_clashes(metas: dict[str, Meta], kin: Callable[[list[str]], bool],
                  vault_of: Callable[[str], str],
                  linked: Callable[[str], bool] = lambda name: True) -> list[Finding]:
    """An alias claimed by two notes spelt alike (``so(n)`` and ``SO(n)`` name two things), or
    an alias that is another note's title in any case (a link by it goes there, as links
    resolve case aside); a note's alias that is its own title claims nothing. Shown only when
    the notes are ``kin`` (about one thing) and, sharing the alias, not parts of one series,
    and when a link or a write would go astray by it: some link is written by it (``linked``)
    or a note sharing it is an entity agents write about (a person, a project); an alias
    shared on purpose by plain notes (a topic two lectures cover) that nothing links by
    misleads nobody."""
    claims: dict[tuple[str, str], set[str]] = defaultdict(set)
    titles: dict[tuple[str, str], set[str]] = defaultdict(set)
    for note_id, meta in metas.items():
        title, vault = note_id.rsplit("/", 1)[-1], vault_of(note_id)
        titles[vault, title.casefold()].add(note_id)
        for alias in meta.aliases:
            if alias.casefold() != title.casefold():
                claims[vault, alias].add(note_id)
    found = []
    for (vault, alias), owners in sorted(claims.items()):
        named = titles.get((vault, alias.casefold()), set()) - owners
        everyone = sorted(owners | named)
        if len(everyone) > 1:
            written = linked(alias) or any(metas[i].type not in PLAIN for i in everyone)
            found.append(_clash(alias, everyone, bool(named), kin, written))
    return found


def _clash(alias: str, everyone: list[str], titled: bool, kin: Callable[[list[str]], bool],
           written: bool) -> Finding:
    """One alias clash: sure when the alias is another note's title (a link by that name goes
    there), less when two notes share an alias; unsure when notes sharing it are parts of one
    series (seasons sharing the show's name), or when nothing says the notes are about one
    thing (one word for two things: ``CD``, *Mermaid* the tool and the film)."""
    confidence, reason = ((0.9, "it is another note's title: a link by that name goes there")
                          if titled else (0.6, "two notes go by it"))
    if not titled and series(everyone):
        confidence, reason = 0.3, "the notes are parts of one series, which goes by that name"
    elif not kin(everyone):
        confidence, reason = 0.3, ("the notes neither link each other nor say alike things: "
                                   "likely one word for two things")
    elif not titled and not written:
        confidence, reason = 0.3, "no link is written by it, so none goes astray"
    return Finding(
        finding_id("alias-clash", alias, *everyone), "alias-clash", everyone,
        f"{alias!r} names {len(everyone)} notes: " + ", ".join(f"[[{i}]]" for i in everyone)
        + f"; {reason}",
        "keep the alias on one note; links by alias never resolve in Obsidian anyway",
        None, "ask the user", None, [f"[[{i}]]" for i in everyone], confidence, reason)


def series(ids: list[str]) -> bool:
    """True when every title is the first's but for numbers or a few characters (``Money
    Heist Season 1``, ``第三季``), or holds it whole (``诈欺游戏电影版``, the film of the show):
    the parts of one work.

    >>> series(["TV/纸钞屋第一季", "TV/纸钞屋第三季"]), series(["初恋", "恋爱这件小事"])
    (True, False)
    """
    keys = [loose_key(note_id.rsplit("/", 1)[-1]) for note_id in ids]
    return all(same_but_numbers(keys[0], key) or fuzz.ratio(keys[0], key) >= SERIES
               or key.startswith(keys[0]) or keys[0].startswith(key) for key in keys[1:])
