"""Weights of ``related`` fitted on the vault's own links: links hidden one at a time (cut out
with their words, or left as their words), the weights that find them best, kept in the index
until the vault changes much."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from .evidence import evidence
from .link_hiding import hidden_text, names_left, one_way_links
from .notes import WEIGHTS, Weights, related_inputs
from .weight_fit import WAYS, Held, fit_weights, found_share

if TYPE_CHECKING:
    from ...vault import Vault

HELD = 80  # links hidden per fit, each both ways
FEWEST = 20  # one-way links a vault needs before its own weights are fitted
CHANGED_MUCH = 0.2  # notes added or removed since the fit, as a share: it no longer holds
RESULT = "related weights"
# one part alone (and the note's own links, which a hidden link never is): the baselines a
# vault's own weights must beat on its own links
ADAMIC_ADAR = Weights(**{name: 0.0 for name in Weights._fields})._replace(link_out=2.0,
                                                                          adamic=1.0)
WORDS = Weights(**{name: 0.0 for name in Weights._fields})._replace(link_out=2.0, words=1.0)
FIXED = {"shipped": WEIGHTS, "adamic-adar": ADAMIC_ADAR, "words": WORDS}


@dataclass(frozen=True)
class OwnFit:
    """What tuning found: the share of the hidden links found in the top 10 (``found``: by the
    vault's own weights, each half of the links scored with those fitted on the other; by the
    shipped weights; by Adamic-Adar alone; by the note's words alone), the ``weights`` of the
    one finding most (``chosen``: ``own``, ``shipped`` (also when there are too few links),
    ``adamic-adar`` or ``words``), which ``related`` uses now, the ``held`` links hidden (each
    both ways) and the vault's ``notes`` then."""

    weights: Weights
    chosen: str
    held: int
    notes: int
    found: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The ``tune-related --json`` result shape."""
        return {"chosen": self.chosen, "held": self.held, "notes": self.notes,
                "weights": self.weights._asdict(),
                "found": {key: round(value, 3) for key, value in self.found.items()}}


class Hidden(NamedTuple):
    """A link hidden: the note, the note it links and how it is hidden (``cut``, ``words``)."""

    note: str
    target: str
    way: str


def tune_related(vault: Vault, *, count: int = HELD) -> OwnFit:
    """Fit the weights of ``related`` on ``count`` of the vault's own one-way links and keep
    them in the index (see :class:`OwnFit`)."""
    found_for = {link: _held(vault, link) for link in links_to_hide(vault, count)}
    links = sorted({link[:2] for link, held in found_for.items() if held is not None})
    held = [h for h in found_for.values() if h is not None]
    if len(links) < FEWEST:
        return _kept(vault, OwnFit(WEIGHTS, "shipped", len(links), len(vault.notes)))
    first = set(links[0::2])  # both ways of a link in the same half
    halves = ([h for link, h in found_for.items() if h and link[:2] in first],
              [h for link, h in found_for.items() if h and link[:2] not in first])
    crossed = (found_share(halves[0], fit_weights(halves[1])) * len(halves[0])
               + found_share(halves[1], fit_weights(halves[0])) * len(halves[1])) / len(held)
    found = {"own": crossed, **{name: found_share(held, w) for name, w in FIXED.items()}}
    best = max(found, key=lambda name: (found[name], name == "shipped"))
    weights = fit_weights(held) if best == "own" else FIXED[best]
    return _kept(vault, OwnFit(weights, best, len(links), len(vault.notes), found))


def own_weights(vault: Vault) -> Weights:
    """The weights fitted on the vault's own links while they still fit it (no more than
    ``CHANGED_MUCH`` of its notes added or removed since), else the shipped ones."""
    kept = vault.store.load_result(RESULT, "own")
    if not kept or kept.get("fields") != list(Weights._fields):
        return WEIGHTS
    if abs(len(vault.notes) - kept["notes"]) > CHANGED_MUCH * max(1, kept["notes"]):
        return WEIGHTS
    return Weights(*kept["weights"])


def _kept(vault: Vault, fit: OwnFit) -> OwnFit:
    """``fit``, stored in the index."""
    vault.store.save_result(RESULT, "own", {"fields": list(Weights._fields),
                                            "weights": list(fit.weights), "notes": fit.notes})
    return fit


def links_to_hide(vault: Vault, count: int = HELD) -> list[Hidden]:
    """``count`` one-way links drawn at random (the same for the same vault), each both ways."""
    links = one_way_links(vault)
    rng = random.Random(f"related:{len(vault.notes)}:{len(links)}")
    chosen = sorted(rng.sample(links, min(count, len(links))))
    return [Hidden(note, target, way) for note, target in chosen for way in WAYS]


def _held(vault: Vault, link: Hidden) -> Held | None:
    """The evidence of every candidate of ``link.note`` with its link to ``link.target``
    hidden, the notes it still links left out (known, not found)."""
    text, still = hidden_text(vault, link.note, link.target, cut=link.way == "cut")
    if link.target in still:
        return None
    part, inputs = related_inputs(vault, link.note, every_word=True, text_of_note=text)
    if part.has_edge(link.note, link.target):
        part = part.copy()
        part.remove_edge(link.note, link.target)
        for node in (link.note, link.target):
            part.nodes[node]["degree"] = max(0, part.nodes[node].get("degree", 1) - 1)
    if link.way == "words":
        inputs["mentions"]["names_it"] = {**inputs["mentions"]["names_it"],
                                          **names_left(vault, link.note, link.target)}
    found, _ = evidence(part, link.note, **inputs)
    return Held(link.target, {c: e for c, e in found.items() if c not in still})
