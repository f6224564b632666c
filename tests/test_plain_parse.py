"""The plain path (:mod:`vaultmem.read.plain_blocks`, :mod:`vaultmem.read.plain_inline`) gives
exactly the tokens markdown-it gives with vaultmem's rules, so the links, headings, tags,
fields, block ids and passages read from them are the same, on every note of the shared real
vaults, of a generated vault and of random documents made of awkward lines."""

from __future__ import annotations

import random
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from markdown_it.token import Token

from vaultmem.config import load_config
from vaultmem.read import parse
from vaultmem.read.note_passages import note_passages
from vaultmem.read.plain_blocks import body_tokens, plain_tokens
from vaultmem.read.plain_inline import plain_children
from vaultmem.read.syntax import TRIGGERS, fill_inline, make_parser

from .conftest import NO_CORPORA, ROOT, SAMPLE

sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_vault import generate

CORPORA = ROOT.parent / "shared" / "corpora"
VAULTS = sorted(p.name for p in CORPORA.iterdir() if p.is_dir()) if CORPORA.is_dir() else []
REFERENCE = make_parser(plain=False)
PIECES = ["text", "[[A]]", "[[A#h|b c]]", "![[img.png|300]]", "![[Note#^b1]]", "#tag", "#1984",
          "x#y", "#tag/sub", "#-", "^id1", " ^blk", "^", "[ ]", "[x]", "[!note]", "[a](b.md)",
          "[a]", "[a][b]", "![alt](i.png)", "![alt]", "[^1]", "`code`", "``a`b``", "`", "```",
          "key:: value", "[k:: v]", "(k:: v)", "(k:: [[A]])", "**b**", "_i_", "~~s~~", "==h==",
          "<b>", "<!-- c -->", "%%c%%", "$x$", "\\[", "(", ")", "]", "[", "!", "::", "a  ",
          "\t", "\u3000", "\x85", "[[", "]]", "[[a]b]]", "[[<% x %>]]", "[[]]", "[[a\n]]", "é",
          "\\", "\\#x", "\\\n", "a\\", "\\é", "\\]", "[a\\]", "`a\\`", "[[a\\|b]]"]
STARTS = ["", "", "", "# ", "## ", "####### ", "#", "- ", "* ", "+ ", "1. ", "2) ", "10. ",
          "> ", ">", "> - ", "  ", "    ", "\t", "- [ ] ", "-", "---", "***", "- - -", "===",
          "```", "```py", "\t```", "~~~", "$$", "%%", "<!--", "| a | b |", "|---|---|", ":--",
          "[x]: /u", "[^1]: n", "- ", "-  ", "1. ", "> [!tip] ", "==", "___", "+", "*", "[[A]] ",
          "  - ", "  - ", "\t- ", "\t- ", "\t\t- ", "    - ", "   - ", " - ", "  1. ", "   1. ",
          "  2) ", "  * ", " \t- ", "\t", "  # ", "  > "]


def _dicts(tokens: list[Token]) -> list[MutableMapping[str, Any]]:
    """Tokens as plain data, every attribute and child included."""
    return [token.as_dict() for token in tokens]


def _same_as_markdown_it(body: str) -> bool:
    """Assert both paths read ``body`` as markdown-it does; True when the plain blocks took it."""
    want = _dicts(REFERENCE.parse(body))
    assert _dicts(body_tokens(body)) == want, body
    plain = plain_tokens(body)
    if plain is not None:
        assert _dicts(plain) == want, body
    return plain is not None


def _bodies(root: Path) -> list[str]:
    """The body of every note under ``root`` as the parse gives it to the tokenizer."""
    config = load_config(root)
    return [parse.parse_with_body(path.relative_to(root).as_posix(), path.read_bytes(),
                                  config).body for path in sorted(root.rglob("*.md"))]


@pytest.mark.skipif(not VAULTS, reason=NO_CORPORA)
@pytest.mark.parametrize("name", VAULTS)
def test_every_note_of_a_shared_vault_reads_as_markdown_it_reads_it(name: str) -> None:
    bodies = _bodies(CORPORA / name)
    taken = sum(_same_as_markdown_it(body) for body in bodies)
    assert bodies and taken >= 1


def test_every_note_of_a_generated_vault_reads_as_markdown_it_reads_it(tmp_path: Path) -> None:
    generate(300, tmp_path / "vault", seed=11)
    bodies = _bodies(tmp_path / "vault")
    taken = sum(_same_as_markdown_it(body) for body in bodies)
    assert taken >= len(bodies) // 2  # most generated notes need no full parse


def _random_document(rng: random.Random) -> str:
    """Lines of awkward starts and pieces, blank lines between some, line ends of any kind."""
    lines = []
    for _ in range(rng.randint(1, 10)):
        pieces = rng.choices(PIECES, k=rng.randint(0, 5))
        lines.append(rng.choice(STARTS) + " ".join(pieces) if pieces or rng.random() < 0.5
                     else rng.choice(["", " ", "\t"]))
    end = rng.choice(["\n", "\r\n", "\n"])
    return end.join(lines) + rng.choice(["", "\n", "\n\n", "\n  "])


def test_random_documents_read_as_markdown_it_reads_them() -> None:
    rng = random.Random(5)
    taken = sum(_same_as_markdown_it(_random_document(rng)) for _ in range(4000))
    assert taken >= 400  # enough of them take the plain path for the comparison to mean much


