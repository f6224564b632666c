"""Duplicate entries (near-identical titles of one type that also say the same, or share a
name) and aliases claimed twice.

No all-pairs comparison over the vault: titles are blocked by type and their first letters,
and rapidfuzz compares titles only within a block; only the pairs it finds are read. Alike
titles alone are no evidence (``Biology/Cell`` and ``Physics/Cell``, a page and its
translation): a pair is reported when the notes' words are mostly the same, or one's alias
names the other. Flagged only: the finding names the ``vaultmem merge`` that would join them
(run by a person or an agent, dry run first; nothing is merged on its own).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections import defaultdict
from collections.abc import Callable, Mapping

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from ..index.doc import Meta
from ..model import Finding
from ..read.sync import copy_of
from ..similar_names import other_words, same_but_numbers
from ..vault import Vault
from .alias_clashes import alias_clashes, series
from .current_facts import INACTIVE
from .suggestions import loose_key
from .winners import finding_id

SIMILAR = 92
DECLARED = "possible_duplicate_of"
SHORT = 5
SAME_WORDS = 0.6  # share of the two notes' distinct terms in common: the same entry twice
SURE_WORDS = 0.8  # ... so many that there is little doubt
FEW_TERMS = 8  # fewer distinct terms than this in the two notes: too little text to weigh
PARALLEL = 3  # names two folders share when they are built alike (one note of each per folder)
# properties saying what kind of thing a note is: notes of two kinds are two entries
KIND_KEYS = {"type", "category", "categories", "kind", "class", "template_type",
             "document_type"}
SKIP_TYPES = {"daily"}
WORDS = re.compile(r"\w+")
DIGITS = re.compile(r"\d+")


def duplicate_findings(metas: dict[str, Meta], words: Callable[[str], set[str]],
                       properties: Callable[[str], Mapping[str, object]],
                       memo: dict[str, list[Finding]] | None = None, *,
                       kin: Callable[[list[str]], bool] = lambda ids: True,
                       vault_of: Callable[[str], str] = lambda note_id: "",
                       linked: Callable[[str], bool] = lambda name: True) -> list[Finding]:
    """Duplicates within each type (``words`` and ``properties``: the terms particular to a
    note, its title's aside, and its frontmatter by id, read for the pairs whose titles are
    alike), and alias clashes across the vault (``kin``: whether notes are about one thing;
    ``linked``: whether a link is written by a name);
    notes of two vaults side by side (``vault_of``) are never compared.

    ``memo`` (a block's note ids, hashed -> its pairs of alike titles) is reused for blocks
    that did not change and then holds the current blocks: after one note changed, one block
    is compared.
    """
    blocks: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for note_id, meta in metas.items():
        if meta.type not in SKIP_TYPES:
            key = loose_key(note_id.rsplit("/", 1)[-1])
            blocks[(vault_of(note_id), meta.type, key[:3])].append(note_id)
    known, current = memo or {}, {}
    for block in blocks.values():
        if len(block) > 1:
            ids = sorted(block)
            sign = hashlib.sha1("\x1f".join(ids).encode()).hexdigest()
            current[sign] = known[sign] if sign in known else _block(ids)
    if memo is not None:
        memo.clear()
        memo.update(current)
    names = _names_by_folder(metas)
    alike = [f for found in current.values() for f in found
             if not _other_kinds(properties(f.notes[0]), properties(f.notes[1]))
             and not _parallel(f.notes[0], f.notes[1], names)]
    found = [f for f in (_weighed(pair, metas, words) for pair in alike) if f is not None]
    seen = {tuple(f.notes) for f in found}
    return found + [f for f in _declared(metas) if tuple(f.notes) not in seen] \
        + alias_clashes(metas, kin, vault_of, linked)


def _declared(metas: dict[str, Meta]) -> list[Finding]:
    """The pairs a note says it may duplicate (``possible_duplicate_of``, written by
    ``new --force`` when a note is named like another)."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for note_id in metas:
        by_name[note_id.rsplit("/", 1)[-1].casefold()].append(note_id)
    found = []
    for note_id, meta in metas.items():
        for fact in meta.facts:
            if fact.attribute != DECLARED or not isinstance(fact.value, str):
                continue
            target = fact.value.strip().strip("[]").split("|")[0].split("#")[0].strip()
            other = target if target in metas else next(iter(
                by_name.get(target.rsplit("/", 1)[-1].casefold(), [])), None)
            if other is not None and other != note_id:
                first, second = sorted((note_id, other))
                found.append(_duplicate(first, second, 100.0,
                                        f"[[{note_id}]] was created as a possible duplicate"))
    return found


def _names_by_folder(metas: dict[str, Meta]) -> dict[str, set[str]]:
    """The note names in each folder."""
    found: dict[str, set[str]] = defaultdict(set)
    for note_id in metas:
        folder, _, name = note_id.rpartition("/")
        found[folder].add(loose_key(name))
    return found


def _parallel(first: str, second: str, names: dict[str, set[str]]) -> bool:
    """True when the two notes sit in folders built alike, holding ``PARALLEL`` or more names
    in common (each project's Kanban, Resources and Scratchpad) or named but for a number
    (``Encounters/Group 2``, ``Encounters/Group 4``): one note per folder by design, however
    alike their text from one template."""
    folders = first.rpartition("/")[0], second.rpartition("/")[0]
    return folders[0] != folders[1] and (len(names[folders[0]] & names[folders[1]]) >= PARALLEL
                                         or same_but_numbers(*folders))  # Group 2, Group 4


def _other_kinds(first: Mapping[str, object], second: Mapping[str, object]) -> bool:
    """True when the notes say they are things of different kinds (``Type: function`` and
    ``Type: DataCommand``, ``categories: [[People]]`` and ``[[Plugins]]``)."""
    kinds = [{key.casefold(): str(value).casefold() for key, value in props.items()
              if key.casefold() in KIND_KEYS and value not in (None, "", [])}
             for props in (first, second)]
    return any(kinds[1][key] != value for key, value in kinds[0].items() if key in kinds[1])


def _weighed(pair: Finding, metas: dict[str, Meta], words: Callable[[str], set[str]]
             ) -> Finding | None:
    """A pair of alike titles with what else says they are one entry; None when nothing does."""
    first, second = pair.notes
    evidence = (_named_alike(first, second, metas) or _said_alike(words(first), words(second))
                or _one_name_one_folder(first, second, words(first) ^ words(second)))
    if evidence is None:
        return None
    confidence, reason = evidence
    return dataclasses.replace(pair, message=f"{pair.message}: {reason}", confidence=confidence,
                               reason=reason)


def _named_alike(first: str, second: str, metas: dict[str, Meta]) -> tuple[float, str] | None:
    """Evidence from names: an alias of one is the other's title, or both have it (but
    parts of one series share the series' name: seasons of a show)."""
    names = [{alias.casefold() for alias in metas[i].aliases} for i in (first, second)]
    titles = [i.rsplit("/", 1)[-1].casefold() for i in (first, second)]
    shared = (names[0] & names[1]) | (names[0] & {titles[1]}) | (names[1] & {titles[0]})
    if shared and not (names[0] & names[1] and series([first, second])):
        return 0.9, f"both go by {sorted(shared)[0]!r}"
    return None


def _one_name_one_folder(first: str, second: str, apart: set[str]) -> tuple[float, str] | None:
    """Evidence from where the notes are: names in one folder a letter apart at most
    (``Mobile App`` and ``Mobile-App``, ``Anna Le`` and ``Anna Lee``; not ``Untitled`` and
    ``Untitled 1``) and nothing particular to one of them (``apart``)."""
    names = [loose_key(note_id.rpartition("/")[2]) for note_id in (first, second)]
    numbered = names[0] != names[1] and DIGITS.sub("", names[0]) == DIGITS.sub("", names[1])
    lettered = all(any(c.isalpha() for c in name) for name in names)  # not years -1 and 1
    if first.rpartition("/")[0] != second.rpartition("/")[0] or apart or numbered \
            or not lettered \
            or Levenshtein.distance(*names) > 1:  # Sine and Cosine Transform: two things
        return None
    return 0.6, "alike names in one folder, and nothing particular said to tell them apart"


def _said_alike(first: set[str], second: set[str]) -> tuple[float, str] | None:
    """Evidence from the words particular to each note (their titles' and what a template
    stamps on many notes aside).

    >>> _said_alike({"deskew", "crop"}, {"deskew", "crop"})
    (0.6, 'they say the same few particular words besides their titles')
    >>> _said_alike(set("abcdefghij"), set("abcdefghik"))
    (0.9, '82% of their particular words are the same')
    """
    everything = first | second
    if len(everything) < FEW_TERMS:
        same = bool(everything) and first == second
        return (0.6, "they say the same few particular words besides their titles") if same \
            else None
    share = len(first & second) / len(everything)
    if share < SAME_WORDS:
        return None
    return (0.9 if share >= SURE_WORDS else 0.75,
            f"{share:.0%} of their particular words are the same")


def _block(ids: list[str]) -> list[Finding]:
    """Pairs of near-identical titles in one block."""
    titles = [note_id.rsplit("/", 1)[-1] for note_id in ids]
    keys = [loose_key(t) for t in titles]
    found = []
    for i in range(len(ids)):
        later = keys[i + 1 :]
        for _, score, offset in process.extract(keys[i], later, scorer=fuzz.ratio, limit=None,
                                                score_cutoff=SIMILAR):
            j = i + 1 + offset
            short = min(len(keys[i]), len(keys[j])) < SHORT and keys[i] != keys[j]
            distinct = same_but_numbers(keys[i], keys[j]) or other_words(titles[i], titles[j])
            if not short and not distinct:
                found.append(_duplicate(ids[i], ids[j], score))
    return found


def _duplicate(first: str, second: str, score: float, why: str = "") -> Finding:
    """One duplicate pair (``why``: how it was found, else how alike the two are)."""
    why = why or f"{score:.0f}% alike"
    titles = [note_id.rsplit("/", 1)[-1] for note_id in (first, second)]
    same = loose_key(titles[0]) == loose_key(titles[1])  # one name in two folders: a skeleton
    return Finding(finding_id("duplicate", first, second), "duplicate", [first, second],
                   f"[[{first}]] and [[{second}]] look like the same entry ({why})",
                   f'merge one into the other: vaultmem merge "{first}" "{second}" --dry-run '
                   "(or rename one if they are two entries)", None,
                   "ask the user", None, [f"[[{first}]]", f"[[{second}]]"],
                   shape=f"a note named {loose_key(titles[0])!r} in each of several folders"
                   if same else "")


def same_lessons(metas: dict[str, Meta], key_of: Callable[[object, str], str]) -> list[Finding]:
    """Live lessons of one agent (or of none) carrying the same ``pattern_key``: the learning
    loop keeps one lesson per key and agent, so two are one lesson recorded twice, their counts
    split (``key_of``: a property value as compared, from the note holding it)."""
    held: dict[tuple[str, str], list[str]] = defaultdict(list)
    for note_id, meta in metas.items():
        props = {f.attribute.casefold(): f.value for f in meta.facts if f.kind == "property"}
        key = key_of(props.get("pattern_key") or "", note_id)
        if meta.type == "lesson" and key and meta.status not in INACTIVE:
            held[key, key_of(props.get("agent") or "", note_id)].append(note_id)
    return [_same_lesson(key, sorted(ids)) for (key, _), ids in sorted(held.items())
            if len(ids) > 1]


def _same_lesson(key: str, ids: list[str]) -> Finding:
    """One lesson recorded twice."""
    links = [f"[[{i}]]" for i in ids]
    return Finding(finding_id("duplicate", "lesson", *ids), "duplicate", ids,
                   f"{' and '.join(links)} are one lesson recorded twice: both carry the "
                   f"pattern key {key!r} for the same agent, so its count is split",
                   "merge them into one lesson (add up their counts), or give one another key",
                   None, "ask the user", None, links, 0.9, "one pattern key, one agent")


def sync_copies(other: dict[str, str]) -> list[Finding]:
    """A sync tool's conflict copy beside its note (``other``: skipped note id -> role)."""
    found = []
    for copy in sorted(i for i, role in other.items() if role == "sync-copy"):
        original = (copy_of(f"{copy}.md") or "").removesuffix(".md")
        found.append(Finding(
            finding_id("sync-copy", copy), "sync-copy", [original, copy],
            f"{copy}.md is a sync tool's conflict copy of [[{original}]]; it is not read as "
            "memory, so what only the copy says is missing",
            f"merge what differs into [[{original}]], then delete the copy", None, "ask the user",
            None, [f"[[{original}]]", f"{copy}.md"]))
    return found


def mixed_versions(vault: Vault) -> list[Finding]:
    """Notes holding two versions at once: git conflict markers, or content repeated by a sync
    tool's concatenation (each then says things twice or both ways)."""
    found = []
    for problem in vault.index.problems:
        if problem.kind in ("conflict-markers", "sync-duplicate"):
            note = problem.path.removesuffix(".md")
            found.append(Finding(
                finding_id("sync-copy", note), "sync-copy", [note],
                f"[[{note}]] holds two versions from line {problem.line} ({problem.kind}); "
                "what it says there may count twice or contradict itself",
                "keep one version by hand, then delete the rest", problem.line, "ask the user",
                None, [f"[[{note}]]:{problem.line}"]))
    return found
