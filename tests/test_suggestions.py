"""Did-you-mean suggestions: a likely note for a misspelt link or name, never the linking note
itself, none when nothing is alike, found among blocked candidates (CJK names too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.check.linting import lint
from vaultmem.similar_names import CANDIDATES, NameIndex
from vaultmem.vault import Vault


def _vault(root: Path, notes: dict[str, str]) -> Vault:
    for rel, text in notes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return Vault(root, use_cache=False)


def _hints(vault: Vault) -> dict[str, str]:
    return {f.message: f.suggestion for f in lint(vault, orphans=False, least=0.0)}


def test_a_broken_link_never_suggests_the_note_that_holds_it(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"Standup notes.md": "[[Standup note]]\n",
                              "Standup notez.md": "x\n", "Albums.md": "![[Albums.base]]\n"})
    hints = _hints(vault)
    assert hints["Standup notes.md:1: [[Standup note]] does not resolve"] == (
        "did you mean [[Standup notez]]?")
    assert hints["Albums.md:1: ![[Albums.base]] does not resolve"] == (
        "add the file or fix the link")


def test_another_number_or_one_shared_word_is_no_suggestion(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"Daily/2022-12-11.md": "[[2022-12-10]]\n",
                              "Daily/2022-12-12.md": "x\n", "David Kadavy.md": "x\n",
                              "Books.md": "[[Getting Things Done - David Allen]]\n"})
    assert set(_hints(vault).values()) == {"create the note or fix the link"}
    assert {f.kind for f in lint(vault, orphans=False, least=0.0)} == {"unwritten-link"}


@pytest.mark.parametrize(("target", "hint"), [
    ("Lucy Tn", "did you mean [[People/Lucy Tan]]?"),
    ("lucy tann", "did you mean [[People/Lucy Tan]]?"),  # case and a letter
    ("Cancer", None),  # a one-letter title is not alike: a note to write
    ("交换环论", "did you mean [[Algebra/交换环]]?"),
    ("实分析", "did you mean [[Analysis/--实分析--]]?"),  # the same name, other punctuation
    ("Bash", "did you mean [[Linux/Bash &&]]?"),
])
def test_a_misspelt_link_gets_the_likely_note(tmp_path: Path, target: str,
                                              hint: str | None) -> None:
    vault = _vault(tmp_path, {"People/Lucy Tan.md": "x\n", "Programming/n.md": "x\n",
                              "Algebra/交换环.md": "x\n", "Analysis/--实分析--.md": "x\n",
                              "Linux/Bash &&.md": "x\n", "Home.md": f"see [[{target}]]\n"})
    if hint is None:
        assert _hints(vault) == {f"Home.md:1: [[{target}]] links a note nobody wrote yet":
                                 "create the note or fix the link"}
    else:
        assert _hints(vault) == {f"Home.md:1: [[{target}]] does not resolve": hint}


@pytest.mark.parametrize(("target", "shown"), [
    ("Lucy Tn", True), ("Eigenvectr", True),  # a word off in a name of two, a long name
    ("Liver", False), ("Monkey", False), ("Stalin", False),  # short words: other words
    ("阿里云", False), ("胸部肌肉训练的技术细节", False),  # a CJK character is another word
    ("--实分析--", True),  # the same name but for punctuation
    ("date.toFormat", False),  # a word more than dateformat: another function
])
def test_a_link_only_spelt_like_a_title_is_a_guess_left_out_by_default(
        tmp_path: Path, target: str, shown: bool) -> None:
    vault = _vault(tmp_path, {"People/Lucy Tan.md": "x\n", "Eigenvector.md": "x\n",
                              "Sliver.md": "x\n", "Money.md": "x\n", "Starlink.md": "x\n",
                              "阿里云盘.md": "x\n", "肩部肌肉训练的技术细节.md": "x\n",
                              "实分析.md": "x\n", "dateformat.md": "x\n",
                              "Home.md": f"see [[{target}]]\n"})
    found = [f for f in lint(vault, orphans=False, least=0.0)
             if f.kind in ("broken-link", "unwritten-link")]
    assert len(found) == 1 and (found[0].confidence >= 0.5) == shown


def test_show_names_the_closest_notes_by_title_or_alias(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"People/Lucy Tan.md": "---\naliases: [Lucy]\n---\n",
                              "People/Luca Tanaka.md": "x\n", "Zed.md": "x\n",
                              "Eigenvector.md": "x\n", "Employment Insurance.md":
                              "---\naliases: [EI]\n---\n"})
    with pytest.raises(Exception, match=r"did you mean \[\[People/Lucy Tan\]\]\?$"):
        vault.note("Lucy Tn")
    with pytest.raises(Exception, match=r"did you mean \[\[Eigenvector\]\]\?$"):
        vault.note("Eigenvectr")  # not Employment Insurance for its alias EI
    with pytest.raises(Exception, match=r"no note named 'Quokka'; to find notes that mention "
                                        r"it: vaultmem search Quokka$"):
        vault.note("Quokka")


def test_the_best_match_is_found_among_many_sharing_letters() -> None:
    names = {f"Notes/Meeting {i:04d}": [f"Meeting {i:04d}"] for i in range(CANDIDATES * 5)}
    names["People/Meryl Tingle"] = ["Meryl Tingle"]
    assert NameIndex(names).closest("Meryl Tingel") == ["People/Meryl Tingle"]


def test_no_note_is_suggested_for_a_file_or_a_title_with_another_word(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"Categories/Podcast episodes.md": "x\n",
                              "5_Structure/Terms - Zettelkasten.md": "x\n",
                              "Release 1.md": "x\n",
                              "Home.md": "![[Podcast episodes.base#Show]]\n"
                                         "[[Tasks - Zettelkasten]]\n[[Release 1.2]]\n"})
    assert _hints(vault) == {
        "Home.md:1: ![[Podcast episodes.base#Show]] does not resolve":
            "add the file or fix the link",
        "Home.md:2: [[Tasks - Zettelkasten]] links a note nobody wrote yet":
            "create the note or fix the link",
        "Home.md:3: [[Release 1.2]] links a note nobody wrote yet":  # a version, not a file
            "create the note or fix the link"}


def test_a_dotted_name_is_a_note_unless_it_ends_in_a_file_format(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"Queries.md": "- DVfunctions:: [[dv.table]], [[DataArray.map]]\n"
                                            "[[Node.js]] [[scan.pdf]] [[route.gpx]]\n"
                                            "[[package.json]] [[rows.csv]] ![[page.html]]\n",
                              "Trips/Alps.gpx": "<gpx/>\n",  # the vault's own kinds of file
                              "Data/2024.csv": "a,b\n"})
    found = {f.message.split(": ", 1)[1]: (f.kind, f.suggestion)
             for f in lint(vault, orphans=False, least=0.0)}
    assert found == {
        "[[package.json]] links a note nobody wrote yet":  # a file written about, no JSON kept
            ("unwritten-link", "create the note or fix the link"),
        "[[rows.csv]] does not resolve": ("broken-link", "add the file or fix the link"),
        "![[page.html]] does not resolve": ("broken-link", "add the file or fix the link"),
        "[[dv.table]] links a note nobody wrote yet":
            ("unwritten-link", "create the note or fix the link"),
        "[[DataArray.map]] links a note nobody wrote yet":
            ("unwritten-link", "create the note or fix the link"),
        "[[Node.js]] links a note nobody wrote yet":
            ("unwritten-link", "create the note or fix the link"),
        "[[scan.pdf]] does not resolve": ("broken-link", "add the file or fix the link"),
        "[[route.gpx]] does not resolve": ("broken-link", "add the file or fix the link")}
