"""A vault's habits: a shape of finding five or more notes share is the vault's way of writing,
left out of lint and conflicts and named once; the same shape in fewer notes is shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultmem.check.duplicates import _duplicate
from vaultmem.check.habits import Habit, habits_apart
from vaultmem.cli import cli
from vaultmem.model import SHOWN

from .conftest import write_notes

SKELETON = ("```dataviewjs\ndv.list(dv.pages().where(p => p.file.folder == "
            "dv.current().file.folder).file.link)\n```\n{n}. Pendiente de resumir\n")


TOPICS = ["límites", "derivadas", "integrales", "series", "ecuaciones"]


def figures(count: int) -> dict[str, str]:
    """``count`` chapters, each with a figure whose id is glued to the embed (``]]^fig-N``),
    and a note per chapter linking that figure's block."""
    notes = {}
    for n in range(count):
        notes[f"Chapters/Chapter {n}.md"] = f"# Chapter {n}\n\n![[plot{n}.png|600]]^fig-{n}\n"
        notes[f"Reading/Reading {n}.md"] = f"See ![[Chapter {n}#^fig-{n}]] for the plot.\n"
        notes[f"Chapters/plot{n}.png"] = ""
    return notes


def skeletons(count: int) -> dict[str, str]:
    """``count`` course folders, each with a ``Resumen`` stub made from one skeleton (its
    words the same, its lines not quite)."""
    stubs = {f"Curso/{TOPICS[n]}/Resumen.md": SKELETON.format(n=n) for n in range(count)}
    lessons = {f"Curso/{TOPICS[n]}/Clase {n}.md": f"Clase {n}: {TOPICS[n]}.\n"
               for n in range(count)}
    others = {f"Otros/Nota {n}.md": f"Apuntes sueltos {n}: {TOPICS[n % 5]} otra vez.\n"
              for n in range(40)}  # a vault where the stubs' words are rare
    return stubs | lessons | others


def run(vault: Path, *args: str) -> dict[str, object]:
    """``vaultmem --vault VAULT ARGS --json`` as data."""
    result = CliRunner().invoke(cli, ["--vault", str(vault), *args, "--json"])
    assert result.exit_code in (0, 1), result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize(("count", "shown"), [(5, 0), (2, 2)])
def test_block_ids_glued_to_embeds_in_five_notes_are_the_vault_s_syntax(
        tmp_path: Path, count: int, shown: int) -> None:
    write_notes(tmp_path, figures(count))
    data = run(tmp_path, "lint", "--kind", "missing-block")
    findings = data["findings"]
    assert isinstance(findings, list) and len(findings) == shown
    shape = "block ids written `]]^id` (no space before ^)"
    if shown:
        assert all(shape in f["message"] and f["suggestion"] == "put a space before the ^ in "
                   "the target" for f in findings)
        assert data["habits"] == []
    else:
        assert data["habits"] == [{"kind": "missing-block", "shape": shape, "findings": 5,
                                   "notes": 5, "example": "Reading/Reading 0"}]


def test_a_habit_is_named_once_in_the_text_and_listed_with_all(tmp_path: Path) -> None:
    write_notes(tmp_path, figures(5))
    text = CliRunner().invoke(cli, ["--vault", str(tmp_path), "lint"]).output
    every = run(tmp_path, "lint", "--all")["findings"]
    assert "This vault's habits, not shown as mistakes (--all lists them):\n  5 missing-block " \
           "findings in 5 notes: block ids written `]]^id`" in text
    assert isinstance(every, list)
    blocks = [f for f in every if f["kind"] == "missing-block"]
    assert len(blocks) == 5 and all(f["reason"].startswith("this vault's habit") for f in blocks)


def test_one_stub_per_folder_from_a_skeleton_is_shown_in_two_folders(tmp_path: Path) -> None:
    write_notes(tmp_path, skeletons(2))
    data = run(tmp_path, "conflicts", "--kind", "duplicate")
    findings = data["findings"]
    assert isinstance(findings, list)
    assert [(f["notes"], f["shape"]) for f in findings] == [
        (["Curso/derivadas/Resumen", "Curso/límites/Resumen"],
         "a note named 'resumen' in each of several folders")]
    assert data["habits"] == []


def test_one_name_in_five_folders_is_the_vault_s_skeleton_not_ten_duplicates() -> None:
    folders = [f"Curso/{topic}/Resumen" for topic in sorted(TOPICS)]
    pairs = [_duplicate(a, b, 100.0) for at, a in enumerate(folders) for b in folders[at + 1:]]
    found, habits = habits_apart([*pairs, _duplicate("Notes/Mobile App", "Notes/Mobile-App", 96)])
    assert [f.notes for f in found if f.confidence >= SHOWN] == [["Notes/Mobile App",
                                                                 "Notes/Mobile-App"]]
    assert habits == [Habit("duplicate", "a note named 'resumen' in each of several folders",
                            10, 5, "Curso/derivadas/Resumen")]


