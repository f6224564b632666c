"""``lint --suggest-links``: the links a note lacks where it writes another note's name as
plain words (:mod:`.mentions`), once per note named, with the edit."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterator

from ..index.name_use import NameUse, name_use
from ..model import Finding
from ..text import cjk
from ..vault import Vault
from .mentions import Mention, mentioned_by


def mention_findings(vault: Vault, notes: Collection[str] | None = None) -> Iterator[Finding]:
    """One ``unlinked-mention`` finding per note and other note it names in plain words but
    does not link (its first such line), with the edit; of every note, or of ``notes``. Names
    the vault writes far more than it links are words more than names there: unsure."""
    common: dict[str, NameUse] = {}
    for source in sorted(vault.notes if notes is None else notes):
        if source not in vault.notes:
            continue
        first: dict[str, Mention] = {}
        for mention in mentioned_by(vault, source):
            if not mention.linked:
                first.setdefault(mention.target, mention)
        for mention in first.values():
            yield _suggestion(vault, mention, common)


def _how_sure(mention: Mention, use: NameUse) -> tuple[float, str]:
    """How sure a mention is worth a link, and why: not for a name the vault writes far more
    than it links, nor a one-word name written in another case (``now`` for the note
    ``NOW``)."""
    if use.ordinary:
        return 0.3, (f"{use.written} notes write {mention.words!r} and {use.linked} link it: "
                     "a word more than a name here")
    one_word = len(mention.words.split()) == 1 and not cjk().search(mention.words)
    name = mention.edit[2:-2].split("|")[0].rsplit("/", 1)[-1]
    if one_word and mention.words != name:
        return 0.3, "a word written in another case than the note's name"
    return 0.6, "the words are the note's title or alias, not linked"


def _suggestion(vault: Vault, mention: Mention, common: dict[str, NameUse]) -> Finding:
    """The finding offering to link one mention."""
    key = f"{mention.words.casefold()}\x1f{mention.target}"
    if key not in common:
        with vault.store.held() as db:
            common[key] = name_use(db, mention.words, mention.target)
    sure = _how_sure(mention, common[key])
    digest = hashlib.sha1(f"{mention.source}\x1f{mention.target}".encode()).hexdigest()[:8]
    return Finding(f"unlinked-mention:{digest}", "unlinked-mention", [mention.source],
                   f"{mention.source}.md:{mention.line}: {mention.words!r} names "
                   f"[[{mention.target}]] without a link",
                   f"write {mention.edit} for {mention.words!r} on line {mention.line}",
                   mention.line, confidence=sure[0], reason=sure[1])
