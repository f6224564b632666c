"""A note's properties that only name or file it (title, aliases, tags, links, dates) rank
below what notes say, in a context and as a search snippet; a note the question names keeps
its properties, and a property the question asks about (its key or a value) counts."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from vaultmem.recall.context.answer_passages import FILING_REASON, relevant_passages
from vaultmem.recall.context.bare_labels import what_properties_say
from vaultmem.recall.context.build import build_context
from vaultmem.recall.search import search
from vaultmem.vault import Vault

from .conftest import write_notes

TODAY = dt.date(2026, 12, 5)
NOTES = {
    "Notes/Plume Sources.md": "---\ntags: geysers, moons\ncreated: 2023-07-21\n---\n"
                              "# Plume Sources\n\nTidal heating keeps water liquid under the "
                              "shell; it escapes through cracks.\n",
    "Notes/Cassini.md": "---\ntags: probes\n---\n# Cassini\n\n"
                        "Cassini flew through the geysers in 2008 and tasted salt water.\n",
    "People/Danny Hatcher.md": "---\ntype: person\nadress: East Sussex\ncountry: UK\n---\n"
                               "# Danny Hatcher\n\nMakes videos about science.\n",
    "Projects/Archive.md": "---\ncompleted: 2022-12-10\ntitle: Archive\n---\n# Archive\n\n"
                           "Old work is kept here.\n",
}


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    write_notes(tmp_path, NOTES)
    return Vault(tmp_path, use_cache=False)


def _first(vault: Vault, question: str) -> tuple[str, str]:
    best = relevant_passages(vault, question, today=TODAY)[0]
    return best.passage.note, best.passage.kind


def test_properties_that_only_file_a_note_rank_below_what_it_says(vault: Vault) -> None:
    found = relevant_passages(vault, "what do we know about the geysers?", today=TODAY)
    ranked = [(s.passage.note, s.passage.kind) for s in found]
    assert ranked[0] == ("Notes/Cassini", "paragraph")
    filed = next(s for s in found if s.passage.kind == "properties")
    assert filed.passage.note == "Notes/Plume Sources" and FILING_REASON in filed.reasons
    assert ranked[-1] == ("Notes/Plume Sources", "properties")


def _filed(vault: Vault, question: str, note: str) -> bool:
    found = relevant_passages(vault, question, today=TODAY)
    properties = next(s for s in found if (s.passage.note, s.passage.kind) == (note,
                                                                               "properties"))
    return FILING_REASON in properties.reasons


def test_a_named_notes_properties_and_an_asked_key_keep_their_score(vault: Vault) -> None:
    assert not _filed(vault, "Where does Danny Hatcher live?", "People/Danny Hatcher")
    assert _first(vault, "When was the archive completed?") == ("Projects/Archive",
                                                                "properties")
    built = build_context(vault, query="When was the archive completed?", budget=300,
                          today=TODAY)
    assert "completed: 2022-12-10" in built.items[0].text


def test_a_search_snippet_is_what_the_note_says_not_its_properties(vault: Vault) -> None:
    hit = next(h for h in search(vault, "plume sources") if h.id == "Notes/Plume Sources")
    assert hit.snippet.startswith("Tidal heating keeps water liquid")
    assert hit.line == 7


@pytest.mark.parametrize(("text", "said"), [
    ("title: Kyoto; loc: Japan; created: 2023-09-12", "title; loc; Japan; created"),
    ("aliases: Harlem Shake; tags: meme; date created: Friday, December 9th 2022",
     "aliases; tags; date created"),
    ("categories: Books; author: Kevin Kelly; url: https://kk.org", "categories; Books; author; "
     "Kevin Kelly; url"),
    ("end: 2023-09-30; linter-yaml-title-alias: Trip", "end; linter-yaml-title-alias"),
])
def test_what_properties_say(text: str, said: str) -> None:
    assert what_properties_say(text) == said


def test_a_note_shows_what_it_says_before_its_properties(vault: Vault) -> None:
    built = build_context(vault, query="When was the archive completed?", budget=300,
                          today=TODAY)
    assert "### [[Projects/Archive]]\n- Old work is kept here. (line 7)\n" \
           "- completed: 2022-12-10; title: Archive (line 2)\n" in built.text
