"""Passage text shows inline syntax as a reader of the note sees it (vaultmem.read.shown)."""

from __future__ import annotations

import pytest

from vaultmem.read.html import html_edits, protected
from vaultmem.read.note_passages import shown_heading
from vaultmem.read.passages import passages_of


def texts(body: str) -> list[str]:
    """The passage texts of a note body."""
    return [passage.text for passage in passages_of(body)]


def test_embeds_read_as_links_and_lone_embeds_are_no_passage() -> None:
    assert texts("See ![[Books.base#Author]] and ![[Diagram.png|300]] or ![[Doc.pdf|the doc]]\n"
                 "\n![[Only.png]] ![[Also.base]]\n\n- ![[x.png|200]]\n") == [
        "See [[Books.base#Author]] and [[Diagram.png]] or [[Doc.pdf|the doc]]"]


def test_markdown_links_to_notes_are_decoded_and_urls_kept() -> None:
    body = ("Read [How to](How%20to%20take%20Smart%20Notes%20-%20S%C3%B6nke%20Ahrens.md \"t\"), "
            "[top](#Linking%20Your%20Thinking), [web](https://x.com/a%20b), <My%20Note.md>, "
            "[angle](<My Note.md>), [ref][r], ![cover|150](http://x.com/c%20d.png) and "
            "![shot](./assets/Pasted%20image.png)\n\n"
            "[r]: Other%20Note.md\n")
    assert texts(body) == [
        "Read [How to](How to take Smart Notes - Sönke Ahrens.md), [top](#Linking Your Thinking), "
        "[web](https://x.com/a%20b), <My%20Note.md>, [angle](My Note.md), [ref][r], "
        "[cover](http://x.com/c%20d.png) and [shot](./assets/Pasted image.png)"]


def test_an_image_or_embed_in_a_link_label_reads_as_its_name() -> None:
    assert texts("[![[cover.png|100]]](<Books/Out of Control.md>), [![](https://a.com/x.png)]"
                 "(https://a.com/y.png) and [![Fig|50](f%201.png) one](Figures.md)\n") == [
        "[cover.png](Books/Out of Control.md), [image](https://a.com/y.png) and "
        "[Fig one](Figures.md)"]


def test_dataview_fields_read_as_properties_code_as_written() -> None:
    body = ("timezone:: UTC+7\n**Acronym**:: PE\n- [ ] call (due:: 2024-01-01) [dur:: 5]\n"
            "- [[Lucy]] role:: CTO `a:: b`\n")
    assert texts(body) == ["timezone: UTC+7\n**Acronym**: PE",
                           "[ ] call (due: 2024-01-01) [dur: 5]", "[[Lucy]] role: CTO `a:: b`"]


def test_html_tags_are_left_out_their_text_kept() -> None:
    body = ('<iframe src="https://x.com/v" width="640"></iframe><p> <a href="https://x.com">via'
            " X</a></p>\n\nH<sub>2</sub>O is <b>water</b>,<br>ice is not\n\n"
            "Math $a<b>c$ and code `<i>` and \\<b> stay; List<T> is a tag\n\n<div>\n\n</div>\n")
    assert texts(body) == ["via X\nH2O is water, ice is not\n"  # one short section
                           "Math $a<b>c$ and code `<i>` and \\<b> stay; List is a tag"]


def test_html_inside_a_comment_stays_hidden() -> None:
    assert texts("kept %% <b>hidden</b> %% <i>shown</i>\n") == ["kept shown"]


def test_what_html_edits_skip() -> None:
    content = "`<b>` $x<y>z$ \\<i> <u>u</u>"
    assert protected(content) == [(0, 5), (6, 13), (14, 16)]
    assert [(e.start, e.end, e.text) for e in html_edits(content)] == [(19, 22, ""),
                                                                     (23, 27, "")]


@pytest.mark.parametrize(("heading", "shown"), [
    ("![[数一2022#(3)]]√", "[[数一2022#(3)]]√"),
    ("[[Arithmetic Logic Unit]]", "[[Arithmetic Logic Unit]]"),
    ("Plan <small>draft</small>", "Plan draft"), ("1. [[高斯消元法]]", "1. [[高斯消元法]]"),
])
def test_headings_read_as_shown(heading: str, shown: str) -> None:
    assert shown_heading(heading) == shown


def test_a_heading_path_reads_as_shown() -> None:
    passages = passages_of("## ![[Trips.base]] <b>Kyoto</b>\nTemples.\n")
    assert [(p.text, p.headings) for p in passages] == [("Temples.", ("[[Trips.base]] Kyoto",))]