@pytest.mark.parametrize(("linking", "shown"), [(5, 0), (2, 2)])
def test_links_to_one_missing_note_from_five_notes_of_a_kept_vault_are_its_habit(
        tmp_path: Path, linking: int, shown: int) -> None:
    notes = {f"Docs/Page {n}.md": f"# Page {n}\n\nNext: [[Page {n + 1}]].\n\nUp: [[Page 0]].\n"
             for n in range(600)}  # a docs vault keeping its links whole: a missing one is a slip
    notes |= {f"Docs/Page {n}.md": f"Next: [[Page {n + 1}]]. Demo: [[Example]].\n"
              for n in range(linking)}
    write_notes(tmp_path, notes | {"Docs/Page 600.md": "The end, see [[Page 0]].\n"})
    data = run(tmp_path, "lint")
    found = data["findings"]
    assert isinstance(found, list) and len(found) == shown
    assert data["habits"] == ([] if shown else [{
        "kind": "unwritten-link", "shape": "links to [[Example]], which the vault does not have",
        "findings": 5, "notes": 5, "example": "Docs/Page 0"}])


def test_a_heading_suggestion_never_nests_a_link_in_the_anchor(tmp_path: Path) -> None:
    write_notes(tmp_path, {"Team.md": "# Team\n\n## About [[Lucy Tan|Lucy]]\n\nShe leads OCR.\n",
                           "Lucy Tan.md": "Lucy.\n", "Plan.md": "See [[Team#About Lucey]].\n"})
    found = run(tmp_path, "lint", "--kind", "missing-heading")["findings"]
    assert isinstance(found, list)
    assert [f["suggestion"] for f in found] == ["did you mean [[Team#About Lucy Tan Lucy]]?"]
    (tmp_path / "Plan.md").write_text("See [[Team#About Lucy Tan Lucy]].\n")  # as suggested
    assert run(tmp_path, "lint", "--kind", "missing-heading")["findings"] == []


def test_an_ambiguous_name_s_fix_follows_what_the_vault_means_by_it(tmp_path: Path) -> None:
    notes = {"Stack/facturaia.md": "The library.\n",
             "proyectos/facturaia/facturaia.md": "The project hub.\n"}
    notes |= {f"Stack/Note {n}.md": f"Uses [[Stack/facturaia]] {n}.\n" for n in range(3)}
    notes |= {f"Diario/Day {n}.md": f"Worked on [[facturaia]] {n}.\n" for n in range(4)}
    write_notes(tmp_path, notes)
    found = run(tmp_path, "lint", "--kind", "ambiguous-link")["findings"]
    assert isinstance(found, list) and len(found) == 4
    assert {f["suggestion"] for f in found} == {
        "the vault writes the path when it means [[Stack/facturaia]] (3 links): its 4 links by "
        "the name alone likely mean [[proyectos/facturaia/facturaia]]; rename "
        "[[Stack/facturaia]] and all of them go there"}
    (tmp_path / "Stack" / "Note 2.md").write_text("Nothing.\n")  # two paths: no habit yet
    found = run(tmp_path, "lint", "--kind", "ambiguous-link")["findings"]
    assert isinstance(found, list)
    assert {f["suggestion"] for f in found} == {"write the full path: [[Stack/facturaia]]"}


def test_templates_outside_the_templates_folder_are_neither_orphans_nor_placeholders(
        tmp_path: Path) -> None:
    write_notes(tmp_path, {
        "Daily/2026-12-01.md": "Met [[Lucy]].\n", "Lucy.md": "Lucy.\n",
        "Daily/Daily Template.md": "## Tasks\n\n## Notes\n",  # beside the days it makes
        "Meetings/Meeting.md": "---\ndate: <% tp.date.now() %>\n---\n# <% tp.file.title %>\n",
        "Meetings/Weekly template.md": "---\ncreated: {{date}}\n---\n## Agenda\n",
        "Ideas/Loose.md": "", "Ideas/Kept.md": "About [[Lucy]].\n"})  # Loose: a real orphan
    data = run(tmp_path, "lint")
    found = data["findings"]
    assert isinstance(found, list)
    assert [(f["kind"], f["notes"]) for f in found] == [("orphan", ["Ideas/Loose"])]
    every = run(tmp_path, "lint", "--all")["findings"]
    assert isinstance(every, list)
    templates = ["Daily/Daily Template", "Meetings/Meeting", "Meetings/Weekly template"]
    assert sorted(f["notes"][0] for f in every if f["kind"] == "orphan"
                  and f["reason"].startswith("a template")) == templates
    assert sorted((f["notes"][0], f["confidence"] < 0.5) for f in every
                  if f["kind"] in ("placeholder", "frontmatter")) == [
        (name, True) for name in templates[1:]]


