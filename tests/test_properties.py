"""Any input to the parser, resolver and scan: exact properties (hypothesis) and stress cases."""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import resource
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any
from urllib.parse import quote

import networkx as nx
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vaultmem.check.conflicts import find_conflicts
from vaultmem.check.linting import FILE_KINDS, lint
from vaultmem.config import Config
from vaultmem.index import parsing as parsing_module
from vaultmem.model import Note
from vaultmem.read.parse import parse_note, parse_with_body
from vaultmem.read.resolve import Resolver
from vaultmem.vault import Vault

EXAMPLES = int(os.environ.get("VAULTMEM_FUZZ_EXAMPLES", "120"))
STRESS = os.environ.get("VAULTMEM_STRESS") == "1"
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TODAY = dt.date(2026, 6, 1)
CONFIG = Config(root=Path("."))
PATH = "Notes/Some Note.md"
Check = Callable[..., None]
PROPERTIES: dict[str, tuple[Check, tuple[st.SearchStrategy[Any], ...]]] = {}


def prop(*strategies: st.SearchStrategy[Any]) -> Callable[[Check], Check]:
    """Register a property for benchmarks/fuzz.py and run it here with the FUZZ settings."""

    def register(check: Check) -> Check:
        PROPERTIES[check.__name__.removeprefix("test_")] = (check, strategies)
        return FUZZ(given(*strategies)(check))

    return register


def write(root: Path, name: str, data: str | bytes) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def lines_of(data: bytes) -> list[str]:
    """The note's lines as every parsed line number counts them (BOM dropped; \\r, \\r\\n, \\n)."""
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    return re.sub(r"\r(?!\n)", "\n", text).split("\n")


def bad_utf8_line(data: bytes) -> int | None:
    """The line of the first byte that is not UTF-8, found without the parser's decoder."""
    text = data.decode("utf-8", "surrogateescape")
    at = next((i for i, char in enumerate(text) if "\udc80" <= char <= "\udcff"), None)
    return None if at is None else len(lines_of(text[:at].encode()))


SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 éüøçñÉÜ日本"
NAME = st.text(SAFE, min_size=1, max_size=10).map(str.strip).filter(bool)
NOTE_ID = st.tuples(st.lists(NAME, max_size=2), NAME).map(lambda t: "/".join([*t[0], t[1]]))
MARKDOWN_TOKENS = (
    "[[", "]]", "![[", "[", "]", "(", ")", "|", "\\|", "#", "#tag", "^id", "`", "```", "~~~",
    "%%", "$", "$$", "<!--", "-->", "::", "key:: ", "[k:: v]", "\\", "*", "_", "> ", "- ",
    "1. ", "- [ ] ", "---", "    ", "\t", " ", "\n", "\n\n", "\r\n", "\r", "\ufeff", "é",
    "Bob", "[[Bob]]", "[[A#B|c]]", "![[p.png|300]]", "[t](B.md)", "[t](<B c.md>)", "{{date}}",
    "<<<<<<< a\n", "=======\n", ">>>>>>> b\n", "# ", "## h", "tags: [a, b]", "up: \"[[U]]\"",
    "\n---\n", " #tag ", "\n- [x] [[T]] ", "\n| a | [[T\\|x]] |\n| - | - |\n", "\n^blk\n",
)
MARKDOWN = st.tuples(
    st.sampled_from(["", "---\n", "\ufeff---\n", "---\ntags: [a, b]\nup: \"[[U]]\"\n---\n"]),
    st.lists(st.sampled_from(MARKDOWN_TOKENS) | st.text(max_size=3), max_size=50),
).map(lambda parts: parts[0] + "".join(parts[1]))
BYTES = st.one_of(
    st.binary(max_size=200), MARKDOWN.map(str.encode),
    st.tuples(MARKDOWN, st.binary(min_size=1, max_size=4), MARKDOWN).map(
        lambda t: t[0].encode() + t[1] + t[2].encode()),
)


