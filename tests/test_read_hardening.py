"""Bad and odd input found in review: each is a problem for one note, never a crash or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from vaultmem.errors import ConfigError
from vaultmem.vault import Vault

from .test_cli import run


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def alias_bomb(levels: int) -> str:
    rows = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    rows += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "---\n" + "\n".join(rows) + "\n---\n[[Good]]\n"


@pytest.mark.parametrize("frontmatter", [
    "n: " + "9" * 5000, "x: &a [*a]", "deep: " + "[" * 60 + "]" * 60,
])
def test_unreadable_frontmatter_is_a_problem(tmp_path: Path, frontmatter: str) -> None:
    write(tmp_path, "Odd.md", f"---\n{frontmatter}\n---\nsee [[Good]]\n")
    write(tmp_path, "Good.md", "fine\n")
    vault = Vault(tmp_path, use_cache=False)
    assert [(p.kind, p.line) for p in vault.index.problems] == [("frontmatter", 2)]
    assert [link.resolved for link in vault.notes["Odd"].links] == ["Good"]


def test_yaml_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    write(tmp_path, "Bomb.md", alias_bomb(10))
    vault = Vault(tmp_path, use_cache=False)
    assert "too many YAML aliases" in vault.index.problems[0].message
    assert vault.notes["Bomb"].links[0].target == "Good"


def test_nan_is_valid_json(tmp_path: Path) -> None:
    write(tmp_path, "A.md", "---\nscore: .nan\nlimit: .inf\n---\n")
    code, out, _ = run(tmp_path, "show", "A", "--json")
    assert code == 0 and json.loads(out)["frontmatter"] == {"score": "nan", "limit": "inf"}


def test_bad_ignore_regex_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, ".obsidian/app.json", '{"userIgnoreFilters": ["/[unclosed/"]}')
    with pytest.raises(ConfigError, match="not a valid regular expression"):
        _ = Vault(tmp_path).index
    assert run(tmp_path, "scan")[0] == 2


def test_links_to_generated_notes_are_not_ambiguous(tmp_path: Path) -> None:
    write(tmp_path, "A.md", "[[Context]]\n")
    write(tmp_path, "_vaultmem/Context.md", "---\ngenerated_by: vaultmem\n---\nx\n")
    link = Vault(tmp_path, use_cache=False).notes["A"].links[0]
    assert (link.resolved, link.ambiguous) == ("_vaultmem/Context", False)


def test_deeply_nested_lists_and_quotes_keep_their_links(tmp_path: Path) -> None:
    nested = "".join("  " * level + "- item\n" for level in range(12)) + "  " * 12 + "- [[Deep]]\n"
    write(tmp_path, "Lists.md", nested)
    write(tmp_path, "Quotes.md", ">" * 30 + " [[Deep]]\n")
    vault = Vault(tmp_path, use_cache=False)
    assert [link.line for link in vault.notes["Lists"].links] == [13]
    assert [link.target for link in vault.notes["Quotes"].links] == ["Deep"]


def test_big_blocks_stay_linear(tmp_path: Path) -> None:
    write(tmp_path, "Links.md", " ".join(f"[[L{i}]]" for i in range(10_000)) + "\n")
    write(tmp_path, "Dollars.md", "".join(f"pay $5 now #t{i}\n" for i in range(5_000)))
    write(tmp_path, "Opens.md", "[[ unclosed\n" * 5_000)
    write(tmp_path, "Fields.md", "[k:: " * 5_000 + "\n")
    vault = Vault(tmp_path, use_cache=False)
    assert len(vault.notes["Links"].links) == 10_000
    assert len(vault.notes["Dollars"].tags) == 5_000
    assert vault.notes["Opens"].links == [] and vault.notes["Fields"].links == []


def test_rewrite_keeping_mtime_and_size_is_noticed(tmp_path: Path) -> None:
    note = write(tmp_path, "A.md", "owner:: [[Alice]]\n")
    assert Vault(tmp_path).notes["A"].links[0].target == "Alice"
    stat = note.stat()
    note.write_text("owner:: [[Bobby]]\n")
    os.utime(note, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert Vault(tmp_path).notes["A"].links[0].target == "Bobby"


def test_decomposed_file_names_resolve(tmp_path: Path) -> None:
    write(tmp_path, unicodedata.normalize("NFD", "Café.md"), "x\n")
    write(tmp_path, "A.md", "[[Café]]\n")
    link = Vault(tmp_path, use_cache=False).notes["A"].links[0]
    assert link.resolved == unicodedata.normalize("NFD", "Café")


def test_indented_field_lines(tmp_path: Path) -> None:
    write(tmp_path, "A.md", "Meeting notes\n  owner:: [[Carol]]\n- task\n    due:: 2026-12-01\n")
    note = Vault(tmp_path, use_cache=False).notes["A"]
    assert [(f.key, f.value, f.line) for f in note.fields] == [
        ("owner", "[[Carol]]", 2), ("due", "2026-12-01", 4)]
    assert note.links[0].kind == "field"


def test_lint_kind_typo_is_a_usage_error(sample: Path) -> None:
    code, _, err = run(sample, "lint", "--check", "--kind", "broken-links")
    assert code == 2 and "unknown kind broken-links" in err


def test_classic_mac_line_endings(tmp_path: Path) -> None:
    write(tmp_path, "A.md", "---\rtags: [a]\r---\rsee [[B]]\r")
    note = Vault(tmp_path, use_cache=False).notes["A"]
    assert (note.tag_names(), note.links[0].line) == (["a"], 4)


def test_tags_of_the_wrong_shape_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, "A.md", "---\ntags: {a: 1}\naliases: [[x, y], z]\n---\n")
    note = Vault(tmp_path, use_cache=False).notes["A"]
    assert (note.tags, note.aliases) == ([], ["z"])


@pytest.mark.parametrize(("module", "package", "command"), [
    ("markdown_it", "markdown-it-py", "scan"), ("rapidfuzz", "rapidfuzz", "show")])
def test_a_missing_dependency_is_one_clear_error_and_the_next_run_is_whole(
        sample: Path, module: str, package: str, command: str) -> None:
    """A Python without a package vaultmem needs gets one line naming it and the install fix
    (exit 2), not a parse error per note; once it is there, every note is read."""
    args = ["--vault", str(sample), command, *(["Lucy Tn"] if command == "show" else [])]
    script = (f"import sys; sys.modules[{module!r}] = None\n"
              f"from vaultmem.cli import cli\ncli({args!r})")
    broken = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, check=False)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert broken.stderr.startswith(f"Error: {package}, which vaultmem needs, is not installed "
                                    f"in this Python ({sys.executable}): install vaultmem")
    assert broken.stdout == ""
    code, out, _ = run(sample, "scan", "--json")
    assert code == 0 and json.loads(out)["notes"] == 30


def test_a_type_no_note_can_have_is_refused_by_search_on_every_face(sample: Path) -> None:
    from vaultmem.errors import UsageError
    from vaultmem.recall.search import Filters, search
    from vaultmem.vault import Vault

    code, out, err = run(sample, "search", "OCR", "--type", "bogus")
    assert code == 2 and "unknown type 'bogus'; use one of" in err and "No results" not in out
    with pytest.raises(UsageError, match="unknown type 'bogus'"):
        search(Vault(sample), "OCR", filters=Filters(type="bogus"))
    assert search(Vault(sample), "OCR", filters=Filters(type="Decision"))  # any case