@pytest.mark.parametrize(("made", "unfilled", "template"), [(3, 0, True), (2, 0, False),
                                                            (3, 1, False)])
def test_an_empty_note_others_were_made_from_is_a_template(
        tmp_path: Path, made: int, unfilled: int, template: bool) -> None:
    skeleton = "---\nattendees:\n---\n## Attendees\n\n## Decisions\n\n## Actions\n"
    meetings = {f"Meetings/2026-12-0{n}.md": (f"---\nattendees: \"[[Lucy]]\"\n---\n## Attendees\n"
                                              f"Lucy\n## Decisions\nShip {n}.\n## Actions\n"
                                              "None.\n") for n in range(1, made + 1)}
    write_notes(tmp_path, {**meetings, "Lucy.md": "Lucy.\n", "Meta/Skeleton.md": skeleton,
                           "Meta/About.md": "Notes on [[Lucy]].\n",  # not alone in its folder
                           **({"Meetings/Standup 9.md": skeleton} if unfilled else {})})
    found = run(tmp_path, "lint", "--kind", "orphan", "--all")["findings"]
    assert isinstance(found, list)
    [skeleton_found] = [f for f in found if f["notes"] == ["Meta/Skeleton"]]
    assert skeleton_found["reason"].startswith("a template") == template
    shown = run(tmp_path, "lint", "--kind", "orphan")["findings"]
    assert isinstance(shown, list)
    assert any(f["notes"] == ["Meta/Skeleton"] for f in shown) != template


SERIES = {"files a copy lacks": ("![[Pasted image 2024010{n}.png]]", "Pasted image #.png",
                                  "Notes/Setup"),
          "notes the vault does not hold": ("![[Paper 201{n}#(3)]]", "Paper #", "Exams/Summary")}


@pytest.mark.parametrize(("series", "count", "shown"), [
    (series, count, shown) for series in SERIES for count, shown in ((6, 0), (2, 2))])
def test_embeds_of_a_numbered_series_the_vault_does_not_hold_are_its_habit(
        tmp_path: Path, series: str, count: int, shown: int) -> None:
    embed, name, note = SERIES[series]
    embeds = "\n".join(embed.format(n=n) for n in range(count))
    write_notes(tmp_path, {f"{note}.md": f"# Over the years\n\n{embeds}\n",
                           "Notes/Other.md": f"See [[{note.rsplit('/', 1)[-1]}]].\n"})
    data = run(tmp_path, "lint")
    found = data["findings"]
    assert isinstance(found, list) and len(found) == shown
    assert data["habits"] == ([] if shown else [{
        "kind": "broken-link", "shape": f"links to a numbered series this vault does not hold: "
        f"{name}", "findings": 6, "notes": 1, "example": note}])


def test_what_the_vault_shows_it_knows_is_no_mistake(tmp_path: Path) -> None:
    article = "How people here use the assistant: prompts, limits, and what they learnt. " * 3
    write_notes(tmp_path, {f"Imports/Douban/Film {n}.md": f"Imported record {n}.\n"
                           for n in range(19)})  # with the next: 20 records nobody links
    write_notes(tmp_path, {
        "Homebrew/Creatures/Untitled.md": "",  # alone: it keeps the folder in git
        "Imports/Douban/何以为家.md": "Imported record.\n",
        "Days/2022-09-01.md": "Watched [[🎬何以为家]] and [[Lucy Tan]]; see ![[Resume#Tools]].\n",
        "People/Lucy Tan.md": "Lucy.\n", "Home.md": "[[Resume]] is kept private.\n",
        "About.md": "My [[Resume]].\n",  # two notes link the missing Resume (not only embed
        # it): a note known to be missing
        "Copies/A/Same.md": article, "Copies/B/Same.md": article,
        "Copies/Index.md": "See [[Same]].\n"})
    shown = run(tmp_path, "lint")["findings"]
    every = run(tmp_path, "lint", "--all")["findings"]
    assert shown == []
    assert isinstance(every, list)
    why = {f["message"].split(":", 1)[0].split(".md")[0] + ": " + f["message"].split(": ", 1)[-1]:
           (f["confidence"], f["reason"], f["suggestion"]) for f in every}
    assert why["Homebrew/Creatures/Untitled: no links in or out"][1].startswith(
        "an empty note alone in its folder")
    assert why["Days/2022-09-01: [[🎬何以为家]] does not resolve"][:2] == (
        0.45, "a like name, in a folder no other note links into: more likely another note")
    assert why["Days/2022-09-01: ![[Resume#Tools]] does not resolve"][0] < 0.5
    assert why["Copies/Index: [[Same]] matches several files; it goes to Copies/A/Same"] == (
        0.45, "the link shows the same text either way", "the notes named so are one text "
        "twice: delete the copy [[Copies/A/Same]] or [[Copies/B/Same]]")