@prop(BYTES)
def test_any_bytes_give_a_note_and_name_their_problems(data: bytes) -> None:
    note = parse_note(PATH, data, CONFIG)
    assert (note.id, note.path, note.title, note.size) == (PATH[:-3], PATH, "Some Note", len(data))
    assert {problem.path for problem in note.problems} <= {PATH}
    if b"\x00" in data:
        assert [(p.kind, p.line) for p in note.problems] == [("binary", None)]
        assert not (note.links or note.tags or note.fields or note.headings)
        return
    bad = bad_utf8_line(data)
    assert [p.line for p in note.problems if p.kind == "encoding"] == ([bad] if bad else [])


@prop(MARKDOWN)
def test_markdown_parses_the_same_twice_and_within_its_lines(text: str) -> None:
    data = text.encode()
    note, _, body_line, _ = parse_with_body(PATH, data, CONFIG)
    assert parse_note(PATH, data, CONFIG).to_dict() == note.to_dict()
    lines = lines_of(data)
    spots = [*(f.line for f in note.fields), *(h.line for h in note.headings),
             *(b.line for b in note.block_ids), *(t.line for t in note.tasks)]
    assert all(body_line < line <= len(lines) for line in spots)
    for link in note.links:
        assert (link.line <= body_line) == (link.kind == "property") and link.line <= len(lines)
        line = lines[link.line - 1]
        assert link.kind not in ("body", "field") or link.raw in line or \
            link.raw in line.replace("\\|", "|")  # table cells are read with \| unescaped
    for tag in note.tags:
        assert 1 <= tag.line <= body_line or f"#{tag.name}" in lines[tag.line - 1]
    assert all(1 <= (p.line or 1) <= len(lines) for p in note.problems)


WORD = st.text(SAFE.replace(" ", "") + ",?'\"", min_size=1, max_size=8)
SEPARATOR = st.sampled_from([" ", " ", "\n", "\n\n"])
PROSE = st.lists(st.tuples(WORD | st.sampled_from(["#", ">", "*", "1.", "#tag"]), SEPARATOR),
                 max_size=12).map(lambda pairs: "".join(w + s for w, s in pairs))


@prop(PROSE, st.booleans(), NAME, st.none() | NAME, st.none() | NAME | st.from_regex(
    r"\d{1,4}(x\d{1,4})?", fullmatch=True), PROSE)
def test_a_wikilink_in_prose_is_found_whole(before: str, embed: bool, target: str,
                                           heading: str | None, alias: str | None,
                                           after: str) -> None:
    raw = f"{'!' if embed else ''}[[{target}{f'#{heading}' if heading else ''}" \
          f"{f'|{alias}' if alias is not None else ''}]]"
    note = parse_note(PATH, (before + raw + " " + after).encode(), CONFIG)
    size = alias if embed and alias and re.fullmatch(r"\d+(x\d+)?", alias) else None
    assert [(k.raw, k.target, k.subpath, k.alias, k.size, k.embed, k.line)
            for k in note.links] == [(raw, target, f"#{heading}" if heading else "",
                                      None if size else alias, size, embed,
                                      before.count("\n") + 1)]


HIDDEN = (
    "\n```\n{}\n```\n", "\n~~~md\n{}\n~~~\n", "\n\n    {}\n\n", " x `{}` ", " x `` {} `` ",
    " x %%{}%% ", "\n%%\n{}\n%%\n", " x <!-- {} --> ", "\n<!--\n{}\n-->\n", " x $${}$$ ",
    " x ${}$ ", "\n$$\n{}\n$$\n", " x \\[\\[Hidden\\]\\] ",
)
UNCLOSED = ("\n```\n{}", "\n~~~\n{}", "\n%%\n{}", "\n$$\n{}", "\n<!--\n{}", " x %%{}")
REAL = st.lists(st.tuples(WORD | st.just("[[Real]]"), SEPARATOR), max_size=10).map(
    lambda pairs: "".join(w + s for w, s in pairs))