def _random_outline(rng: random.Random) -> str:
    """Nested list items indented by one unit (spaces or a tab) a level, with blank lines,
    paragraphs, headings, quotes, fences and rules between some."""
    unit, depth, lines = rng.choice(["  ", "\t", "   ", "    "]), 0, []
    for _ in range(rng.randint(1, 12)):
        depth = max(0, min(depth + rng.choice([-1, 0, 0, 1]), 3))
        if rng.random() < 0.15:
            lines.append(rng.choice(["", "", "text", "# h", "> q", "```", "---"]))
            depth = 0
            continue
        lines.append(unit * depth + rng.choice(["- ", "- ", "* ", "1. ", "2. ", "1) "]) +
                     rng.choice(["a", "b [[X]]", "#t", "c ^id", "[ ] task", "# h", "> q"]))
    return "\n".join(lines) + "\n"


def test_random_outlines_read_as_markdown_it_reads_them() -> None:
    rng = random.Random(3)
    taken = sum(_same_as_markdown_it(_random_outline(rng)) for _ in range(3000))
    assert taken >= 300  # about one in eight is a nested list the plain path reads


def _random_quote(rng: random.Random) -> str:
    """A random document or outline with a run of its lines quoted (``>``, ``> >``, callouts)."""
    lines = (_random_outline if rng.random() < 0.5 else _random_document)(rng).split("\n")
    start = rng.randrange(len(lines))
    end = rng.randrange(start, len(lines) + 1)
    prefix = rng.choice(["> ", ">", "> > ", ">> ", "> [!note] x\n> "])
    for at in range(start, end):
        lines[at] = rng.choice([prefix, prefix, ">", "> "]) + lines[at]
    return "\n".join(lines)


def test_random_quotes_read_as_markdown_it_reads_them() -> None:
    rng = random.Random(4)
    taken = sum(_same_as_markdown_it(_random_quote(rng)) for _ in range(3000))
    assert taken >= 250


def test_random_inline_text_reads_as_markdown_it_reads_it() -> None:
    rng = random.Random(9)
    read = 0
    for _ in range(6000):
        content = "".join(rng.choices([*PIECES, " ", "\n", "a"], k=rng.randint(1, 9))).strip()
        if not any(trigger in content for trigger in TRIGGERS):
            continue  # never read: markdown-it's inline rules do not run on it either
        want = fill_inline([Token("inline", "", 0, content=content)], REFERENCE, {}, plain=False)
        got = plain_children(content)
        if got is not None:
            read += 1
            assert _dicts(got) == _dicts(want[0].children or []), content
    assert read >= 1500


@pytest.mark.parametrize("body", [
    "- a\n  more of a", "- a\n\n  - after a blank", "- a\n \t- mixed indent", "- a\nlazy line",
    "a | b\n--- | ---", "    code",
    "> a\nlazy", "> -\ta tab after the quote", "> a\n> >\n\nb", "```\nnever closed", "# C#",
    "[ref]: /url\n\n[ref]", "text\n2. not a list",
    "".join("  " * depth + "- x\n" for depth in range(30)),
    "> " * 30 + "deep",
])
def test_what_only_markdown_it_reads_is_handed_to_it(body: str) -> None:
    assert plain_tokens(body) is None
    assert _same_as_markdown_it(body) is False


@pytest.mark.parametrize("body", [
    "%%\nhidden [[A]]\n%%\nafter", "$$\nx\n$$ ^eq1", "<!-- a\nb -->", "```py\n[[A]]\n```",
    "> [!note] Title\n> text [[A]]\n>\n> more", "Title\n===\n\nx", "a\n\n---\n\n***",
    "- a\n- b\n\n1. c\n2) d", "# H\ntext\n- [ ] task ^t1", "- a\n  - nested\n    1. deeper\n- b",
    "- a\n\t- nested by a tab\n\n- b", "> [!note] T\n> - a\n>   - b\n>\n> > deeper [[A]]",
])
def test_the_plain_path_reads_these_as_markdown_it_does(body: str) -> None:
    assert _same_as_markdown_it(body) is True


def test_a_link_text_or_math_in_a_block_hands_the_block_on() -> None:
    assert plain_children("see [the docs](https://x.org) and [[A]]") is None
    assert plain_children("$a$ and [[A]]") is None
    assert [(t.type, t.content) for t in plain_children("\\#no tag") or []] == \
        [("text_special", "#"), ("text", "no tag")]
    assert plain_children("[ref] [[A]]", links_defined=True) is None
    assert [t.type for t in plain_children("- [ ] call [[Ana]] `[[code]]` #x") or []] == \
        ["text", "wikilink", "text", "code_inline", "text", "tag"]


def test_a_note_read_either_way_is_the_same_note(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(SAMPLE)
    paths = sorted(SAMPLE.rglob("*.md"))
    plain = [parse.parse_with_body(p.relative_to(SAMPLE).as_posix(), p.read_bytes(), config)
             for p in paths]
    monkeypatch.setattr(parse, "body_tokens", REFERENCE.parse)
    for parsed, path in zip(plain, paths, strict=True):
        reference = parse.parse_with_body(path.relative_to(SAMPLE).as_posix(), path.read_bytes(),
                                          config)
        assert parsed.note == reference.note
        assert note_passages(parsed) == note_passages(reference)
