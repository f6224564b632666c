"""Notes whose words are like a text's: the text's most telling words as one full-text query
over the vault's passages, notes ranked as search ranks them; and, with ``[semantic]`` set,
notes whose passages are near a note's in meaning."""

from __future__ import annotations

from ...index.lookup import matching_passages
from ...index.vocabulary import passage_count, telling_terms
from ...vault import Vault
from ..meaning import near_note
from ..search import by_note, note_score

TERMS = 12
MOST_SHARE = 0.01  # of the passages: a word in more says little about what a note is about
SMALL_VAULT = 1000  # passages; below it every word counts
PASSAGES = 300  # ranked per query


def similar(vault: Vault, text: str, *, exclude: str = "", limit: int = 30,
            terms: int = TERMS, every_word: bool = False) -> dict[str, float]:
    """Notes whose words are like ``text``'s (0..1, the best 1): bm25 over passages with the
    ``terms`` words of ``text`` with the highest tf x idf (in a vault of ``SMALL_VAULT``
    passages or more, words in over ``MOST_SHARE`` of them are left out, unless
    ``every_word``), so a long note becomes a short, distinctive query."""
    _ = vault.notes  # the index is current first
    if "passages" not in vault.derived:
        vault.derived["passages"] = passage_count(vault.store)
    total = vault.derived["passages"]
    share = MOST_SHARE if total >= SMALL_VAULT and not every_word else 1.0
    words = telling_terms(vault.store, text, count=terms, most_share=share, passages=total,
                          known=vault.derived.setdefault("passages holding a term", {}))
    if not words:
        return {}
    found = by_note(matching_passages(vault.store, " ".join(words), limit=PASSAGES))
    scores = {note_id: note_score(hits) for note_id, hits in found.items() if note_id != exclude}
    top = max(scores.values(), default=0.0) or 1.0
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return {note_id: score / top for note_id, score in best}



def similar_in_meaning(vault: Vault, note_id: str, *, limit: int = 30) -> dict[str, float]:
    """Other notes by their passage nearest the mean of the note's passage vectors (0..1, the
    best 1); none when semantic recall is off."""
    best: dict[str, float] = {}
    for found in near_note(vault, note_id):
        other = found.passage.note
        if other != note_id and found.score > best.get(other, 0.0):
            best[other] = found.score
    top = max(best.values(), default=0.0) or 1.0
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return {other: score / top for other, score in ranked}
