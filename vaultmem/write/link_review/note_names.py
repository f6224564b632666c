"""Every note's file name and aliases, looked up whole by how alike a typed name is."""

from __future__ import annotations

from collections import defaultdict

from ...index.lookup import every_alias
from ...vault import Vault

CLOSE = 86  # WRatio: "Rafael Ocr Agent" and "Rafael", "Priya" and "Priya Shah" are this alike
CANDIDATES = 5
MORE_WORDS = 2  # a name this many words longer than the link is another thing it mentions


class NoteNames:
    """Every note's file name and aliases (titles read from the ids, not by decoding each
    note), looked up whole: one rapidfuzz pass over ten thousand names costs a few
    milliseconds, less than building a gram index for one lookup."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs  # (note id, name)
        self.by_note: dict[str, list[str]] = defaultdict(list)
        for note_id, name in pairs:
            self.by_note[note_id].append(name)

    @classmethod
    def read(cls, vault: Vault) -> NoteNames:
        """The names of ``vault``'s notes."""
        aliases = every_alias(vault.store)
        return cls([(note_id, name) for note_id in vault.notes
                    for name in (note_id.rpartition("/")[2], *aliases.get(note_id, ()))])

    def of(self, note_id: str) -> list[str]:
        """A note's file name and aliases."""
        return self.by_note.get(note_id, [])

    def closest(self, name: str) -> list[str]:
        """The notes whose names are most like ``name`` (WRatio >= ``CLOSE``), best first,
        at most ``CANDIDATES``; never a name ``MORE_WORDS`` words longer: WRatio rates a word
        inside a title as alike as a typo, but ``[[Luhmann]]`` is not a note titled "How
        Luhmann used his slip box"."""
        from rapidfuzz import fuzz, process  # loaded by a lookup, not by every writer

        hits = process.extract(name, [n for _, n in self.pairs], scorer=fuzz.WRatio,
                               processor=str.casefold, score_cutoff=CLOSE, limit=None)
        words = len(name.split())
        hits = [hit for hit in hits if len(hit[0].split()) - words < MORE_WORDS]
        whole = name.casefold()  # ties: the name most like it whole (Steph Ango for Steph)
        ordered = sorted(hits, key=lambda hit: (-hit[1], -fuzz.ratio(whole, hit[0].casefold()),
                                                hit[2]))
        return list(dict.fromkeys(self.pairs[at][0] for _, _, at in ordered))[:CANDIDATES]
