"""The command line, driven with CliRunner on a copy of the sample vault."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from vaultmem.cli import COMMANDS, cli

from .conftest import ROOT, hash_tree


def run(vault: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--vault", str(vault), *args])
    return result.exit_code, result.stdout, result.stderr


def test_scan_json(sample: Path) -> None:
    code, out, _ = run(sample, "scan", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["notes"] == 30
    assert data["by_type"]["daily"] == 4
    assert data["links"] == {"total": 208, "resolved": 207, "unresolved": 1, "ambiguous": 0,
                             "embeds": 1, "attachments": 1}
    assert data["skipped"] == {"excluded": 1, "template": 1}
    assert data["problems"] == [] and data["unsure"] == {"unwritten-link": 1}  # a note to write
    assert data["cache"]["parsed"] == 30
    assert json.loads(run(sample, "scan", "--json")[1])["cache"]["reused"] == 30


def test_scan_lists_a_few_problems_and_counts_the_rest(tmp_path: Path) -> None:
    links = "".join(f"![[Gone {n:02}]]\n" for n in range(12))  # embeds that show nothing
    (tmp_path / "A.md").write_text(links + "---\nnot: closed\n")
    (tmp_path / "B.md").write_text("---\nbad: [unclosed\n---\nbody\n")
    code, out, _ = run(tmp_path, "scan")
    problems = out.split("Problems (13):\n")[1].splitlines()
    assert code == 0 and len(problems) == 11
    assert problems[-1] == ("  ... and 3 more (3 broken-link); vaultmem lint or scan --json "
                            "lists them all")
    assert len(json.loads(run(tmp_path, "scan", "--json")[1])["problems"]) == 13


def test_scan_text(sample: Path) -> None:
    code, out, _ = run(sample, "scan")
    assert code == 0
    assert "Links   208: 207 resolved, 1 unresolved, 0 ambiguous" in out
    assert out.endswith("Problems (0)\n  (and 1 link(s) to notes not written yet: vaultmem lint "
                        "--all)\n")


def test_show_by_name_id_and_path(sample: Path) -> None:
    outputs = [run(sample, "show", name, "--json")[1]
               for name in ("Lucy Tan", "People/Lucy Tan", "People/Lucy Tan.md",
                            str(sample / "People" / "Lucy Tan.md"), "lucy tan")]
    assert len(set(outputs)) == 1
    data = json.loads(outputs[0])
    assert data["id"] == "People/Lucy Tan"
    assert data["aliases"] == ["Lucy"]
    assert data["block_ids"] == [{"id": "pref-async", "line": 19}]
    assert data["links"][0] == {"raw": "[[DataFlow]]", "target": "DataFlow", "subpath": "",
                                "alias": None, "embed": False, "line": 12, "kind": "body",
                                "key": None, "size": None, "resolved": "Projects/DataFlow",
                                "ambiguous": False}
    assert {"id": "MEMORY", "line": 8, "raw": "[[Lucy Tan#^pref-async]]"} in data["backlinks"]


def test_show_unknown_note_suggests(sample: Path) -> None:
    code, out, err = run(sample, "show", "Lucy Tn")
    assert code == 1
    assert out == ""
    assert err == "Error: no note named 'Lucy Tn'; did you mean [[People/Lucy Tan]]?\n"


def test_missing_vault_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "nope", "scan")
    assert code == 2
    assert err == (f"Error: vault folder {tmp_path / 'nope'} does not exist; pass --vault with "
                   "the folder of your notes\n")


def test_a_note_given_as_the_vault_names_its_vault_in_one_line(sample: Path) -> None:
    code, out, err = run(sample / "People" / "Lucy Tan.md", "scan")
    assert (code, out) == (2, "")
    assert err == (f"Error: {sample / 'People' / 'Lucy Tan.md'} is a file, not a vault folder; "
                   f"pass the folder that holds your notes: --vault {sample}\n")


def test_a_bad_since_is_a_usage_error(sample: Path) -> None:
    assert run(sample, "search", "ocr", "--since", "last week") == (
        2, "", "Error: since 'last week' is not a date; use YYYY-MM-DD\n")


def test_a_bad_pinned_clock_is_a_usage_error(sample: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAULTMEM_NOW", "yesterday")
    code, out, err = run(sample, "daily", "hello")
    assert (code, out) == (2, "")
    assert err == ("Error: VAULTMEM_NOW='yesterday' is not a date or time; use YYYY-MM-DD or "
                   "YYYY-MM-DDTHH:MM, or unset VAULTMEM_NOW to use the system clock\n")


def test_an_empty_folder_says_it_holds_no_notes(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(cli, ["--vault", "empty", "scan"])
    assert result.exit_code == 0
    assert result.stdout.split("\n")[:2] == [
        "Vault   empty", "Notes   0 (no Markdown notes here; is this the vault's root folder?)"]


def test_graph_formats(sample: Path) -> None:
    data = json.loads(run(sample, "graph", "--json")[1])
    graph = nx.node_link_graph(data, edges="edges")
    assert graph.edges["Projects/DataFlow", "People/Lucy Tan"]["kinds"] == [
        "property:members", "property:owner"]
    assert graph.nodes["Invoice Parser v2"]["missing"] is True
    graphml = nx.read_graphml(io.BytesIO(run(sample, "graph", "--format", "graphml")[1].encode()))
    assert graphml.number_of_edges() == graph.number_of_edges()
    gexf = nx.read_gexf(io.BytesIO(run(sample, "graph", "--format", "gexf")[1].encode()))
    assert gexf.number_of_nodes() == graph.number_of_nodes()


def test_graph_around_mermaid(sample: Path) -> None:
    code, out, _ = run(sample, "graph", "--around", "Invoice Inbox", "--depth", "1",
                       "--format", "mermaid")
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == ["```mermaid", "flowchart LR"] and lines[-1] == "```"
    labels = [line.split('"')[1] for line in lines if '"' in line]
    assert "Invoice Inbox" in labels and "Marco Diaz" in labels and "Henrik Olsen" not in labels


def test_depth_without_around_is_usage_error(sample: Path) -> None:
    code, _, err = run(sample, "graph", "--depth", "2")
    assert code == 2 and "--depth needs --around" in err


def test_lint_check_exit_codes(sample: Path) -> None:
    assert run(sample, "lint", "--check") == (0, "No findings.\n1 unsure finding(s) left out "
                                              "(unwritten-link 1): --all lists them.\n", "")
    assert run(sample, "lint", "--check", "--all")[0] == 1  # the link to a note to write
    home = sample / "Home.md"
    home.write_text(home.read_text() + "[[Lucy Tn]]\n")  # a typo of a note that exists
    code, out, _ = run(sample, "lint", "--check", "--json")
    assert code == 1
    assert [(f["kind"], f["suggestion"]) for f in json.loads(out)["findings"]] == [
        ("broken-link", "did you mean [[People/Lucy Tan]]?")]
    assert json.loads(out)["unsure"] == {"unwritten-link": 1}


def test_read_commands_change_nothing(sample: Path) -> None:
    before = hash_tree(sample)
    for args in (["scan"], ["show", "Lucy Tan"], ["graph", "--json"], ["lint"],
                 ["graph", "--format", "mermaid", "--around", "DataFlow"]):
        assert run(sample, *args)[0] == 0
    assert hash_tree(sample) == before


def test_python_m_vaultmem(sample: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(sample), "show",
                           "NOW", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["type"] == "now"


NO_VAULT = {"token"}  # commands that read or write no vault


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_with_example_and_is_documented(name: str) -> None:
    result = CliRunner().invoke(cli, [name, "--help"])
    example = f"vaultmem {name}" if name in NO_VAULT else f"vaultmem --vault sample_vault {name}"
    assert result.exit_code == 0
    assert "Example:" in result.stdout and example in result.stdout
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    assert any(example in page.read_text() for page in pages)


def test_progress_bar_on_stderr_keeps_json_clean(tmp_path: Path) -> None:
    for i in range(520):
        (tmp_path / f"n{i}.md").write_text(f"[[n{i + 1}]]\n")
    code, out, err = run(tmp_path, "scan", "--json")
    assert code == 0 and json.loads(out)["notes"] == 520
    assert "Parsing notes" in err


def test_lint_kind_filter(sample: Path) -> None:
    (sample / "Lonely.md").write_text("nobody links here\n")
    (sample / "Empty.md").write_text("---\ntags: [stub]\n---\n# Empty\n")
    kinds = [f["kind"] for f in json.loads(run(sample, "lint", "--json", "--all")[1])["findings"]]
    assert kinds == ["unwritten-link", "orphan", "orphan"]
    only = json.loads(run(sample, "lint", "--json", "--kind", "orphan")[1])["findings"]
    assert [(f["kind"], f["notes"], f["reason"]) for f in only] == [
        ("orphan", ["Empty"], "an empty note nothing links")]  # the other one is unsure


def test_a_bug_is_one_line_not_a_traceback(sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vaultmem.cli.read

    def broken(*args: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(vaultmem.cli.read, "scan_summary", broken)
    code, out, err = run(sample, "scan")
    assert (code, out) == (1, "")
    assert err.startswith("Error: internal error (KeyError: 'boom'); please report it")
    assert "Traceback" not in err
    monkeypatch.setenv("VAULTMEM_DEBUG", "1")
    result = CliRunner().invoke(cli, ["--vault", str(sample), "scan"])
    assert isinstance(result.exception, KeyError)


def test_mcp_without_the_sdk_says_how_to_install_it(sample: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    code, out, err = run(sample, "mcp")
    assert (code, out) == (2, "") and "pip install 'vaultmem[mcp]'" in err


def test_show_text_adds_the_markdown(sample: Path) -> None:
    code, out, _ = run(sample, "show", "Henrik Olsen", "--text")
    head, body = out.split("\n\n---- People/Henrik Olsen.md ----\n")
    assert code == 0 and head == run(sample, "show", "Henrik Olsen")[1].rstrip("\n")
    assert body == (sample / "People" / "Henrik Olsen.md").read_text() + "\n"


def test_an_ambiguous_link_is_reported_only_when_it_may_reach_another_note(
        tmp_path: Path) -> None:
    for name in ("Work/Kanban.md", "Home/Kanban.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("board\n")
    (tmp_path / "Work" / "Index.md").write_text("[[Kanban]]\n")  # its own folder's: as meant
    (tmp_path / "Overview.md").write_text("[[Kanban]]\n")  # left to the shortest path
    found = json.loads(run(tmp_path, "lint", "--json")[1])["findings"]
    assert [(f["kind"], f["notes"]) for f in found if f["kind"] == "ambiguous-link"] == [
        ("ambiguous-link", ["Overview"])]


def test_a_link_that_resolves_to_its_own_note_among_namesakes_is_reported(
        tmp_path: Path) -> None:
    for name, text in (("Plugins/Catppuccin.md", "A theme by [[catppuccin]].\n"),
                       ("Authors/catppuccin.md", "Makes themes.\n"),
                       ("Plugins/Minimal.md", "See [[Minimal#Use]], [[Plugins/Minimal]].\n")):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = json.loads(run(tmp_path, "lint", "--json")[1])["findings"]
    assert [(f["notes"], f["line"], f["suggestion"]) for f in found
            if f["kind"] == "ambiguous-link"] == [
        (["Plugins/Catppuccin"], 1, "write the full path of the note meant: "
                                    "[[Authors/catppuccin]]")]


def test_heading_links_match_as_obsidian_and_github_read_them(tmp_path: Path) -> None:
    (tmp_path / "Guide.md").write_text("# What is `vaultmem`?\n## Ribbon Commands\nx\n")
    (tmp_path / "README.md").write_text(
        "[[Guide#What is vaultmem]] [see](Guide.md#ribbon-commands) [[Guide#ribbon-commands]]\n")
    found = json.loads(run(tmp_path, "lint", "--json")[1])["findings"]
    assert [(f["kind"], f["message"].split(": ", 1)[1]) for f in found] == [
        ("missing-heading", "[[Guide#ribbon-commands]]: no heading 'ribbon-commands' in Guide")]


def test_ignored_findings_stay_quiet_and_are_counted(sample: Path) -> None:
    home = sample / "Home.md"
    home.write_text(home.read_text() + "[[Lucy Tn]]\n![[Gone.png]]\n")
    (sample / "Old").mkdir()
    (sample / "Old" / "Empty.md").write_text("")
    found = json.loads(run(sample, "lint", "--json")[1])["findings"]
    typo = next(f["id"] for f in found if "Lucy Tn" in f["message"])
    before = hash_tree(sample)
    code, out, _ = run(sample, "ignore", typo, "--why", "kept on purpose", "--dry-run")
    assert code == 0 and out.startswith("would update .vaultmem/ignored.txt")
    assert hash_tree(sample) == before  # a dry run writes nothing
    assert run(sample, "ignore", typo, "--why", "kept on purpose")[0] == 0
    assert run(sample, "ignore", "--folder", "Old/")[0] == 0
    assert run(sample, "ignore", "--folder", "Old")[1].startswith("unchanged")
    listed = (sample / ".vaultmem" / "ignored.txt").read_text()
    assert listed.endswith(f"finding {typo}  # kept on purpose\nfolder Old\n")
    data = json.loads(run(sample, "lint", "--json")[1])
    assert [f["message"].split(": ", 1)[1] for f in data["findings"]] == [
        "![[Gone.png]] does not resolve"]
    assert data["ignored"] == {"broken-link": 1, "orphan": 1}
    assert run(sample, "lint")[1].endswith(
        "2 ignored finding(s) left out (broken-link 1, orphan 1): see .vaultmem/ignored.txt.\n")
    assert run(sample, "ignore", "--kind", "broken-link")[0] == 0
    assert json.loads(run(sample, "lint", "--json")[1])["findings"] == []


def test_the_ignore_list_says_which_line_is_wrong(sample: Path) -> None:
    (sample / ".vaultmem").mkdir(exist_ok=True)
    (sample / ".vaultmem" / "ignored.txt").write_text("# mine\nkind orphan\nnote Home\n")
    code, _, err = run(sample, "lint")
    assert code == 2 and err == ("Error: .vaultmem/ignored.txt:3: expected 'finding ID', "
                                 "'kind KIND' or 'folder FOLDER', found 'note Home'\n")
    assert run(sample, "ignore")[2] == ("Error: give one finding id, or --kind KIND, or "
                                        "--folder FOLDER\n")


@pytest.mark.parametrize(("text", "empty"), [
    ("---\ntags: [stub]\n---\n# Stub\n", True),
    ("", True),
    ("---\ntags: [dataview]\n---\n```dataview\nlist where author = null\n```\n", False),
    ("---\nrace: Human\nclass: Rogue\n---\n", False),  # a note that is all data
])
def test_only_an_empty_orphan_is_sure(tmp_path: Path, text: str, empty: bool) -> None:
    (tmp_path / "Lone.md").write_text(text)
    found = json.loads(run(tmp_path, "lint", "--json", "--all")[1])["findings"]
    assert [(f["kind"], f["confidence"] >= 0.5) for f in found] == [("orphan", empty)]


def test_scan_and_lint_agree_on_what_is_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "Bob.md").write_text("---\naliases: [bobby]\n---\nBob.\n")
    (tmp_path / "--Real Analysis--.md").write_text("x\n")
    (tmp_path / "Home.md").write_text("[[bobby]] [[Real Analysis]] [[Someday]]\n")
    scanned = json.loads(run(tmp_path, "scan", "--json")[1])
    linted = json.loads(run(tmp_path, "lint", "--json")[1])
    assert sorted(p["message"] for p in scanned["problems"]) == sorted(
        f["message"] for f in linted["findings"]) == [
        "Home.md:1: [[Real Analysis]] does not resolve", "Home.md:1: [[bobby]] does not resolve"]
    assert scanned["unsure"] == {"unwritten-link": 1}  # lint also counts unsure orphans
    assert linted["unsure"]["unwritten-link"] == 1


def test_a_link_to_no_note_is_shown_in_a_vault_whose_links_all_resolve_but_few(
        tmp_path: Path) -> None:
    for i in range(120):  # 1,044 links to written notes, as a docs vault keeps them
        links = " ".join(f"[[Page {j}]]" for j in range(i + 1, min(i + 10, 120)))
        (tmp_path / f"Page {i}.md").write_text(f"# Page {i}\n\nSee {links}.\n")
    (tmp_path / "Page 5.md").write_text("# Page 5\n\nAlso [[Renamed Page]].\n")
    shown = json.loads(run(tmp_path, "lint", "--json")[1])["findings"]
    assert [(f["kind"], f["notes"], f["line"], f["confidence"]) for f in shown] == [
        ("unwritten-link", ["Page 5"], 3, 0.6)]
    assert json.loads(run(tmp_path, "scan", "--json")[1])["problems"][0]["line"] == 3
    for i in range(40):  # a vault that links many notes nobody wrote plans them that way
        (tmp_path / f"Plan {i}.md").write_text(f"[[Idea {i}]]\n")
    assert json.loads(run(tmp_path, "lint", "--json")[1])["findings"] == []


def test_a_file_this_copy_may_lack_is_a_guess_left_out_by_default(tmp_path: Path) -> None:
    (tmp_path / ".obsidian").mkdir()
    (tmp_path / ".obsidian" / "app.json").write_text('{"attachmentFolderPath": "Media"}')
    (tmp_path / ".gitignore").write_text("# private\nMedia/\nDrafts\n")
    (tmp_path / "Film.md").write_text("![poster](p2221539583.jpg)\n![[Drafts/plan.pdf]]\n"
                                      "![shot](/site/assets/img/shot.png)\n![[Notes/Gone]]\n")
    found = json.loads(run(tmp_path, "lint", "--all", "--json")[1])["findings"]
    assert [(f["line"], f["confidence"], f["reason"]) for f in found] == [
        (1, 0.45, "this copy lacks what .gitignore keeps out of git: the file may be there"),
        (2, 0.45, "this copy lacks what .gitignore keeps out of git: the file may be there"),
        (3, 0.45, "a path from a published site's root, not a folder of this vault"),
        (4, 0.9, "the embed shows nothing")]


def test_empty_notes_nothing_links_are_a_habit_when_a_vault_keeps_many(tmp_path: Path) -> None:
    (tmp_path / "Forgotten.md").write_text("")
    assert [f["reason"] for f in json.loads(run(tmp_path, "lint", "--json")[1])["findings"]] == [
        "an empty note nothing links"]
    for i in range(10):  # a tree of topics, each an empty note to fill some day
        (tmp_path / "Topics" / f"Branch {i}").mkdir(parents=True)
        (tmp_path / "Topics" / f"Branch {i}" / f"Topic {i}.md").write_text("")
    found = json.loads(run(tmp_path, "lint", "--all", "--json")[1])["findings"]
    assert {(f["confidence"], f["reason"]) for f in found} == {
        (0.45, "one of 11 empty notes nothing links: placeholders of a structure are a habit "
               "here")}


def test_a_block_link_written_with_two_hashes_names_the_block(tmp_path: Path) -> None:
    (tmp_path / "Essay.md").write_text("Heaven without a test. ^heaven\n")
    (tmp_path / "Notes.md").write_text("[[Essay##^heaven]] [[Essay##^nowhere]]\n")
    found = json.loads(run(tmp_path, "lint", "--json")[1])["findings"]
    assert [(f["kind"], f["message"].split(": ", 1)[1]) for f in found] == [
        ("missing-block", "[[Essay##^nowhere]]: no block ^nowhere in Essay")]


def test_invalid_properties_of_a_template_are_a_guess(tmp_path: Path) -> None:
    for folder in ("Templates Archive", "Notes"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "Formula.md").write_text("---\ntitle: [unclosed\n---\nx\n")
    found = json.loads(run(tmp_path, "lint", "--all", "--json")[1])["findings"]
    assert [(f["notes"], f["confidence"]) for f in found if f["kind"] == "frontmatter"] == [
        (["Notes/Formula"], 1.0), (["Templates Archive/Formula"], 0.45)]
