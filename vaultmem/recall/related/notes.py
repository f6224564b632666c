"""Entries related to a note: the evidence of :mod:`.evidence` (links, shared
neighbours, text, unlinked mentions, tags, recency), weighed and ranked."""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ...model import Json
from .evidence import RARE_TAG, Evidence, evidence

if TYPE_CHECKING:
    from ...part_graph import Graph
    from ...vault import Vault

MENTION_HITS = 300  # passages read for the notes writing a note's name
WORDS_TERMS = 40  # of a note's words, common ones too, for the ``words`` part


class Weights(NamedTuple):
    """How much each part of :class:`~.related_evidence.Evidence` counts (chosen
    leave-one-vault-out on real vaults: ``benchmarks/eval_related_real.py``)."""

    link_out: float = 2.0  # not fitted (the evaluation hides the links it would see)
    link_in: float = 0.0
    shared: float = 0.0
    adamic: float = 1.0
    text: float = 0.1
    names_it: float = 2.0
    named_by: float = 0.5
    tags: float = 0.25
    recent: float = 0.0
    cocited: float = 0.0
    allocation: float = 0.0
    words: float = 0.0

    def score(self, evidence: Evidence) -> float:
        """The weighted sum."""
        return sum(w * e for w, e in zip(self, evidence, strict=True))


WEIGHTS = Weights()


@dataclass
class Related:
    """A related note, its score and the reasons."""

    id: str
    title: str
    type: str
    score: float
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> Json:
        """The ``related --json`` result shape."""
        return asdict(self)


def related(graph: Graph, note: str, *, limit: int = 10, depth: int = 2,
            today: dt.date | None = None, text: Mapping[str, float] | None = None,
            tagged: Mapping[str, list[str]] | None = None,
            meaning: Mapping[str, float] | None = None,
            mentions: Mapping[str, Mapping[str, int]] | None = None,
            words: Mapping[str, float] | None = None,
            weights: Weights = WEIGHTS) -> list[Related]:
    """Notes related to ``note``, best first (ties by id), scored by ``weights`` times the
    evidence of :func:`~.related_evidence.evidence`.

    ``graph`` may be the whole graph or a part of it with ``degree`` node attributes: the
    links of ``note`` and of its neighbours (:func:`vaultmem.part_graph.two_hop_part`) for a
    ``depth`` of 2, the part within ``depth`` links (:func:`vaultmem.graph.ego_graph`) for
    more; ``tagged`` gives the notes carrying each rare tag of ``note`` when it is a part.

    >>> import networkx as nx
    >>> g = nx.DiGraph([("A", "P"), ("B", "P"), ("A", "C")])
    >>> nx.set_node_attributes(g, {n: {"type": "note", "title": n, "tags": []} for n in g})
    >>> [(r.id, r.reasons) for r in related(g, "A")]
    [('C', ['[[A]] links to it']), ('P', ['[[A]] links to it']), ('B', ['both link [[P]]'])]
    """
    found, reasons = evidence(graph, note, depth=depth, today=today, text=text, tagged=tagged,
                              meaning=meaning, mentions=mentions, cocite=weights.cocited > 0,
                              words=words)
    best = heapq.nsmallest(limit, ((-round(weights.score(e), 4), n) for n, e in found.items()
                                   if weights.score(e) > 0))
    return [Related(n, graph.nodes[n].get("title", n), graph.nodes[n].get("type", ""), -s,
                    reasons[n](graph, lambda part: getattr(weights, part) > 0))
            for s, n in best]


def related_notes(vault: Vault, name: str, *, limit: int = 10, depth: int = 2,
                  today: dt.date | None = None) -> tuple[str, list[Related]]:
    """(note id, related notes) for a note given by id, name or path: :func:`related` over the
    part of the graph around it, read from the index, with text similarity from the search
    index and the weights fitted on the vault's own links when they still fit it
    (:mod:`.own_weights`); what ``related`` and the MCP tool answer."""
    from .own_weights import own_weights

    note = vault.note(name)
    weights = own_weights(vault)
    graph, inputs = related_inputs(vault, note.id, depth=depth, every_word=weights.words > 0)
    return note.id, related(graph, note.id, limit=limit, depth=depth, today=today,
                            weights=weights, **inputs)


def related_inputs(vault: Vault, note_id: str, *, depth: int = 2, every_word: bool = False,
                   text_of_note: str | None = None) -> tuple[Graph, dict[str, Any]]:
    """The part of the graph :func:`related` reads around ``note_id`` and its other inputs
    (``text``, ``meaning``, ``tagged``, ``mentions``; ``words`` with ``every_word``), read
    from the index; ``text_of_note``: the note's text read as this instead of its file's."""
    from ...check.mentions import mentioned_by, mentions_of
    from ...index.graph_rows import tag_members
    from ...index.name_use import ordinary_names
    from ...part_graph import two_hop_part
    from .similar_notes import similar, similar_in_meaning

    note = vault.notes[note_id]
    own_text = vault.note_text(note_id) if text_of_note is None else text_of_note
    telling = similar(vault, own_text, exclude=note_id)
    every = similar(vault, own_text, exclude=note_id, terms=WORDS_TERMS, every_word=True) \
        if every_word else {}
    meaning = similar_in_meaning(vault, note_id)
    text = _fused(telling, meaning, vault.config.semantic.search_weight)
    tagged = tag_members(vault.store, note.tag_names(), most=RARE_TAG)
    ordinary = ordinary_names(vault.store)  # "Work", "And": words here, not names
    mentions = {"names_it": _first_lines((m.target, m.line) for m in mentioned_by(vault, note_id)
                                         if not ordinary(m.words, m.target)),
                "named_by": _first_lines((m.source, m.line) for m in mentions_of(
                    vault, note_id, limit=MENTION_HITS) if not ordinary(m.words, note_id))}
    also = {*text, *every, *(member for members in tagged.values() for member in members),
            *mentions["names_it"], *mentions["named_by"]}
    known = vault.derived.setdefault("node attributes", {})
    inputs = {"text": text, "meaning": meaning, "tagged": tagged, "mentions": mentions,
              "words": every}
    if depth > 2:  # networkx: the part within more links holds the links among them too
        from ...graph import ego_graph

        return ego_graph(vault.store, note_id, radius=depth, also=also), inputs
    return two_hop_part(vault.store, note_id, also=also, known=known), inputs



def _first_lines(pairs: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Each note's first line among ``pairs``."""
    first: dict[str, int] = {}
    for note_id, line in sorted(pairs):
        first.setdefault(note_id, line)
    return first


def _fused(words: Mapping[str, float], meaning: Mapping[str, float],
           weight: float) -> dict[str, float]:
    """Text likeness: words plus ``weight`` times meaning, divided by the best (0..1)."""
    fused = {other: words.get(other, 0.0) + weight * meaning.get(other, 0.0)
             for other in {*words, *meaning}}
    top = max(fused.values(), default=0.0) or 1.0
    return {other: value / top for other, value in fused.items()}
