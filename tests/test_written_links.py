"""Links an agent writes reach the note meant in Obsidian, or the write is refused with the
notes it may mean: the cases of ``fixtures/written_links/cases.json``, then the write path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vaultmem.caller import LinkPolicy
from vaultmem.vault import Vault
from vaultmem.write.link_review.review import review_links

from .conftest import hash_tree, write_notes
from .test_cli import run

CASES = json.loads((Path(__file__).parent / "fixtures" / "written_links" / "cases.json")
                   .read_text(encoding="utf-8"))
NOTES = {
    "People/Lucy Tan.md": "---\ntype: person\naliases: [Lucy]\n---\n# Lucy Tan\n\n## Notes\n",
    "Projects/DataFlow.md": "---\ntype: project\n---\n# DataFlow\n\nOwned by [[Lucy Tan]].\n",
    "Agents/Rafael.md": "---\ntype: agent\n---\n# Rafael\n",
    "0 Inbox/Call with Dana.md": "# Call with Dana\n",
    "People/Dana Wu.md": "---\ntype: person\n---\n# Dana Wu\n",
    "Sales/Priya Shah.md": "---\ntype: person\naliases: [PN]\n---\n# Priya Shah\n",
    "Support/Priya Nair.md": "---\ntype: person\naliases: [PN]\n---\n# Priya Nair\n\n"
                             "Keeps [[Support/Plan]] current.\n",
    "Sales/Plan.md": "# Plan\n",
    "Support/Plan.md": "# Plan\n",
    "Sales/Pipeline.md": "# Pipeline\n",
    "People/Atlas.md": "---\ntype: person\n---\n# Atlas\n",
    "Projects/Atlas.md": "---\ntype: project\n---\n# Atlas\n",
}


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Vault:
    root = tmp_path_factory.mktemp("links")
    write_notes(root, NOTES)
    return Vault(root, use_cache=False)


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_written_links(vault: Vault, case: dict[str, Any]) -> None:
    review = review_links(vault, case["text"], source=case["source"])
    if "refused" in case:
        assert [list(p.candidates) for p in review.problems] == [case["refused"]]
    else:
        assert (review.problems, review.text) == ([], case["written"])
    kept = review_links(vault, case["text"], source=case["source"], policy=LinkPolicy(keep=True))
    assert (kept.text, kept.changes, kept.problems) == (case["text"], [], [])


def test_a_new_note_close_to_a_name_passes_when_said_new(vault: Vault) -> None:
    review = review_links(vault, "Ask [[Rafael Ocr Agent]]", source="Daily/x",
                          policy=LinkPolicy(new=True))
    assert (review.problems, review.text) == ([], "Ask [[Rafael Ocr Agent]]")


def test_a_write_rewrites_and_reports_its_links(sample: Path) -> None:
    code, out, _ = run(sample, "daily", "Met [[Lucy]] about [[dataflow]]", "--json")
    assert code == 0
    result = json.loads(out)["results"][0]
    assert [(c["before"], c["after"]) for c in result["links"]] == [
        ("[[Lucy]]", "[[Lucy Tan|Lucy]]"), ("[[dataflow]]", "[[DataFlow]]")]
    daily = (sample / result["path"]).read_text(encoding="utf-8")
    assert "Met [[Lucy Tan|Lucy]] about [[DataFlow]]" in daily
    history = (sample / ".vaultmem" / "link-history.md").read_text(encoding="utf-8")
    line = daily.split("\n").index(next(x for x in daily.split("\n") if "Met [[Lucy" in x)) + 1
    assert history.splitlines()[-2:] == [
        f"- 2026-11-29T10:00 [[{result['id']}]] line {line}: `[[Lucy]]` -> `[[Lucy Tan|Lucy]]` "
        "('Lucy' is an alias of People/Lucy Tan, and Obsidian resolves no link by alias)",
        f"- 2026-11-29T10:00 [[{result['id']}]] line {line}: `[[dataflow]]` -> `[[DataFlow]]` "
        "(the note is named 'DataFlow')"]
    assert run(sample, "daily", "Saw [[Lucy]]", "--dry-run")[0] == 0
    assert (sample / ".vaultmem" / "link-history.md").read_text(encoding="utf-8") == history


def test_a_refused_link_writes_nothing(sample: Path) -> None:
    before = hash_tree(sample)
    code, out, err = run(sample, "decide", "Price per page", "--topic", "pricing",
                         "--body", "See [[Charge per documnt]]")
    assert code == 1 and out == ""
    assert "[[Charge per documnt]] (line" in err
    assert "did you mean [[Decisions/Charge per document]]?" in err
    assert hash_tree(sample) == before


def test_a_word_inside_a_long_title_is_no_typo_of_it(sample: Path) -> None:
    """[[currency]] names a concept, not the lesson "Rafael - Check currency symbol": written as
    a link to a note to be, as Obsidian would; a title one word longer is still offered."""
    code, out, _ = run(sample, "links", "--check", "The [[currency]] and [[PaddleOCR]]", "--json")
    assert code == 1
    data = json.loads(out)
    assert [(r["link"], r["candidates"]) for r in data["refused"]] == [
        ("[[PaddleOCR]]", ["Decisions/Use PaddleOCR"])]


def test_keep_links_and_new_link_write_as_given(sample: Path) -> None:
    code, out, _ = run(sample, "daily", "Met [[Lucy]] and [[Lucy Tn]]", "--keep-links", "--json")
    assert code == 0
    path = json.loads(out)["results"][0]["path"]
    assert "Met [[Lucy]] and [[Lucy Tn]]" in (sample / path).read_text(encoding="utf-8")
    code, out, _ = run(sample, "daily", "Start [[Marco Plan]] with [[Lucy]]", "--new-link",
                       "--json")
    assert code == 0
    assert "Start [[Marco Plan]] with [[Lucy Tan|Lucy]]" in (sample / path).read_text(
        encoding="utf-8")


def test_links_check_says_what_a_write_would_do(sample: Path) -> None:
    before = hash_tree(sample)
    code, out, _ = run(sample, "links", "--check", "Met [[Lucy]], [[Lucy Tn]]", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["text"] == "Met [[Lucy Tan|Lucy]], [[Lucy Tn]]"
    assert [r["candidates"] for r in data["refused"]] == [["People/Lucy Tan"]]
    assert run(sample, "links", "--check", "Met [[Lucy Tan]]")[:2] == (
        0, "Every link can be written as it is.\n")
    assert hash_tree(sample) == before


def test_a_templates_own_links_are_not_the_agents(sample: Path) -> None:
    template = sample / "Templates" / "Daily.md"
    template.write_text(template.read_text(encoding="utf-8") + "Plan with [[Lucy Tn]]\n",
                        encoding="utf-8")
    code, _, _ = run(sample, "daily", "Met [[Lucy]]", "--date", "2026-12-08", "--json")
    assert code == 0
    text = (sample / "Daily" / "2026-12-08.md").read_text(encoding="utf-8")
    assert "Plan with [[Lucy Tn]]" in text and "Met [[Lucy Tan|Lucy]]" in text


def test_link_mentions_links_the_first_plain_mention_of_people_and_projects(
        vault: Vault) -> None:
    text = ("---\nwith: Lucy Tan\n---\nLucy Tan and Rafael met about DataFlow; Lucy Tan again.\n"
            "`DataFlow` in code, [[Priya Nair]] and Priya Nair.\n```\nLucy Tan\n```\n")
    review = review_links(vault, text, source="Daily/x", policy=LinkPolicy(mentions=True))
    assert review.text == ("---\nwith: Lucy Tan\n---\n[[Lucy Tan]] and Rafael met about "
                           "[[DataFlow]]; Lucy Tan again.\n`DataFlow` in code, [[Priya Nair]] "
                           "and Priya Nair.\n```\nLucy Tan\n```\n")
    assert sorted(c.why for c in review.changes) == ["mentions People/Lucy Tan",
                                                     "mentions Projects/DataFlow"]
    assert review_links(vault, text, source="Daily/x").text == text


def test_daily_link_mentions(sample: Path) -> None:
    code, out, _ = run(sample, "daily", "Called Marco Diaz about pricing", "--link-mentions",
                       "--json")
    assert code == 0
    path = json.loads(out)["results"][0]["path"]
    assert "Called [[Marco Diaz]] about pricing" in (sample / path).read_text(encoding="utf-8")