@prop(REAL, st.sampled_from(HIDDEN) | st.sampled_from(UNCLOSED), REAL)
def test_links_in_code_comments_and_math_are_never_reported(before: str, hidden: str,
                                                            after: str) -> None:
    after = "" if hidden in UNCLOSED else after  # an unclosed block hides the rest of the note
    text = before + hidden.format("[[Hidden]] #hidden key:: [[Hidden]]") + after
    note = parse_note(PATH, text.encode(), CONFIG)
    assert [link.target for link in note.links] == ["Real"] * text.count("[[Real]]")
    assert "hidden" not in note.tag_names() and note.fields == []


def json_ready(value: Any) -> Any:
    """What YAML data is expected to become in ``Note.frontmatter``."""
    if isinstance(value, dict):
        return {str(key): json_ready(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_ready(item) for item in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return str(value) if isinstance(value, float) and not math.isfinite(value) else value


def is_link(value: Any) -> bool:
    """A property value that is exactly one wikilink."""
    inner = value.strip()[2:-2] if isinstance(value, str) else ""
    return bool(inner) and value.strip()[:2] + value.strip()[-2:] == "[[]]" and "]]" not in inner


def scalars(value: Any) -> list[str]:
    """The text forms of the scalars a tags/aliases value holds (nested ones do not count)."""
    items = value if isinstance(value, list) else [value]
    return [str(item) for item in items if isinstance(item, str | int | float)]


YAML_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\r\x85\u2028\u2029"),
                    max_size=8)  # PyYAML does not read these line breaks back as it wrote them
YAML_SCALAR = (st.none() | st.booleans() | st.integers() | st.floats() | YAML_TEXT
               | st.dates() | st.datetimes() | NAME.map(lambda name: f"[[{name}]]")
               | st.sampled_from(["fact", "decision", "approved", "2026-01-01", 10**400]))
YAML_VALUE = st.recursive(YAML_SCALAR, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(YAML_TEXT, inner, max_size=3), max_leaves=8)
YAML_KEY = st.sampled_from(["tags", "tag", "aliases", "alias", "supersedes", "up", "type",
                            "status", "date", "entity", "attribute", "value", "confidence",
                            "valid_until", "topic"]) | YAML_TEXT.filter(bool)


@prop(st.dictionaries(YAML_KEY, YAML_VALUE, max_size=6))
def test_frontmatter_of_any_shape_is_read_exactly(data: dict[str, Any]) -> None:
    text = "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False) + \
        "---\nsee [[Body]]\n"
    note, _, body_line, _ = parse_with_body(PATH, text.encode(), CONFIG)
    assert [p.kind for p in note.problems if p.kind != "placeholder"] == []
    assert note.frontmatter == json_ready(data)
    assert [(k.target, k.line) for k in note.links if k.kind == "body"] == [("Body", body_line + 1)]
    expected = [(key, re.split(r"[|#]", item.strip()[2:-2])[0].strip())
                for key, value in data.items()
                for item in (value if isinstance(value, list) else [value]) if is_link(item)]
    assert [(k.key, k.target) for k in note.links if k.kind == "property"] == expected
    tags = next((note.frontmatter[k] for k in ("tags", "tag") if note.frontmatter.get(k) is not
                 None), None)
    written = " ".join(scalars(tags))
    assert all(tag.name in written and tag.name.split() == [tag.name.lstrip("#")] and 1 < tag.line <
               body_line for tag in note.tags)
    aliases = next((note.frontmatter[k] for k in ("aliases", "alias") if note.frontmatter.get(k)
                    is not None), None)
    forms = {part.strip() for text in scalars(aliases) for part in [text, *text.split(",")]}
    assert all(alias in forms and alias == alias.strip() != "" for alias in note.aliases)


YAML_TOKENS = (
    ":", ": ", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "!!binary ", "!!set ",
    "? ", "|", ">", "'", '"', "#", "\n", "  ", "\t", "key", "tags", "aliases", "[[X]]", "1",
    "-1e999", "0x1F", "~", "null", "2026-01-01", "%YAML 1.2\n", "<<: ", "9" * 30, "{{x}}",
)
RAW_YAML = st.lists(st.sampled_from(YAML_TOKENS) | st.text(max_size=3), max_size=40).map(
    "".join).filter(lambda y: "-" * 3 not in y and "\r" not in y and "\x00" not in y)


@prop(RAW_YAML)
def test_broken_frontmatter_is_one_problem_and_keeps_the_body(source: str) -> None:
    text = f"---\n{source}\n---\nsee [[Body]]\n"
    note = parse_note(PATH, text.encode(), CONFIG)
    closing = source.count("\n") + 3
    assert [(k.target, k.line) for k in note.links if k.kind == "body"] == [("Body", closing + 1)]
    broken = [p.line for p in note.problems if p.kind == "frontmatter"]
    assert len(broken) <= 1 and all(line is not None and 2 <= line <= closing for line in broken)
    assert not broken or (note.frontmatter, note.tags, note.aliases) == ({}, [], [])


def spell(text: str, flips: list[bool]) -> str:
    """``text`` with the case of some letters changed."""
    return "".join(c.swapcase() if flip else c for c, flip in zip(text, flips + [False] * 99,
                                                                strict=False))


@prop(st.lists(NOTE_ID, min_size=1, max_size=8, unique_by=str.casefold), st.data())
def test_resolver_finds_every_note_by_any_spelling(ids: list[str], data: st.DataObject) -> None:
    stored = [unicodedata.normalize("NFD", i) if data.draw(st.booleans()) else i for i in ids]
    resolver = Resolver(stored, [])
    for note_id, name in zip(ids, stored, strict=True):
        source = data.draw(st.sampled_from(["", *stored]))
        flips = data.draw(st.lists(st.booleans(), max_size=30))
        suffix = data.draw(st.sampled_from(["", ".md", ".MD"]))
        lead = data.draw(st.sampled_from(["", "/"]))
        base = note_id.rsplit("/", 1)[-1]
        same = [i for i in ids if i.rsplit("/", 1)[-1].casefold() == base.casefold()]
        assert resolver.resolve(lead + spell(note_id, flips) + suffix, source) == (
            name, "/" not in note_id and len(same) > 1)
        found = resolver.resolve(spell(base, flips) + suffix, source)
        assert found[0] in [stored[ids.index(i)] for i in same] and found[1] == (len(same) > 1)
    unknown = data.draw(NAME.filter(lambda n: n.casefold() not in {
        part.casefold() for i in ids for part in i.split("/")}))
    assert resolver.resolve(unknown, "") == (None, False)
    assert resolver.resolve("", stored[0]) == (stored[0], False)


CONTENT = st.one_of(
    BYTES, st.dictionaries(YAML_KEY, YAML_VALUE, max_size=4).map(
        lambda d: ("---\n" + yaml.safe_dump(d, allow_unicode=True) + "---\n").encode()),
    st.sampled_from([b"\x00" * 50, b"see [[A]]\n\xff\xfe", b"---\ntags: [\n---\n[[A]]"]),
)


def unresolved(note: Note) -> dict[str, Any]:
    """The note as parsed, before its links were resolved."""
    data = note.to_dict()
    data["links"] = [link | {"resolved": None, "ambiguous": False} for link in data["links"]]
    return data


def check_lint_names_every_problem(vault: Vault) -> None:
    """Every problem of the index is a lint finding naming its note and path."""
    findings = {(f.kind, f.notes[0], f.line, f.message) for f in lint(vault, orphans=False)
                if f.kind in FILE_KINDS}
    expected = {(p.kind, p.path.removesuffix(".md"), p.line,
                 f"{p.path}{'' if p.line is None else f':{p.line}'}: {p.message}")
                for p in vault.index.problems}
    assert findings == expected


@prop(st.lists(st.tuples(NOTE_ID, CONTENT), min_size=1, max_size=5,
               unique_by=lambda pair: pair[0].casefold()))
def test_a_vault_of_random_notes_scans_and_reports_each_bad_one(
        files: list[tuple[str, bytes]]) -> None:
    with TemporaryDirectory() as folder:
        root = Path(folder)
        for note_id, data in files:
            write(root, f"{note_id}.md", data)
        before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
        vault = Vault(root, use_cache=False)
        assert sorted(vault.notes) == sorted(note_id for note_id, _ in files)
        for note_id, data in files:
            alone = parse_note(f"{note_id}.md", data, vault.config)
            assert unresolved(vault.notes[note_id]) == unresolved(alone)
            assert vault.graph.nodes[note_id]["path"] == f"{note_id}.md"
        check_lint_names_every_problem(vault)
        assert all(isinstance(f.id, str) for f in find_conflicts(vault, today=TODAY))
        assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def decision(status: str, olders: list[str]) -> str:
    links = "".join(f'\n  - "[[{older}]]"' for older in olders)
    return f"---\ntype: decision\nstatus: {status}\ntopic: storage\nsupersedes:{links or ' []'}" \
           "\n---\n"


def open_decisions(graph: nx.DiGraph, approved: list[str]) -> list[str]:
    """Approved decisions that no other approved one supersedes, directly or not."""
    return [d for d in approved
            if not any(o != d and nx.has_path(graph, o, d) for o in approved)]


SUPERSEDES = st.integers(2, 5).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["approved", "superseded"]), min_size=n, max_size=n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
        lambda e: e[0] != e[1]), max_size=2 * n, unique=True)))


