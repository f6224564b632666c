"""A later statement of the same thing before the earlier ones: a date moved, a choice changed.

Of the passages a context shows from daily notes (a journal, a chat's sessions), those holding
the question's most telling word that two or more of them hold, on more than one day, speak of
the same thing (the wedding of "when is my sister's wedding?"). The newest of them goes first
(its score raised just above the best of them: it may say what changed), and each older one
says it is earlier (``EARLIER`` and the newest note), so that an agent reads the latest word
first and knows the others may be out of date. A question naming a time asks of that time,
not of the latest (the caller leaves it out); a word without letters is no thing. Other notes
(a KPI's or a project's date is when it was last changed, not when each line was said) and
passages that only name what is elsewhere are left as they are.
"""

from __future__ import annotations

from .scored import Scored, best_first

RAISE = 1e-6  # above the best of the same thing, and no further
EARLIER = "earlier than "
LATEST = "the latest of the passages holding "


def later_first(shown: list[Scored], weights: dict[str, float], *, days: frozenset[str],
                label_reasons: frozenset[str] = frozenset()) -> list[Scored]:
    """``shown`` with the newest statement of the thing asked first and the earlier ones
    marked (see the module docstring): passages of the daily notes ``days`` only, none with
    one of ``label_reasons``; best first.

    >>> from vaultmem.index.lookup import StoredPassage
    >>> def s(note, score, day, held):
    ...     return Scored(StoredPassage(note, 0, "item", "[]", 1, 1, None, ""), score, day,
    ...                   held=frozenset(held))
    >>> found = later_first([s("a", 1.0, "2026-03-01", {'"wedding"', '"sister"'}),
    ...                      s("b", 0.2, "2026-04-02", {'"wedding"'})],
    ...                     {'"wedding"': 1.0, '"sister"': 3.0}, days=frozenset("ab"))
    >>> [(x.passage.note, x.reasons) for x in found]
    [('b', ('the latest of the passages holding wedding',)), ('a', ('earlier than [[b]]',))]
    """
    dated = [at for at, s in enumerate(shown) if s.date and s.passage.note in days
             and not label_reasons & set(s.reasons)]
    said = next((term for term in sorted(weights, key=lambda t: (-weights[t], t))
                 if any(char.isalpha() for char in term)  # not "2023" of a date asked about
                 and len({shown[at].date[:10] for at in dated if term in shown[at].held}) > 1),
                None)
    if said is None:
        return shown
    places = [at for at in dated if said in shown[at].held]
    newest = max(places, key=lambda at: (shown[at].date, -at))
    latest = shown[newest]
    changed = list(shown)
    changed[newest] = latest._replace(
        score=max(latest.score, max(shown[at].score for at in places) + RAISE),
        reasons=(*latest.reasons, LATEST + said.strip('"*')))
    for at in places:
        if shown[at].date[:10] < latest.date[:10]:
            changed[at] = shown[at]._replace(
                reasons=(*shown[at].reasons, f"{EARLIER}[[{latest.passage.note}]]"))
    return sorted(changed, key=best_first)
