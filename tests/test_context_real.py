"""Contexts and search results on the real vaults show no raw syntax, for 100 random queries each.

The queries are drawn (seeded by the vault's name) from the words of the vault's note titles and
texts: words, word pairs, whole titles, and notes asked for with ``--note``. Every context and
every search snippet and passage must read as text: see :mod:`.raw_syntax` for the checks.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import shutil
from pathlib import Path

import pytest

from vaultmem.index.lookup import passages
from vaultmem.model import BlockId, Heading, Note
from vaultmem.recall.context.build import Context, build_context
from vaultmem.recall.search import search
from vaultmem.vault import Vault

from .conftest import NO_CORPORA
from .raw_syntax import (
    bad_citation,
    frontmatter_lines,
    raw_syntax,
    shows_frontmatter,
    yaml_lines,
)

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
VAULTS = ["kepano-obsidian", "dataview-deep-dive", "bramses-vault", "sorobby-starter",
          "zettelkasten-starter", "pkmer-math"]
QUERIES = 100
BUDGETS = (500, 1000, 2000)
TODAY = dt.date(2026, 11, 29)
WORD = re.compile(r"[^\W\d_]{3,20}")
CJK = re.compile(r"[\u4e00-\u9fff]{2,}")
GROUP = re.compile(r"### (\[\[[^\n]*?\]\])(?: \(\d{4}-\d{2}-\d{2}\))?")


class Ask:
    """One random request: a question, a note, or both, maybe for an agent, and a budget."""

    def __init__(self, query: str | None, note: str | None, budget: int,
                 agent: str | None = None) -> None:
        self.query, self.note, self.budget, self.agent = query, note, budget, agent

    def __repr__(self) -> str:
        return (f"Ask(query={self.query!r}, note={self.note!r}, agent={self.agent!r}, "
                f"budget={self.budget})")


def words_of(text: str) -> list[str]:
    """Words of ``text``: letters (3 to 20), and 2- or 3-character pieces of Chinese runs."""
    found = [word.casefold() for word in WORD.findall(text) if not CJK.fullmatch(word)]
    for run in CJK.findall(text):
        found += [run[at : at + size] for size in (2, 3) for at in range(0, len(run) - 1, size)]
    return found


def asks(vault: Vault, root: Path, seed: str) -> list[Ask]:
    """``QUERIES`` requests drawn with ``seed``: 40 words, 25 word pairs, 10 whole titles,
    10 notes alone, 5 notes with a word, and 10 notes taken as the agent (any note may be one),
    half of them with a word."""
    ids = sorted(vault.notes)
    pool = sorted({word for note_id in ids for word in
                   words_of(note_id.rsplit("/", 1)[-1] + "\n" + (root / f"{note_id}.md")
                            .read_text(encoding="utf-8", errors="replace"))})
    rng = random.Random(seed)
    budget = iter(BUDGETS * QUERIES)
    found = [Ask(rng.choice(pool), None, next(budget)) for _ in range(40)]
    found += [Ask(" ".join(rng.sample(pool, 2)), None, next(budget)) for _ in range(25)]
    found += [Ask(rng.choice(ids).rsplit("/", 1)[-1], None, next(budget)) for _ in range(10)]
    found += [Ask(None, rng.choice(ids), next(budget)) for _ in range(10)]
    found += [Ask(rng.choice(pool), rng.choice(ids), next(budget)) for _ in range(5)]
    found += [Ask(rng.choice(pool) if at % 2 else None, None, next(budget), rng.choice(ids))
              for at in range(10)]
    return found


def problems(vault: Vault, root: Path, built: Context) -> list[str]:
    """Everything raw in a context: in its items' texts and citations, and its group headings."""
    found = []
    for item in built.items:
        note = vault.notes.get(item.id)
        shown = [] if item.kind == "code" else raw_syntax(item.text)
        if note is not None and item.kind not in ("code", "pointer"):  # a pointer shows no text
            shown += shows_frontmatter(item.text, yaml_lines(frontmatter_lines(root / note.path)))
            shown += in_frontmatter(vault, root, item.id, item.section, item.lines, item.text)
        if note is not None and item.cite.startswith("[["):
            shown += [why] if (why := bad_citation(item.cite, note)) else []
        elif note is not None and item.cite not in (f"line {min(item.lines, default=0)}",
                                                   *(f"^{b.id}" for b in note.block_ids)):
            shown.append(f"citation {item.cite!r} is no line or block of it")
        if item.kind == "code" and not fenced(built.text, item.text):
            shown.append(f"code not fenced: {item.text[:60]!r}")
        found += [f"{item.id} ({item.cite}): {problem}" for problem in shown]
    for heading in GROUP.finditer(built.text):
        target = heading.group(1)[2:-2]  # a note, or a note's section: a passage's place
        note_id = target.split("#")[0]
        if note_id not in vault.notes:
            found.append(f"group {heading.group()!r} names no note")
        elif "#" in target and (why := bad_citation(f"[[{target}]]", vault.notes[note_id])):
            found.append(f"group {heading.group()!r}: {why}")
    return found


