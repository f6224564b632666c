"""How a problem link is fixed, from the vault's own ways of writing: what a name several
notes share means where the vault writes a path for one of them, how a block id a note lacks
is written there all the same, and a heading as a link names it."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import NamedTuple

from ..index.link_rows import (
    NameUses,
    ambiguous_links,
    linked_into,
    linkers,
    name_uses,
    notes_named,
    source_count,
)
from ..index.store import Store
from ..model import Finding
from ..read.resolve import link_name
from .lint_finding import GUESS
from .suggestions import UNWRITTEN

LIKE_NAME = "a note of a like name exists"
SHOWS_NOTHING = "the embed shows nothing"
KNOWN_MISSING = 2  # notes linking a missing note (not only embedding it): the vault knows
UNREACHED_LEAST = 20  # notes of a folder nobody links into before it is one the vault leaves be
DID_YOU_MEAN = re.compile(r"did you mean \[\[([^\]]+)\]\]")
PLANNED = 0.4  # as sure as a link to a note not written yet
COPY_LEAST = 100  # characters two notes share whole before they are copies of one text
DIGITS = re.compile(r"\d+")
PATH_HABIT = 3  # links writing a path to one of a shared name's notes: the vault's way to mean it


class LinkFix(NamedTuple):
    """How to fix one problem link, how sure it is worth fixing, and why ("": as found)."""

    suggestion: str
    confidence: float = 1.0
    reason: str = ""


def with_meant_fixes(store: Store, found: list[Finding],
                     text_of: Callable[[str], str]) -> list[Finding]:
    """``found`` with each ambiguous link's fix made from what the whole vault's links to its
    name mean now (kept note by note, a finding cannot know when another note's links
    change); a link between copies of one text (``text_of`` a note) misleads nobody."""
    ambiguous = [f for f in found if f.kind == "ambiguous-link"]
    if not ambiguous:
        return found
    uses = functools.lru_cache(maxsize=256)(lambda name: name_uses(store, name))
    copies_of = functools.lru_cache(maxsize=256)(lambda pair: _copies(pair, text_of))
    fixes: dict[tuple[str, int | None, str], LinkFix] = {}
    for link in ambiguous_links(store, sorted({f.notes[0] for f in ambiguous})):
        candidates = notes_named(store, link.target)
        key = (link.source, link.line, link.raw)
        if len(candidates) == 2 and copies_of(tuple(candidates)):
            copies = " or ".join(f"[[{c}]]" for c in candidates)
            fixes[key] = LinkFix(f"the notes named so are one text twice: delete the copy "
                                 f"{copies}", GUESS, "the link shows the same text either way")
        else:
            fixes[key] = LinkFix(ambiguous_fix(link.node, candidates,
                                               uses(link_name(link.target)), link.source))
    return [_with_fix(f, fixes) if f.kind == "ambiguous-link" else f for f in found]


def _copies(pair: tuple[str, ...], text_of: Callable[[str], str]) -> bool:
    """True when two notes are one text of some length twice (a note that cannot be read, a
    template or an excluded note among them: no)."""
    try:
        texts = {text_of(note_id) for note_id in pair}
    except (KeyError, OSError):
        return False
    return len(texts) == 1 and len(texts.pop().strip()) >= COPY_LEAST


def as_the_vault_knows(store: Store, found: list[Finding]) -> list[Finding]:
    """Broken links weighed by what the whole vault's links say now (kept note by note, a
    finding cannot know when another note's links change): an embed of a note two or more
    notes link is a note the vault knows is missing; a like name in a folder of 20+ notes
    no note outside links into (imported records) is a guess, not a sure typo."""
    reached = functools.lru_cache(maxsize=None)(lambda folder: _reached(store, folder))
    return [_as_known(f, store, reached) if f.kind == "broken-link" else f for f in found]


def _as_known(found: Finding, store: Store, reached: Callable[[str], bool]) -> Finding:
    """One broken-link finding as the vault knows it (see :func:`as_the_vault_knows`)."""
    if found.reason == SHOWS_NOTHING and found.suggestion == UNWRITTEN and found.sources \
            and linkers(store, found.sources[0][2:-2]) >= KNOWN_MISSING:
        return dataclasses.replace(found, confidence=PLANNED, reason=(
            "other notes link it too: a note the vault knows is not here (kept elsewhere, "
            "or to write)"))
    meant = DID_YOU_MEAN.search(found.suggestion) if found.reason == LIKE_NAME else None
    if meant and not reached(meant.group(1).rpartition("/")[0]):
        return dataclasses.replace(found, confidence=GUESS, reason=(
            "a like name, in a folder no other note links into: more likely another note"))
    return found


def _reached(store: Store, folder: str) -> bool:
    """False for a folder of many notes that no note outside it links into."""
    return not folder or source_count(store, folder) < UNREACHED_LEAST or linked_into(store,
                                                                                      folder)


def _with_fix(found: Finding, fixes: dict[tuple[str, int | None, str], LinkFix]) -> Finding:
    """An ambiguous-link finding with the fix made for its link (found by its raw text)."""
    raw = found.message.split(": ", 1)[-1].split(" matches several files")[0]
    fix = fixes.get((found.notes[0], found.line, raw))
    if fix is None:
        return found
    return dataclasses.replace(found, suggestion=fix.suggestion,
                               confidence=min(found.confidence, fix.confidence),
                               reason=fix.reason or found.reason)


def ambiguous_fix(node: str, candidates: list[str], uses: NameUses, source: str = "") -> str:
    """How to fix links by a name several notes share that reach ``node``: the full path of
    the one the notes around mean. Where the vault writes a path whenever it means ``node``
    and one other note is left, the bare name means that one (one rename fixes every such
    link); else the one whose folders name most of ``source``'s path and title, when one does
    more than ``node``; else ``node``.

    >>> uses = NameUses(162, {"Stack/facturaia": 11})
    >>> print(ambiguous_fix("Stack/facturaia", ["Stack/facturaia", "home/facturaia"], uses))
    ... # doctest: +NORMALIZE_WHITESPACE
    the vault writes the path when it means [[Stack/facturaia]] (11 links): its 162 links
    by the name alone likely mean [[home/facturaia]]; rename [[Stack/facturaia]] and all of
    them go there
    >>> ambiguous_fix("Sable/Vault", ["Crimson/Vault", "Sable/Vault"], NameUses(3, {}),
    ...               "Factions/Crimson")
    'write the full path of the one beside this note: [[Crimson/Vault]]'
    >>> ambiguous_fix("A/x", ["A/x", "B/x"], NameUses(3, {}), "C/y")
    'write the full path: [[A/x]]'
    """
    others = [c for c in candidates if c != node and c not in uses.by_path]
    if uses.by_path.get(node, 0) >= PATH_HABIT and len(others) == 1:
        return (f"the vault writes the path when it means [[{node}]] ({uses.by_path[node]} "
                f"links): its {uses.bare} links by the name alone likely mean [[{others[0]}]]; "
                f"rename [[{node}]] and all of them go there")
    around = set(source.casefold().split("/"))
    shared = {c: len(around & set(c.casefold().split("/")[:-1])) for c in candidates}
    best = max(shared.values(), default=0)
    nearest = [c for c, count in shared.items() if count == best]
    if len(nearest) == 1 and nearest[0] != node and best > shared.get(node, 0):
        return f"write the full path of the one beside this note: [[{nearest[0]}]]"
    return f"write the full path: [[{node}]]"


def missing_shape(target: str) -> str:
    """The shape a link to a name nothing answers shares with others: a numbered series the
    vault does not hold (the other exam papers by year a summary embeds, pasted images by
    time a copy kept without its attachments), else the name itself.

    >>> missing_shape("Pasted image 20240101.png"), missing_shape("数二2019")
    ('links to a numbered series this vault does not hold: Pasted image #.png', \
'links to a numbered series this vault does not hold: 数二#')
    >>> missing_shape("数三2007-") == missing_shape("数三2019")
    True
    >>> missing_shape("Example")
    'links to [[Example]], which the vault does not have'
    """
    name = target.rsplit("/", 1)[-1]
    if DIGITS.search(name):  # 数三2007- is of the series 数三2019 is
        series = re.sub(r"#[-_ ]+$", "#", DIGITS.sub("#", name))
        return f"links to a numbered series this vault does not hold: {series}"
    return f"links to [[{target}]], which the vault does not have"


def block_written_as(text: str, block: str) -> str:
    """How a block id a note lacks is written in its text all the same, at a line's end where
    Obsidian reads no block id ("" when it is not there, or only in a link's ``#^id``): the
    shape a vault's habit may share.

    >>> block_written_as("![[fig.png|600]]^fig-1", "fig-1")
    'block ids written `]]^id` (no space before ^)'
    >>> block_written_as("像这样。^fig-1\\n", "fig-1")
    'block ids written right after the text (no space before ^)'
    >>> block_written_as("see ![[Y#^fig-1]]", "fig-1"), block_written_as("text", "fig-1")
    ('', '')
    """
    ends = [line.rstrip()[: -len(block) - 1] for line in text.split("\n")
            if line.rstrip().endswith(f"^{block}")]
    written = [before for before in ends if not before.endswith(("#", "[[", "|"))]
    if not written:
        return ""
    before = written[0]
    if before.endswith("]]"):
        return "block ids written `]]^id` (no space before ^)"
    if before and not before[-1].isspace():
        return "block ids written right after the text (no space before ^)"
    return "block ids written where Obsidian reads none"


def as_anchor(heading: str) -> str:
    """A heading as a link names it: the brackets of links in it dropped, as a link cannot
    hold them (a heading ``About [[Lucy Tan|Lucy]]`` is reached by ``#About Lucy Tan Lucy``).

    >>> as_anchor("About [[Lucy Tan|Lucy]]")
    'About Lucy Tan Lucy'
    """
    return re.sub(r"\s+", " ", re.sub(r"\[\[|\]\]", "", heading).replace("|", " ")).strip()
