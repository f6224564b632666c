"""Notes whose words are like a text's: BM25 over the search index's per-note term counts."""

from __future__ import annotations

from collections import Counter, defaultdict

from ..index.inverted import Posting, SearchIndex
from ..text import tokens
from ..vault import Vault

K1, B = 1.2, 0.75
SMALL_VAULT = 1000
SIMILAR_POSTINGS = 200  # per term of a similarity query: its 30 best come from the top


def bm25(index: SearchIndex, terms: list[str], *, most: int) -> dict[str, float]:
    """BM25 score of the notes holding a query term (of a term in more than ``most`` notes,
    the ``most`` where it counts most: its share of any score is small)."""
    scores: dict[str, float] = defaultdict(float)
    for term in dict.fromkeys(terms):
        postings: list[Posting] = index.postings(term, most=most)
        idf = index.idf(index.frequency(term))
        for post in postings:
            norm = K1 * (1 - B + B * post.length / index.average)
            scores[post.id] += idf * post.count * (K1 + 1) / (post.count + norm)
    return scores


def similar(vault: Vault, text: str, *, exclude: str = "", limit: int = 30,
            terms: int = 12) -> dict[str, float]:
    """Notes whose words are like ``text``'s (0..1): BM25 with its most telling terms.

    The query is the ``terms`` words of ``text`` with the highest tf x idf (in vaults of a
    thousand notes or more, words in over a tenth of them are left out, which keeps it fast),
    so a long note becomes a short, distinctive query.
    """
    index = vault.search_index
    counts = Counter(tokens(text))
    frequent = index.count // 10 if index.count >= SMALL_VAULT else index.count
    weighted = sorted(((count * index.idf(df), term) for term, count in counts.items()
                       if 0 < (df := index.frequency(term)) <= frequent), reverse=True)[:terms]
    scores = bm25(index, [term for _, term in weighted], most=SIMILAR_POSTINGS)
    scores.pop(exclude, None)
    top = max(scores.values(), default=0.0) or 1.0
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return {note_id: score / top for note_id, score in best}