@prop(SUPERSEDES)
def test_supersedes_chains_of_any_shape_end(case: tuple[list[str], list[tuple[int, int]]]
                                            ) -> None:
    statuses, edges = case
    names = [f"D{i}" for i in range(len(statuses))]
    graph = nx.DiGraph([(names[a], names[b]) for a, b in edges])
    graph.add_nodes_from(names)
    with TemporaryDirectory() as folder:
        for i, name in enumerate(names):
            write(Path(folder), f"Decisions/{name}.md",
                  decision(statuses[i], [names[b] for a, b in edges if a == i]))
        found = find_conflicts(Vault(folder, use_cache=False), today=TODAY)
    stale = sorted((f.winner, f.sources[1]) for f in found if f.kind == "superseded-active")
    assert stale == sorted((f"Decisions/{names[a]}", f"[[Decisions/{names[b]}]]")
                           for a, b in edges if statuses[b] == "approved"
                           and not nx.has_path(graph, names[b], names[a]))
    approved = [name for name, status in zip(names, statuses, strict=True) if status == "approved"]
    competing = open_decisions(graph, approved)
    rings = [sorted(set(ring) & set(approved)) for ring in nx.strongly_connected_components(graph)
             if len(ring) > 1]
    expected = [ring for ring in rings if len(ring) > 1]
    expected += [competing] if len(competing) > 1 else []
    assert [f.notes for f in found if f.kind == "decision-conflict"] == sorted(
        [f"Decisions/{name}" for name in group] for group in expected)