def test_conventions_name_the_vault_s_habits(tmp_path: Path) -> None:
    write_notes(tmp_path, figures(5))
    habits = run(tmp_path, "conventions")["habits"]
    assert habits == [{"kind": "missing-block", "shape": "block ids written `]]^id` (no space "
                       "before ^)", "findings": 5, "notes": 5, "example": "Reading/Reading 0"}]
    text = CliRunner().invoke(cli, ["--vault", str(tmp_path), "conventions"]).output
    assert text.endswith("Habits     shapes of finding many notes share, not shown as mistakes\n"
                         "  5 missing-block in 5 notes: block ids written `]]^id` (no space "
                         "before ^) (e.g. [[Reading/Reading 0]])\n")


def test_what_other_notes_link_is_judged_now_not_when_a_note_was_checked(tmp_path: Path) -> None:
    write_notes(tmp_path, {"A.md": "![[Plan]]\n", "B.md": "See [[Plan]].\n", "C.md": "x\n",
                           "D.md": "[[A]] [[B]] [[C]]\n"})
    first = run(tmp_path, "lint", "--all")["findings"]
    (tmp_path / "C.md").write_text("Also [[Plan]].\n")  # now two notes link Plan: known missing
    again = run(tmp_path, "lint", "--all")["findings"]
    assert isinstance(first, list) and isinstance(again, list)
    embed = [(f["confidence"], f["reason"]) for f in first if f["notes"] == ["A"]]
    assert embed == [(0.9, "the embed shows nothing")]
    assert [(f["confidence"], f["reason"]) for f in again if f["notes"] == ["A"]] == [
        (0.4, "other notes link it too: a note the vault knows is not here (kept elsewhere, "
              "or to write)")]


def test_a_name_a_template_shares_is_checked_without_reading_the_template(
        tmp_path: Path) -> None:
    write_notes(tmp_path, {".obsidian/templates.json": '{"folder": "Templates"}',
                           "Templates/Meeting.md": "## Agenda\n", "Notes/Meeting.md": "Met.\n",
                           "Other/Day.md": "[[Meeting]]\n"})
    found = run(tmp_path, "lint", "--all")["findings"]
    assert isinstance(found, list)  # no error, whatever is found


def test_a_block_id_only_in_a_link_is_not_how_the_note_writes_block_ids(tmp_path: Path) -> None:
    write_notes(tmp_path, {"Y.md": "![[p.png]] ^fig1\n", "X.md": "see ![[Y#^fig1]]\n",
                           "Z.md": "[[X#^fig1]]\n", "p.png": ""})
    found = run(tmp_path, "lint", "--kind", "missing-block")["findings"]
    assert isinstance(found, list)
    assert [(f["shape"], f["suggestion"]) for f in found] == [
        ("", "add the block id to the target or fix the link")]


def test_a_person_s_alias_clash_is_shown_whatever_plain_notes_share(tmp_path: Path) -> None:
    notes = {f"People/{name}.md": "---\ntype: person\naliases: [Tommy]\n---\nWorks on "
             "[[OCR]].\n" for name in ("Tom Reyes", "Tomas Lind")}
    notes |= {f"Notes/{title}.md": f"---\naliases: [{alias}]\n---\nSee [[Signals]].\n"
              for alias, titles in (("ROC", ("Laplace", "Z transform")),
                                    ("Poles", ("Stability", "Filters"))) for title in titles}
    write_notes(tmp_path, notes | {"Log.md": "Called [[Tommy]].\n"})
    data = run(tmp_path, "conflicts", "--kind", "alias-clash")
    assert [f["notes"] for f in data["findings"]] == [["People/Tom Reyes", "People/Tomas Lind"]]
    assert data["habits"] == []


def test_placeholders_shown_in_code_or_after_a_rule_are_read_as_written(tmp_path: Path) -> None:
    write_notes(tmp_path, {
        "Knowledge/Templater tips.md": "Use this:\n\n```js\n<% tp.date.now() %>\n```\n",
        "Notes/Filled.md": '---\ndate: "{{date}}"\n---\n# Standup\n\n---\nFooter\n'})
    every = run(tmp_path, "lint", "--all")["findings"]
    assert isinstance(every, list)
    orphans = {f["notes"][0]: f["reason"] for f in every if f["kind"] == "orphan"}
    assert not orphans["Knowledge/Templater tips"].startswith("a template")
    assert [f["confidence"] for f in every if f["kind"] == "placeholder"] == [1.0]
