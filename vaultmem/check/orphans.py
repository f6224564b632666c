"""Notes with no links in or out, and how sure each needs the owner's hand."""

from __future__ import annotations

from collections import Counter

from ..config import PLACEHOLDER
from ..index.graph_rows import note_nodes
from ..index.lookup import facts, with_text
from ..index.tallies import unlinked
from ..model import Finding
from ..vault import Vault
from .lint_finding import GUESS, UNSURE, finding, named_as_template, without_code

ARCHIVES = {"archive", "archives", "archived"}
TEMPLATE = ("a template by its name, its placeholders or the notes made from it: nothing "
            "links a template")
KEEPS_FOLDER = "an empty note alone in its folder: it keeps the folder (git keeps no empty one)"
EMPTY_HABIT = 10  # empty notes nothing links: the vault keeps placeholders (a tree of topics)
MADE_FROM = 3  # notes holding every heading of an empty note: they were made from it


def orphan_findings(vault: Vault) -> list[Finding]:
    """Notes with no links in or out (same-note links do not count); daily notes are left
    out (a journal's days are seldom linked), and only an empty one is sure to need a hand."""
    found = unlinked(vault.index.store)
    said = _saying(vault, found)
    nodes = {i: node for i, node in note_nodes(vault.store, set(found)).items()
             if node.get("type") != "daily"}
    empty = sum(note_id not in said for note_id in nodes)
    habit = empty if empty >= EMPTY_HABIT else 0
    made_from = _made_from(vault, [i for i in nodes if i not in said]) \
        if empty and not _templates_kept(vault) else set()
    folders = Counter(path.rpartition("/")[0] for path in (*vault.index.notes,
                                                           *vault.index.attachments))
    return [finding("orphan", note_id, None, f"{node['path']}: no links in or out",
                    "link it from a related note, or archive it" if note_id in said else
                    "fill it in and link it, or delete it",
                    sure=_what_it_is(vault, note_id, note_id in said or bool(habit), folders,
                                     made_from)
                    or _orphan_sure(note_id, note_id in said, habit))
            for note_id, node in sorted(nodes.items())]


def _what_it_is(vault: Vault, note_id: str, said: bool, folders: Counter[str],
                made_from: set[str]) -> tuple[float, str] | None:
    """Why an unlinked note is no orphan: a template, or an empty note keeping a folder
    (``folders``: how many files each holds; not ``said`` to be anything else, such as one of
    many placeholders; ``made_from``: empty notes others were made from); None when it may be
    one."""
    if _a_template(vault, note_id) or note_id in made_from:
        return UNSURE, TEMPLATE
    folder = note_id.rpartition("/")[0]
    if not said and folder and folders[folder] == 1:
        return UNSURE, KEEPS_FOLDER
    return None


def _a_template(vault: Vault, note_id: str) -> bool:
    """True when a note outside the templates folder is a template all the same: its name
    says so (``Daily Template``) or its text holds placeholders (``{{date}}``, ``<% %>``)."""
    return named_as_template(note_id) or bool(PLACEHOLDER.search(without_code(
        vault.note_text(note_id))))


def _templates_kept(vault: Vault) -> bool:
    """True when the vault keeps its templates in a templates folder (set or found) that holds
    notes: an empty note elsewhere is one not filled in yet, not a template."""
    folder = vault.config.templates_folder
    return bool(folder) and (vault.root / str(folder)).is_dir() and any(
        (vault.root / str(folder)).rglob("*.md"))


def _made_from(vault: Vault, ids: list[str]) -> set[str]:
    """The empty notes of ``ids`` (two headings or more each) whose every heading ``MADE_FROM``
    other notes hold: the template others were made from and filled in. Where several empty
    notes have one skeleton, they are notes made from it and not filled in yet: none is."""
    paths = {vault.notes[i].path: i for i in ids}
    held: dict[str, set[str]] = {}
    with vault.store.held() as db:
        for path, heading in db.execute(
                "SELECT path, CASE WHEN kind = 'heading' THEN text ELSE "
                "json_extract(headings, '$[#-1]') END FROM passages WHERE kind = 'heading' "
                "OR headings != '[]'"):
            held.setdefault(path, set()).add(heading)
    skeletons = {path: frozenset(held[path]) for path in paths if len(held.get(path, ())) >= 2}
    alike = Counter(skeletons.values())  # several empty notes of one skeleton: unfilled ones
    return {paths[path] for path, headings in skeletons.items() if alike[headings] == 1
            and sum(headings <= theirs for other, theirs in held.items()
                    if other != path) >= MADE_FROM}


def _saying(vault: Vault, ids: list[str]) -> set[str]:
    """The notes among ``ids`` that hold something: a passage besides headings and properties,
    a property or field worth a fact, or other text (a query, code) below the frontmatter."""
    said = with_text(vault.store, ids) | set(facts(vault.store, ids))
    return said | {i for i in ids if i not in said and _body_text(vault.note_text(i))}


def _body_text(text: str) -> bool:
    """True when a note's text holds lines other than its frontmatter and headings."""
    lines = text.lstrip("\ufeff").split("\n")
    if lines[0].strip() == "---":
        end = next((n for n, line in enumerate(lines[1:], 1) if line.strip() in ("---", "...")),
                   0)
        lines = lines[end + 1:]
    return any(line.strip() and not line.lstrip().startswith("#") for line in lines)


def _orphan_sure(note_id: str, said: bool, habit: int) -> tuple[float, str]:
    """How sure an unlinked note needs the owner's hand, and why (``habit``: how many empty
    notes nothing links the vault keeps, when so many that they are a habit there, else 0)."""
    if any(part.casefold().strip("_ ") in ARCHIVES for part in note_id.split("/")[:-1]):
        return UNSURE, "it is archived"
    if not said and habit:
        return GUESS, (f"one of {habit} empty notes nothing links: placeholders of a "
                       "structure are a habit here")
    if not said:
        return 0.8, "an empty note nothing links"
    return 0.4, "nothing links it, but notes are also found by search, tags and queries"