def fenced(text: str, code: str) -> bool:
    """True when ``code`` is shown in ``text`` as a fenced block of a list item."""
    body = re.escape(code.replace("\n", "\n  "))
    return bool(re.search(rf"^- (`{{3,}})\n  {body}\n  \1\n", text, re.MULTILINE))


def in_frontmatter(vault: Vault, root: Path, note_id: str, section: str, lines: list[int],
                   text: str) -> list[str]:
    """A passage from the frontmatter's lines must be the note's properties passage."""
    fenced = frontmatter_lines(root / f"{note_id}.md")
    if section != "relevant" or not fenced or not lines or min(lines) > len(fenced) + 2:
        return []
    shown = [p.text for p in passages(vault.store, [note_id]).get(note_id, [])
             if p.kind == "properties"]
    return [] if text in shown else [f"frontmatter lines {lines} shown as {text[:60]!r}"]


def search_problems(vault: Vault, query: str) -> list[str]:
    """Everything raw in the snippets and passages of a search (code passages aside)."""
    found = []
    for hit in search(vault, query, limit=5, passages=3):
        code = {start for (start,) in vault.store.query(
            "SELECT start_line FROM passages WHERE path = ? AND kind = 'code'", (hit.path,))}
        texts = [(hit.line, hit.snippet)]
        texts += [(int(p["line"]), str(p["text"])) for p in hit.passages]
        found += [f"{hit.id}: {problem}" for line, text in texts if line not in code
                  for problem in raw_syntax(text)]
    return found


@pytest.mark.skipif(not CORPORA.is_dir(), reason=NO_CORPORA)
@pytest.mark.parametrize("name", VAULTS)
def test_contexts_and_search_show_no_raw_syntax(tmp_path: Path, name: str) -> None:
    """100 random requests on a copy of a real vault: nothing raw in any context or result."""
    if not (CORPORA / name).is_dir():
        pytest.skip(f"{CORPORA / name} is not present")
    root = tmp_path / name
    shutil.copytree(CORPORA / name, root)
    vault = Vault(root)
    found: list[str] = []
    answered = 0
    for ask in asks(vault, root, name):
        built = build_context(vault, agent=ask.agent, query=ask.query, note=ask.note,
                              budget=ask.budget, today=TODAY)
        answered += bool(built.items)
        found += [f"{ask}: {problem}" for problem in problems(vault, root, built)]
        found += [f"{ask} search {p}" for p in search_problems(vault, ask.query or ask.note or "")]
    assert found == [], "\n".join(dict.fromkeys(found))
    assert answered >= QUERIES // 2  # the checks saw contexts, not empty answers


def test_the_checks_catch_raw_syntax_and_pass_what_a_passage_may_hold() -> None:
    """Each check fires on the syntax it looks for, and not on text that only resembles it."""
    raw = ["see ![[Books.base#Author]]", '<iframe src="x"></iframe>', "status:: done",
           "[due:: 2024-01-01]", "[[a#[[b]]]]", "cut [[Top Secret", "[t](My%20Note.md)",
           "[[My%20Note]]", "<div align=\"center\">", "![cover|150](http://x.com/c.png)"]
    assert [bool(raw_syntax(text)) for text in raw] == [True] * len(raw)
    fine = ["`a:: b` and `![[x]]`", "$a<b>c$ and $$x<y>z$$", "List<T> and a < b > c",
            "maze[x][d[0]][0] == True", "[[Sq]uare]] [[A|B]] [[A#B#C]]", "std::vector",
            "[web](https://x.com/a%20b)", "[t](My Note.md)", "```\n<b>x</b> k:: v\n```",
            "100% sure", "key: value"]
    assert [raw_syntax(text) for text in fine] == [[]] * len(fine)
    yaml = yaml_lines(["categories:", '- "[[Books]]"', "rating: 7", 'author: "[[Ana]]"'])
    assert yaml == {"categories:", '- "[[Books]]"', '"[[Books]]"', 'author: "[[Ana]]"'}
    assert shows_frontmatter('"[[Books]]"\nrating: 7\n---', yaml) == [
        "frontmatter '\"[[Books]]\"'", "frontmatter '---'"]
    note = Note(id="IT/CPU", path="IT/CPU.md", title="CPU",
                headings=[Heading("[[Arithmetic Logic Unit]]", 2, 3)], block_ids=[BlockId("b1", 5)])
    assert [bad_citation(cite, note) is None for cite in (
        "[[IT/CPU]]", "[[IT/CPU#Arithmetic Logic Unit]]", "[[IT/CPU#^b1]]",
        "[[IT/CPU#[[Arithmetic Logic Unit]]]]", "[[IT/CPU#^b2]]", "[[IT/CPU#ALU]]",
        "[[Other]]")] == [True, True, True, False, False, False, False]