SELF_LINKS = ("[[#Top]]", "[[{name}]]", "[[{name}.md]]", "[[{lower}]]", "[[Folder/{name}]]",
              "![[{name}#^blk]]", "[[#^blk|x]]", "[x]({quoted}.md)", "[[{name}#Top]]")


@prop(NAME.filter(lambda n: n.casefold() != "other"), st.lists(st.sampled_from(SELF_LINKS),
                                                               max_size=6), st.booleans())
def test_self_links_are_counted_never_edges(name: str, forms: list[str], other: bool) -> None:
    body = "\n".join(f.format(name=name, lower=name.lower(), quoted=quote(name)) for f in forms)
    with TemporaryDirectory() as folder:
        write(Path(folder), f"Folder/{name}.md", f"# Top\ntext ^blk\n{body}\n"
              + ("[[Other]]\n" if other else ""))
        write(Path(folder), "Other.md", "x\n")
        vault = Vault(folder, use_cache=False)
        graph, note_id = vault.graph, f"Folder/{name}"
        assert graph.nodes[note_id]["self_links"] == len(forms)
        assert not graph.has_edge(note_id, note_id)
        assert sorted((f.kind, f.notes[0]) for f in lint(vault, least=0.0)) == (
            [] if other else sorted([("orphan", "Other"), ("orphan", note_id)]))


