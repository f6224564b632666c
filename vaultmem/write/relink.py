"""A link written again to point at another note, and a note's text with its links rewritten:
what a rename or a merge changes in every note that links to the note it moves.

- A wikilink keeps its form (an embed stays an embed, a heading or block anchor stays, an alias
  stays) and what a reader sees: a link that showed its target (``[[Old]]``, which reads "Old")
  gets that as its alias (``[[New|Old]]``; with an anchor, "Old > Heading" as Obsidian shows it).
  An embed shows the note, not its name: it gets no alias.
- A Markdown link keeps its text and gets the new path, encoded as the old one was (``%20`` or
  ``<...>``), with ``.md`` when the old one had it.
- A link is replaced where the index found it: on its line, outside code spans and math (where
  ``[[Old]]`` is no link); the same link written twice on a line is replaced as often as it
  is a link there.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import quote

from ..model import Link
from ..read.code_spans import protected

MARKDOWN_LINK = re.compile(r"^(!?\[.*\]\()(<?)(.*?)(>?)((?:\s+[\"'(].*)?\))$", re.DOTALL)


class Relink(NamedTuple):
    """One link of a note to write again: as it is written, its line, and as it becomes."""

    line: int  # 1-based file line
    raw: str
    written: str


def relinked(link: Link, target: str, *, anchor: str | None = None) -> str:
    """``link`` written to point at ``target`` (a note id or path as the link should name it),
    at ``anchor`` (``#Heading``; None: its own), showing what it showed.

    >>> relinked(Link("[[Old]]", "Old"), "New")
    '[[New|Old]]'
    >>> relinked(Link("![[Old#^b1|300]]", "Old", "#^b1", "300", embed=True), "New")
    '![[New#^b1|300]]'
    >>> relinked(Link("[[Old#Plan]]", "Old", "#Plan"), "New"), relinked(Link("[[Old|o]]", "Old",
    ...          alias="o"), "New")
    ('[[New#Plan|Old > Plan]]', '[[New|o]]')
    >>> relinked(Link("[t](My%20Old.md)", "My Old.md", kind="markdown"), "Sub/My New")
    '[t](Sub/My%20New.md)'
    >>> relinked(Link("[[Old#Plan]]", "Old", "#Plan"), "Old")
    '[[Old#Plan]]'
    """
    subpath = link.subpath if anchor is None else anchor
    if link.kind == "markdown":
        return _markdown(link.raw, target, subpath)
    if link.raw.lstrip("!")[2:-2].split("|")[0].replace("\\", "") == target + subpath:
        return link.raw  # written as it will be (a move that keeps a unique name)
    shown = link.alias
    if shown is None and not link.embed:
        shown = _shown(link)
        if shown == target + subpath:
            shown = None
    return ("!" if link.embed else "") + f"[[{target}{subpath}" + (
        f"|{shown}]]" if shown is not None else "]]")


def _shown(link: Link) -> str:
    """What a wikilink without an alias shows: its target, and its anchor after ``>``."""
    inner = link.raw.lstrip("!")[2:-2]
    target, hashed, anchor = inner.partition("#")
    return f"{target} > {anchor}" if hashed and target else (anchor if hashed else target)


def _markdown(raw: str, target: str, subpath: str) -> str:
    """A Markdown link's destination replaced by ``target``, encoded as it was."""
    found = MARKDOWN_LINK.match(raw)
    if found is None:
        return raw
    head, opened, old, closed, tail = found.groups()
    path = target + (".md" if old.split("#")[0].lower().endswith(".md") else "") + subpath
    if not opened and ("%" in old or " " in path):
        path = quote(path, safe="/#^")
    return f"{head}{opened}{path}{closed}{tail}"


def rewritten(text: str, changes: list[Relink]) -> str:
    """``text`` with each change's link replaced on its line (outside code spans and math),
    as many times as the changes name it there.

    >>> rewritten("a [[Old]] `[[Old]]` [[Old]]\\nb", [Relink(1, "[[Old]]", "[[New|Old]]")] * 2)
    'a [[New|Old]] `[[Old]]` [[New|Old]]\\nb'
    >>> rewritten("| [[Old]] | 3 |", [Relink(1, "[[Old]]", "[[New|Old]]")])
    '| [[New\\\\|Old]] | 3 |'
    >>> rewritten("| [[Old\\\\|o]] |", [Relink(1, "[[Old|o]]", "[[New|o]]")])
    '| [[New\\\\|o]] |'
    """
    lines = text.split("\n")
    by_line: dict[tuple[int, str], list[Relink]] = {}
    for change in changes:
        by_line.setdefault((change.line, change.raw), []).append(change)
    for (number, raw), same in sorted(by_line.items()):
        if 0 < number <= len(lines):
            lines[number - 1] = _replaced(lines[number - 1], raw, same[0].written, len(same))
    return "\n".join(lines)


def _replaced(line: str, raw: str, written: str, times: int) -> str:
    """``line`` with the first ``times`` occurrences of ``raw`` outside code and math replaced
    (in a table row, a link's ``|`` escaped, as Obsidian writes it there)."""
    if line.lstrip().startswith("|"):
        written = written.replace("\\|", "|").replace("|", "\\|")
        if raw not in line:  # the table escapes the link's pipe: [[Note\|shown]]
            raw = raw.replace("\\|", "|").replace("|", "\\|")
    guarded = protected(line)
    parts, at, done = [], 0, 0
    for found in re.finditer(re.escape(raw), line):
        inside = any(start <= found.start() < end for start, end in guarded)
        if inside or done >= times or found.start() < at:
            continue
        parts += [line[at:found.start()], written]
        at, done = found.end(), done + 1
    return "".join(parts) + line[at:]
