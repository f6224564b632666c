"""Conflict detection on a labelled vault (planted conflicts and look-alikes), and resolution."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from vaultmem.check.conflicts import find_conflicts
from vaultmem.vault import Vault

from .conftest import ROOT, SAMPLE, hash_tree
from .test_cli import run

LABELLED = ROOT / "tests" / "fixtures" / "conflicts_vault"
TODAY = dt.date(2026, 11, 29)
AT = ("--date", "2026-11-29", "--time", "10:00")
# Every planted conflict, and nothing from the look-alikes: a properly superseded decision
# (Use Tesseract), an expired fact nobody cites (Ben phone), the same value said twice (Ana's
# team and clients), a line linking two entities, a conflict in a code block, one in the
# templates folder, an inline fact older than the entity's reviewed history (Ben in Madrid),
# Sprint 12 / Sprint 13, and the short names Ana / Ann.
EXPECTED = [
    ("fact-conflict", ["Daily/2026-10-01", "People/Ana"], "ask the user", None),
    ("fact-conflict", ["Facts/Ben city", "People/Ben"], "most recent wins", "Facts/Ben city"),
    ("decision-conflict", ["Decisions/Use MySQL", "Decisions/Use Postgres"], "ask the user",
     None),
    ("superseded-active", ["Decisions/Use Redis", "Decisions/Use Valkey"], "most recent wins",
     "Decisions/Use Valkey"),
    ("duplicate", ["Projects/Mobile App", "Projects/Mobile-App"], "ask the user", None),
    ("alias-clash", ["People/Carla", "People/Chris Jones"], "ask the user", None),
    ("expired-used", ["Facts/Ana office", "MEMORY"], "", None),
]


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    shutil.copytree(LABELLED, target)
    return target


def test_labelled_vault_gives_exactly_the_planted_conflicts(labelled: Path) -> None:
    found = find_conflicts(Vault(labelled), today=TODAY)
    assert [(f.kind, f.notes, f.rule, f.winner) for f in found] == EXPECTED
    role = found[0]
    assert role.message == ("[[People/Ana]] role is stated differently: engineer "
                            "([[Daily/2026-10-01]]:2); designer ([[People/Ana]]:3)")
    assert role.sources == ["[[Daily/2026-10-01]]:2", "[[People/Ana]]:3"]
    assert found[1].sources == ["[[Facts/Ben city]]:5", "[[People/Ben]]:3"]


def test_finding_ids_are_stable(labelled: Path) -> None:
    first = [f.id for f in find_conflicts(Vault(labelled), today=TODAY)]
    (labelled / "Notes" / "More.md").write_text("unrelated [[Ana]]\n")
    assert [f.id for f in find_conflicts(Vault(labelled), today=TODAY)] == first


def test_sample_vault_has_its_one_deliberate_conflict() -> None:
    found = find_conflicts(Vault(SAMPLE, use_cache=False), today=TODAY)
    assert [(f.kind, f.notes) for f in found] == [
        ("fact-conflict", ["Daily/2026-11-26", "People/Lucy Tan"])]


def test_cli_check_json_and_kinds(labelled: Path) -> None:
    code, out, _ = run(labelled, "conflicts", "--json", "--check")
    data = json.loads(out)
    assert code == 1 and len(data["findings"]) == len(EXPECTED)
    assert set(data["findings"][0]) >= {"id", "kind", "notes", "message", "suggestion"}
    code, out, _ = run(labelled, "conflicts", "--kind", "duplicate", "--kind", "alias-clash")
    assert code == 0 and out.count("\nduplicate ") + out.startswith("duplicate ") == 1
    assert "alias-clash" in out and "fact-conflict" not in out


def test_write_report_note_only_when_changed(labelled: Path) -> None:
    code, _, err = run(labelled, "conflicts", "--write")
    assert code == 0 and err == "updated _vaultmem/Conflicts.md\n"
    note = (labelled / "_vaultmem" / "Conflicts.md").read_text()
    assert note.startswith("---\ngenerated_by: vaultmem\ntype: report\n---\n# Conflicts\n")
    assert "## expired-used: expired-used:" in note
    assert run(labelled, "conflicts", "--write")[2] == "unchanged _vaultmem/Conflicts.md\n"
    assert len(find_conflicts(Vault(labelled), today=TODAY)) == len(EXPECTED)


def _id(vault: Path, kind: str) -> str:
    found = find_conflicts(Vault(vault), today=TODAY)
    return next(f.id for f in found if f.kind == kind)


def test_resolve_keep_entity_value(sample: Path) -> None:
    finding = _id(sample, "fact-conflict")
    code, out, _ = run(sample, "resolve", finding, "--keep", "Lucy Tan", *AT)
    assert (code, out) == (0, "updated People/Lucy Tan.md\n")
    assert (sample / "People" / "Lucy Tan.md").read_text().endswith(
        "## History\n- v1 (2026-11-29): timezone = UTC+8 (kept over UTC+7 in "
        "[[Daily/2026-11-26]])\n")
    assert find_conflicts(Vault(sample), today=TODAY) == []


def test_resolve_keep_the_daily_value(sample: Path) -> None:
    finding = _id(sample, "fact-conflict")
    before = (sample / "Daily" / "2026-11-26.md").read_bytes()
    code, out, _ = run(sample, "resolve", finding, "--keep", "Daily/2026-11-26", *AT)
    assert code == 0 and out.startswith("updated People/Lucy Tan.md (version 2)\n")
    assert Vault(sample).note("Lucy Tan").frontmatter["timezone"] == "UTC+7"
    assert (sample / "Daily" / "2026-11-26.md").read_bytes() == before
    assert find_conflicts(Vault(sample), today=TODAY) == []


def test_resolve_auto_and_dry_run(labelled: Path) -> None:
    finding = _id(labelled, "fact-conflict")  # Ana's role: no rule decides
    code, _, err = run(labelled, "resolve", finding, "--auto")
    assert code == 1 and "no rule decides" in err
    city = next(f.id for f in find_conflicts(Vault(labelled), today=TODAY)
                if f.notes == ["Facts/Ben city", "People/Ben"])
    before = hash_tree(labelled)
    code, out, _ = run(labelled, "resolve", city, "--auto", "--dry-run", *AT)
    assert code == 0 and "-city: Porto\n+city: Lisbon\n" in out
    assert hash_tree(labelled) == before
    assert run(labelled, "resolve", city, "--auto", *AT)[0] == 0
    assert Vault(labelled).note("Ben").frontmatter["city"] == "Lisbon"
    remaining = {f.kind for f in find_conflicts(Vault(labelled), today=TODAY)}
    assert "superseded-active" in remaining and len(remaining) == 6


def test_resolve_decisions_supersede_the_losers(labelled: Path) -> None:
    finding = _id(labelled, "decision-conflict")
    code, out, _ = run(labelled, "resolve", finding, "--keep", "Use Postgres", *AT)
    assert (code, out) == (0, "updated Decisions/Use MySQL.md\n")
    mysql = Vault(labelled).note("Use MySQL")
    assert (mysql.frontmatter["status"], mysql.frontmatter["superseded_by"]) == (
        "superseded", "[[Use Postgres]]")
    redis = _id(labelled, "superseded-active")
    assert run(labelled, "resolve", redis, "--auto", *AT)[0] == 0
    kinds = [f.kind for f in find_conflicts(Vault(labelled), today=TODAY)]
    assert "decision-conflict" not in kinds and "superseded-active" not in kinds


def test_resolve_refuses_what_needs_a_person(labelled: Path) -> None:
    before = hash_tree(labelled)
    for kind in ("duplicate", "alias-clash", "expired-used"):
        code, _, err = run(labelled, "resolve", _id(labelled, kind), "--keep", "MEMORY")
        assert code == 1 and kind in err
    code, _, err = run(labelled, "resolve", "fact-conflict:00000000", "--auto")
    assert code == 1 and "no open conflict" in err
    code, _, err = run(labelled, "resolve", _id(labelled, "fact-conflict"), "--keep", "Ben")
    assert code == 2 and "is not part of" in err
    assert hash_tree(labelled) == before


def test_link_lists_and_case_variants(tmp_path: Path) -> None:
    def write(name: str, text: str) -> None:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    write("People/Lucy Tan.md", "---\ntype: person\nteam: \"[[Ana]], [[Lucy Tan]]\"\n---\n")
    write("Ana.md", "x\n")
    write("Log.md", "- [[Lucy Tan]] team:: [[Lucy Tan|L]], [[Ana]]\n"
          "- [[Lucy Tan]] [[lucy tan.md]] role:: CEO\n"
          "- [[Lucy Tan]] ![[photo.png]] [[Doc.pdf]] city:: Jakarta\n")
    write("People/Lucy Tan.md", "---\ntype: person\nteam: \"[[Ana]], [[Lucy Tan]]\"\n"
          "role: founder\ncity: Singapore\n---\n")
    write("Facts/Old.md", "---\ntype: fact\nentity: \"[[Ana]]\"\nattribute: desk\nvalue: 4\n"
          "valid_until: 2020-01-01\n---\n")
    write("NOW.md", "[[Old]] and again [[Old]]\n")
    found = find_conflicts(Vault(tmp_path), today=TODAY)
    assert [(f.kind, f.notes) for f in found] == [
        ("fact-conflict", ["Log", "People/Lucy Tan"]),  # role (case variants: one entity)
        ("fact-conflict", ["Log", "People/Lucy Tan"]),  # city (files do not count)
        ("expired-used", ["Facts/Old", "NOW"]),  # once, though linked twice
    ]
    assert {f.message.split(" is stated")[0] for f in found[:2]} == {
        "[[People/Lucy Tan]] role", "[[People/Lucy Tan]] city"}


def test_remembered_findings_follow_every_change(labelled: Path) -> None:
    first = find_conflicts(Vault(labelled), today=TODAY)
    assert find_conflicts(Vault(labelled), today=TODAY) == first  # from the cache
    assert find_conflicts(Vault(labelled), today=TODAY, kinds=("duplicate",)) == [
        f for f in first if f.kind == "duplicate"]
    (labelled / "People" / "Ana.md").write_text("---\ntype: person\nrole: engineer\n---\n")
    after = find_conflicts(Vault(labelled), today=TODAY)
    assert [f.notes for f in after if f.kind == "fact-conflict"] == [
        ["Facts/Ben city", "People/Ben"]]
    (labelled / "Templates" / "Person.md").unlink()  # the set of other notes changes names
    assert find_conflicts(Vault(labelled), today=TODAY) == after
    later = find_conflicts(Vault(labelled), today=dt.date(2030, 1, 1))
    assert {f.kind for f in later} >= {"expired-used"}


def test_duplicates_after_a_change_match_a_fresh_computation(labelled: Path) -> None:
    find_conflicts(Vault(labelled), today=TODAY)  # remembers every block's duplicates
    people = labelled / "People"
    (people / "Bne.md").write_text("---\ntype: person\n---\n# Bne\n")  # no block of its own
    (people / "Anna Lee.md").write_text("---\ntype: person\n---\n")
    (people / "Anna Le.md").write_text("---\ntype: person\n---\n")  # a new duplicate pair
    remembered = find_conflicts(Vault(labelled), today=TODAY, kinds=("duplicate",))
    fresh = find_conflicts(Vault(labelled, use_cache=False), today=TODAY, kinds=("duplicate",))
    assert remembered == fresh
    assert ["People/Anna Le", "People/Anna Lee"] in [f.notes for f in remembered]


def test_a_supersedes_cycle_is_settled_by_keeping_one(tmp_path: Path) -> None:
    for name, older in (("A", "B"), ("B", "A")):
        (tmp_path / "Decisions").mkdir(exist_ok=True)
        (tmp_path / "Decisions" / f"{name}.md").write_text(
            f'---\ntype: decision\nstatus: approved\ntopic: storage\nsupersedes:\n  - "[[{older}]]"'
            "\n---\n")
    found = find_conflicts(Vault(tmp_path), today=TODAY)
    assert [(f.kind, f.notes, f.winner) for f in found] == [
        ("decision-conflict", ["Decisions/A", "Decisions/B"], None)]
    assert run(tmp_path, "resolve", found[0].id, "--auto")[0] == 1
    assert run(tmp_path, "resolve", found[0].id, "--keep", "A")[0] == 0
    assert find_conflicts(Vault(tmp_path), today=TODAY) == []
    assert "status: superseded\n" in (tmp_path / "Decisions" / "B.md").read_text()


def test_findings_are_kept_until_memory_changes(sample: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from vaultmem.check import conflicts
    from vaultmem.generate.context_note import sync

    real, computed = conflicts._find, []
    monkeypatch.setattr(conflicts, "_find", lambda *a, **k: computed.append(1) or real(*a, **k))
    found = find_conflicts(Vault(sample), today=TODAY)
    sync(Vault(sample), agents=["Rafael"])  # writes a generated context note: not memory
    assert find_conflicts(Vault(sample), today=TODAY) == found and computed == [1]
    note = sample / "People" / "Lucy Tan.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    assert find_conflicts(Vault(sample), today=TODAY) == found and computed == [1, 1]


BODY = ("The quarterly budget review covers hosting costs, the support contract, travel for the "
        "pilot customers and the new OCR servers; Lucy approves anything above five thousand.\n")
OTHER = "Cells divide by mitosis; the membrane keeps the inside apart from the outside.\n"


@pytest.mark.parametrize(("files", "found"), [
    ({"Biology/Cell.md": OTHER, "Physics/Cell.md": "A cell stores charge; batteries chain them.\n"},
     []),  # the same name for two things
    ({"Notes/Budget review.md": BODY, "Archive/Budget reviews.md": BODY.replace("five", "5")},
     [("duplicate", ["Archive/Budget reviews", "Notes/Budget review"], 0.9)]),
    ({"Recipes/Pancakes.md": "---\naliases: [Pancake]\n---\nFlour, eggs, milk.\n",
      "Food/Pancake.md": "Sunday breakfast, with blueberries.\n"},
     [("duplicate", ["Food/Pancake", "Recipes/Pancakes"], 0.9)]),  # one goes by the other's name
    ({"Commands/LIST.md": f"---\nType: DataCommand\n---\n{BODY}",
      "Functions/list.md": f"---\nType: function\n---\n{BODY}"}, []),  # two kinds of thing
    ({"Untitled.md": "", "Untitled 1.md": ""}, []),  # nothing says they are one
    ({"Maths/Fourier Sine Transform.md": "", "Maths/Fourier Cosine Transform.md": ""},
     []),  # a word apart: two things, however empty
    ({"Years/-1.md": "---\nera: Before\n---\n", "Years/1.md": "---\nera: After\n---\n"},
     []),  # names without letters are numbers
    ({"Projects/Mobile App.md": "", "Projects/Mobile-App.md": ""},
     [("duplicate", ["Projects/Mobile App", "Projects/Mobile-App"], 0.6)]),  # one name twice
    ({"TV/Alice in Borderland S1.md": "---\naliases: [Imawa no Kuni]\n---\nSeason one.\n",
      "TV/Alice in Borderland S2.md": "---\naliases: [Imawa no Kuni]\n---\nSeason two.\n"},
     []),  # seasons of one show go by its name
    ({"Encounters/Group 2/The Judgement.md": BODY, "Encounters/Group 4/The Judgement.md": BODY},
     []),  # one encounter kept for each party
])
def test_alike_titles_are_one_entry_only_with_evidence(
        tmp_path: Path, files: dict[str, str], found: list[tuple[str, list[str], float]]) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    findings = find_conflicts(Vault(tmp_path, use_cache=False), kinds=("duplicate",),
                              today=TODAY)
    assert [(f.kind, f.notes, f.confidence) for f in findings] == found
    assert all(f.reason and f.reason in f.message for f in findings)


@pytest.mark.parametrize(("text", "found"), [
    ("# Party\n- race:: Human\n- race:: Elf\n- race:: Dwarf\n", []),  # a list of values
    ("---\nrace: Human\n---\n# Hero\nrace:: Elf\n", [("fact-conflict", 0.6)]),
    ("- [[Ana]] city:: Lisbon\n- [[Ana]] city:: Porto\n", [("fact-conflict", 0.6)]),
])
def test_fields_repeated_in_one_note_are_a_list_not_a_conflict(
        tmp_path: Path, text: str, found: list[tuple[str, float]]) -> None:
    (tmp_path / "Sheet.md").write_text(text)
    (tmp_path / "Ana.md").write_text("---\ntype: person\n---\n")
    findings = find_conflicts(Vault(tmp_path, use_cache=False), kinds=("fact-conflict",),
                              today=TODAY)
    assert [(f.kind, f.confidence) for f in findings] == found


LIE = "A skew-symmetric matrix A has transpose equal to minus A; its exponential is orthogonal.\n"


@pytest.mark.parametrize(("notes", "found"), [
    ({"Lie/Skew matrix.md": f"---\naliases: [so(n)]\n---\n{LIE}",
      "Lie/Algebra.md": f"---\naliases: [so(n)]\n---\n{LIE}",  # say alike things
      "Lie/Group.md": "---\naliases: [SO(n)]\n---\nIts algebra is [[so(n)]].\n"},
     [(["Lie/Algebra", "Lie/Skew matrix"], 0.6)]),  # so(n) twice; SO(n) is another name
    ({"Lie/Skew matrix.md": f"---\naliases: [so(n)]\n---\n{LIE}",
      "Lie/Algebra.md": f"---\naliases: [so(n)]\n---\n{LIE}"},
     [(["Lie/Algebra", "Lie/Skew matrix"], 0.3)]),  # shared on purpose: no link goes astray
    ({"People/Chris.md": "---\ntype: person\naliases: [CJ]\n---\nWorks on [[OCR]].\n",
      "People/Carla.md": "---\ntype: person\naliases: [CJ]\n---\nWorks on [[OCR]].\n"},
     [(["People/Carla", "People/Chris"], 0.6)]),  # people: a write by CJ would go astray
    ({"Math/Geometric series.md": "x\n",
      "Math/Ratio series.md": "---\naliases: [geometric series]\n---\nSee [[Geometric series]]\n"},
     [(["Math/Geometric series", "Math/Ratio series"], 0.9)]),  # another note's title
    ({"A/Resources.md": "---\naliases: [Resources]\n---\n", "B/Resources.md": "x\n"}, []),
    ({"Music/Compact disc.md": "---\naliases: [CD]\n---\nA disc read by a laser.\n",
      "Dev/Continuous delivery.md": "---\naliases: [CD]\n---\nShip every commit.\n"},
     [(["Dev/Continuous delivery", "Music/Compact disc"], 0.3)]),  # one word for two things
    ({"TV/Money Heist Season 1.md": "---\naliases: [La casa de papel]\n---\n[[Tokyo]]\n",
      "TV/Money Heist Season 2.md": "---\naliases: [La casa de papel]\n---\n[[Tokyo]]\n"},
     [(["TV/Money Heist Season 1", "TV/Money Heist Season 2"], 0.3)]),  # parts of one show
])
def test_an_alias_clash_names_two_notes_by_one_name(
        tmp_path: Path, notes: dict[str, str], found: list[tuple[list[str], float]]) -> None:
    for name, text in notes.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    findings = find_conflicts(Vault(tmp_path, use_cache=False), kinds=("alias-clash",),
                              today=TODAY, least=0.0)
    assert [(f.notes, f.confidence) for f in findings] == found


def test_notes_one_per_folder_by_design_are_no_duplicates(tmp_path: Path) -> None:
    own = {"Kanban": "Cards move from left to right as work gets done.\n", "Resources":
           "Links to the papers and datasets this project reads.\n"}
    scratch = {"Work/Atlas": OTHER, "Work/Beacon": "Batteries chain cells that store charge.\n"}
    for project in ("Work/Atlas", "Work/Beacon"):
        for name in ("Kanban", "Resources", "Scratchpad"):  # one template, and a line of each
            (tmp_path / project).mkdir(parents=True, exist_ok=True)
            line = own.get(name, scratch[project])
            (tmp_path / project / f"{name}.md").write_text(f"{BODY}\n{line}")
    (tmp_path / "Inbox").mkdir()  # a copy outside the structure
    (tmp_path / "Inbox" / "Scratchpad.md").write_text(f"{BODY}\n{OTHER}")
    findings = find_conflicts(Vault(tmp_path, use_cache=False), kinds=("duplicate",),
                              today=TODAY)
    assert sorted(pair for f in findings for pair in [tuple(f.notes)]) == [
        ("Inbox/Scratchpad", "Work/Atlas/Scratchpad")]


def test_notes_made_from_one_template_are_not_alike_by_its_text(tmp_path: Path) -> None:
    template = "## Install\n\nOpen Settings, Community plugins, Browse.\n\n## Author\n\n"
    for name, own in (("Calendar", "Shows a calendar of daily notes."),
                      ("Calendars", "Syncs calendars with a CalDAV server."),
                      ("Kanban", "Boards of cards."), ("Dataview", "Queries over notes.")):
        (tmp_path / "Plugins").mkdir(exist_ok=True)
        (tmp_path / "Plugins" / f"{name}.md").write_text(f"{template}{own}\n")
    assert find_conflicts(Vault(tmp_path, use_cache=False), kinds=("duplicate",),
                          today=TODAY) == []
    (tmp_path / "Plugins" / "Calendars.md").write_text(f"{template}Shows a calendar of "
                                                       "daily notes.\n")  # now a copy
    assert [f.notes for f in find_conflicts(Vault(tmp_path, use_cache=False),
                                            kinds=("duplicate",), today=TODAY)] == [
        ["Plugins/Calendar", "Plugins/Calendars"]]


def test_an_ignored_conflict_leaves_conflicts_and_the_context(sample: Path) -> None:
    from vaultmem.recall.context.build import build_context

    found = json.loads(run(sample, "conflicts", "--json")[1])["findings"]
    assert [f["kind"] for f in found] == ["fact-conflict"]
    assert "Open conflicts" in build_context(Vault(sample), agent="Rafael", query="Lucy").text
    assert run(sample, "ignore", found[0]["id"], "--why", "she travels")[0] == 0
    data = json.loads(run(sample, "conflicts", "--json")[1])
    assert data["findings"] == [] and data["ignored"] == {"fact-conflict": 1}
    assert "Open conflicts" not in build_context(Vault(sample), agent="Rafael", query="Lucy").text


def test_an_empty_field_states_nothing(tmp_path: Path) -> None:
    (tmp_path / "Note.md").write_text("---\nquestion: What is a note?\n---\n- question::\n")
    assert find_conflicts(Vault(tmp_path, use_cache=False), kinds=("fact-conflict",),
                          today=TODAY, least=0.0) == []


def test_two_lessons_of_one_pattern_key_and_agent_are_one_lesson_recorded_twice(
        tmp_path: Path) -> None:
    lessons = {  # name: (agent, pattern key, status)
        "Rafael - Deskew": ("[[Rafael]]", "ocr.deskew", "confirmed"),
        "Rafael - Straighten pages": ("[[Agents/Rafael]]", " OCR.Deskew", "observing"),
        "Scout - Deskew": ("[[Scout]]", "ocr.deskew", "active"),  # another agent's own lesson
        "Old - Deskew": ("[[Rafael]]", "ocr.deskew", "superseded"),  # no longer live
        "Crop first": ("", "ocr.crop", "active"), "Crop before": ("", "ocr.crop", "active"),
    }
    for name in ("Rafael", "Scout"):
        (tmp_path / "Agents").mkdir(exist_ok=True)
        (tmp_path / "Agents" / f"{name}.md").write_text("---\ntype: agent\n---\n")
    (tmp_path / "Lessons").mkdir()
    for name, (agent, key, status) in lessons.items():
        who = f'agent: "{agent}"\n' if agent else ""
        (tmp_path / "Lessons" / f"{name}.md").write_text(
            f"---\ntype: lesson\n{who}pattern_key: \"{key}\"\nstatus: {status}\n---\nRule.\n")
    found = find_conflicts(Vault(tmp_path), kinds=("duplicate",), today=TODAY)
    assert [(f.notes, f.confidence) for f in found] == [
        (["Lessons/Crop before", "Lessons/Crop first"], 0.9),
        (["Lessons/Rafael - Deskew", "Lessons/Rafael - Straighten pages"], 0.9)]
    assert "pattern key 'ocr.deskew' for the same agent" in found[1].message