def test_ten_thousand_links_in_one_note(tmp_path: Path) -> None:
    rows = [f"- row {i}: see [[T{i % 100}|alias {i}]]" if i % 2 else f"owner:: ![[T{i % 100}]]"
            for i in range(10_000)]
    write(tmp_path, "Many.md", "\n".join(rows) + "\n")
    for target in range(100):
        write(tmp_path, f"Targets/T{target}.md", "x\n")
    vault = Vault(tmp_path, use_cache=False)
    links = vault.notes["Many"].links
    assert [(k.target, k.line, k.kind) for k in links] == [
        (f"T{i % 100}", i + 1, "body" if i % 2 else "field") for i in range(10_000)]
    assert {k.resolved for k in links} == {f"Targets/T{t}" for t in range(100)}
    edge = vault.graph.edges["Many", "Targets/T7"]
    assert (edge["count"], edge["lines"][:2], edge["kinds"]) == (100, [8, 108], ["body"])


DEEP = {
    "quotes": ">" * 5000 + " [[In]]",
    "spaced quotes": "> " * 5000 + "[[In]]",
    "list on one line": "- " * 5000 + "[[In]]",
    "lists and quotes": "- > " * 2500 + "[[In]]",
    "indented lists": "".join("  " * i + "- x\n" for i in range(500)) + "  " * 500 + "- [[In]]",
    "brackets": "[" * 5000 + " [[In]] " + "]" * 5000,
    "parentheses": "(" * 5000 + "[[In]]" + ")" * 5000,
    "embeds": "![[" * 5000 + "\n\n[[In]]",
}


def test_deep_nesting_keeps_every_link(tmp_path: Path) -> None:
    for name, text in DEEP.items():
        write(tmp_path, f"{name}.md", text + "\n\n[[After]]\n")
    vault = Vault(tmp_path, use_cache=False)
    for name, text in DEEP.items():
        last = text.count("\n") + 1
        assert [(k.target, k.line) for k in vault.notes[name].links] == [
            ("In", last), ("After", last + 2)], name


def test_deep_frontmatter_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    write(tmp_path, "Flow.md", "---\nx: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n---\n[[A]]\n")
    write(tmp_path, "Block.md", "---\n" + "".join(" " * i + f"k{i}:\n" for i in range(2000))
          + "---\n[[A]]\n")
    vault = Vault(tmp_path, use_cache=False)
    assert [(p.path, p.kind, p.line) for p in vault.index.problems] == [
        ("Block.md", "frontmatter", 2), ("Flow.md", "frontmatter", 2)]
    assert [k.line for k in vault.notes["Block"].links] == [2003]


PATHOLOGICAL = ("![", "[x](![", "[k:: $", "#t $", "$^b ", "[\n", "![[", "[^", "#1 ", "]x",
                "``x` ", "`` `", "[ ] ")


def test_pathological_lines_parse_in_linear_time(tmp_path: Path) -> None:
    for number, unit in enumerate(PATHOLOGICAL):
        write(tmp_path, f"P{number}.md", unit * (20_000 // len(unit)) + "\n\n[[After]]\n")
    vault = Vault(tmp_path, use_cache=False)
    assert all(vault.notes[f"P{n}"].links[-1].target == "After" for n in range(len(PATHOLOGICAL)))
    # four times the text costs about four times the CPU (quadratic would be sixteen)
    assert _parse_cost(32_000) < 9 * _parse_cost(8_000)


def _parse_cost(size: int) -> float:
    """CPU seconds to parse every pathological line of ``size`` characters (best of two)."""
    notes = [(unit * (size // len(unit)) + "\n[[After]]\n").encode() for unit in PATHOLOGICAL]
    costs = []
    for _ in range(2):
        started = time.process_time()
        for data in notes:
            parse_note("P.md", data, Config(Path(".")))
        costs.append(time.process_time() - started)
    return min(costs)


@pytest.mark.skipif(not STRESS, reason="writes and scans a 100 MB note; set VAULTMEM_STRESS=1")
def test_hundred_megabyte_note_is_refused_with_its_path(tmp_path: Path) -> None:
    block = b"word [[Good]] #tag " * 55_189 + b"\n"
    with open(tmp_path / "Huge.md", "wb") as handle:
        for _ in range(100):
            handle.write(block)
    size = (tmp_path / "Huge.md").stat().st_size
    write(tmp_path, "Good.md", "see [[Huge]]\n")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    vault = Vault(tmp_path, use_cache=False)
    problems = [(p.path, p.kind, p.message) for p in vault.index.problems]
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) * 1024
    assert problems == [("Huge.md", "too-large", f"{size} bytes is over the 8388608-byte limit;"
                         " split the note")]
    assert vault.notes["Huge"].links == [] and vault.notes["Good"].links[0].resolved == "Huge"
    assert grown < 4 * 8388608  # read only up to the limit, never the whole file


def test_notes_of_nul_bytes_are_reported_and_the_rest_loads(tmp_path: Path) -> None:
    write(tmp_path, "Nul.md", b"\x00" * 1_000_000)
    write(tmp_path, "Mixed.md", b"see [[Good]]\n\x00\n[[Good]]\n")
    write(tmp_path, "Good.md", "see [[Nul]] and [[Mixed]]\n")
    vault = Vault(tmp_path, use_cache=False)
    assert [(f.kind, f.notes, f.message) for f in lint(vault)] == [
        ("binary", ["Mixed"], "Mixed.md: binary data in a .md file; not indexed"),
        ("binary", ["Nul"], "Nul.md: binary data in a .md file; not indexed")]
    assert vault.notes["Nul"].links == vault.notes["Mixed"].links == []
    assert sorted(vault.graph.successors("Good")) == ["Mixed", "Nul"]


def test_invalid_utf8_in_frontmatter_and_in_body(tmp_path: Path) -> None:
    write(tmp_path, "Head.md", b'---\ntags: [caf\xe9, ok]\nup: "[[Good]]"\n---\nsee [[Good]]\n')
    write(tmp_path, "Body.md", b"---\ntags: [a]\n---\nline\r\xff\xfe [[Good]] #t\n")
    write(tmp_path, "Good.md", "x\n")
    vault = Vault(tmp_path, use_cache=False)
    assert [(p.path, p.kind, p.line) for p in vault.index.problems] == [
        ("Body.md", "encoding", 5), ("Head.md", "encoding", 2)]
    head, body = vault.notes["Head"], vault.notes["Body"]
    assert (head.tag_names(), [(k.kind, k.resolved, k.line) for k in head.links]) == (
        ["caf\ufffd", "ok"], [("property", "Good", 3), ("body", "Good", 5)])
    assert (body.tag_names(), [(k.resolved, k.line) for k in body.links]) == (
        ["a", "t"], [("Good", 5)])


def test_file_names_that_are_not_utf8_are_reported_not_fatal(tmp_path: Path) -> None:
    os.makedirs(os.path.join(os.fsencode(tmp_path), b"Bad\xff"))
    write(tmp_path, os.fsdecode(b"Bad\xff/In.md"), "x\n")
    write(tmp_path, os.fsdecode(b"caf\xe9.md"), "[[Good]]\n")
    write(tmp_path, "Good.md", "x\n")
    vault = Vault(tmp_path)
    assert list(vault.notes) == ["Good"]
    assert [(f.kind, f.message) for f in lint(vault, orphans=False)] == [
        ("encoding", "Bad\ufffd: file name is not valid UTF-8; rename it"),
        ("encoding", "caf\ufffd.md: file name is not valid UTF-8; rename it")]


def test_cyclic_supersedes_end_and_name_both_sides(tmp_path: Path) -> None:
    write(tmp_path, "Decisions/A.md", decision("approved", ["B"]))
    write(tmp_path, "Decisions/B.md", decision("approved", ["A"]))
    write(tmp_path, "Decisions/C.md", decision("approved", []))
    found = find_conflicts(Vault(tmp_path, use_cache=False), today=TODAY,
                           kinds=("decision-conflict", "superseded-active"))
    assert [(f.kind, f.notes, f.winner, f.rule) for f in found] == [
        ("decision-conflict", ["Decisions/A", "Decisions/B"], None, "ask the user")]
    assert found[0].message == ("supersede each other: [[Decisions/A]], [[Decisions/B]] (at most "
                                "one of them can hold)")


def test_self_supersede_is_a_self_link_not_a_conflict(tmp_path: Path) -> None:
    write(tmp_path, "Decisions/A.md", decision("approved", ["A"]))
    vault = Vault(tmp_path, use_cache=False)
    assert vault.graph.nodes["Decisions/A"]["self_links"] == 1
    assert find_conflicts(vault, today=TODAY) == []


def test_a_confidence_too_big_for_a_float_is_no_confidence(tmp_path: Path) -> None:
    write(tmp_path, "Fact.md", "---\ntype: fact\nentity: \"[[Good]]\"\nattribute: tz\nvalue: UTC"
          f"\nconfidence: 1{'0' * 400}\n---\n")
    write(tmp_path, "Good.md", "see [[Fact]]\n")
    vault = Vault(tmp_path, use_cache=False)
    assert vault.index.problems == []
    assert dict(vault.facts)["Fact"].facts == [("tz", "UTC", 5, "fact-note", "Good", "", "", None,
                                                 "")]


def test_a_note_that_breaks_indexing_costs_one_note(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "Fact.md", "---\ntype: fact\nentity: \"[[Good]]\"\n---\n")
    write(tmp_path, "Good.md", "see [[Fact]]\n")
    real = parsing_module.meta_of

    def breaks(note: Any, body: str = "", text: str = "") -> Any:
        if note.id == "Fact":
            raise OverflowError("int too large to convert to float")
        return real(note, body, text)

    monkeypatch.setattr(parsing_module, "meta_of", breaks)
    vault = Vault(tmp_path, use_cache=False)
    assert [(p.path, p.kind) for p in vault.index.problems] == [("Fact.md", "parse-error")]
    assert "OverflowError" in vault.index.problems[0].message
    assert vault.notes["Good"].links[0].resolved == "Fact"


STRESS_CASES: tuple[Callable[[Path], None], ...] = (
    test_ten_thousand_links_in_one_note, test_deep_nesting_keeps_every_link,
    test_deep_frontmatter_is_a_problem_not_a_crash, test_pathological_lines_parse_in_linear_time,
    test_notes_of_nul_bytes_are_reported_and_the_rest_loads,
    test_invalid_utf8_in_frontmatter_and_in_body,
    test_file_names_that_are_not_utf8_are_reported_not_fatal,
    test_cyclic_supersedes_end_and_name_both_sides,
    test_a_confidence_too_big_for_a_float_is_no_confidence,
    test_hundred_megabyte_note_is_refused_with_its_path,
)
