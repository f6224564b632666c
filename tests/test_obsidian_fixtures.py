"""Every case of OBSIDIAN.md as a fixture file (see fixtures/obsidian/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vaultmem.errors import InvalidTitle
from vaultmem.names import safe_title
from vaultmem.vault import Vault

from .conftest import hash_tree

FIXTURES = Path(__file__).parent / "fixtures" / "obsidian"
BOM = "\\ufeff"


def load_fixture(path: Path) -> tuple[dict[str, str], dict[str, Any]]:
    """The files of a fixture vault and its expectation."""
    files: dict[str, list[str]] = {}
    current: list[str] | None = None
    expect: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True)[1:]:
        if line.startswith("=== "):
            name = line[4:].strip()
            current = expect if name == "expect" else files.setdefault(name, [])
        elif current is not None:
            current.append(line)
    texts = {name: "".join(lines) for name, lines in files.items()}
    return texts, json.loads("".join(expect) or "{}")


def write_vault(root: Path, files: dict[str, str]) -> None:
    """Write the fixture's files (a literal \\ufeff at the start means a BOM)."""
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if text.startswith(BOM):
            text = "\ufeff" + text[len(BOM) :]
        target.write_bytes(text.encode("utf-8"))


def subset(actual: Any, expected: Any, where: str) -> None:
    """Assert ``expected`` matches ``actual``: dicts by the keys given, lists item by item."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            assert key in actual, f"{where}: no key {key!r} in {actual}"
            subset(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list) and \
            any(isinstance(item, dict) for item in expected):
        assert len(actual) == len(expected), f"{where}: {actual} != {expected}"
        for index, (have, want) in enumerate(zip(actual, expected, strict=True)):
            subset(have, want, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def check_titles(cases: list[dict[str, Any]]) -> None:
    """Case 34: titles become safe file names or are refused."""
    for case in cases:
        if case.get("error"):
            with pytest.raises(InvalidTitle):
                safe_title(case["title"])
        else:
            assert safe_title(case["title"]) == case["expect"], case


def check_graph(vault: Vault, expect: dict[str, Any]) -> None:
    """Nodes, edges, absent edges and self links of the graph."""
    graph = vault.graph
    for node, attrs in expect.get("graph_nodes", {}).items():
        assert node in graph, f"no node {node!r}; nodes: {sorted(graph.nodes)}"
        subset(dict(graph.nodes[node]), attrs, f"node {node}")
    for source, target, attrs in expect.get("graph_edges", []):
        assert graph.has_edge(source, target), f"no edge {source} -> {target}"
        subset(dict(graph.edges[source, target]), attrs, f"edge {source}->{target}")
    for source, target in expect.get("no_edges", []):
        assert not graph.has_edge(source, target), f"unexpected edge {source} -> {target}"
    for node, count in expect.get("self_links", {}).items():
        assert graph.nodes[node]["self_links"] == count
        assert not graph.has_edge(node, node)


def check_link_text(vault: Vault, cases: list[dict[str, Any]]) -> None:
    """Case 33: links vaultmem writes follow newLinkFormat."""
    for case in cases:
        style = case.get("format") or vault.config.new_link_format
        text = vault.index.resolver.link_text(case["from"], case["to"], style)
        assert text == case["expect"], case


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.stem)
def test_fixture(path: Path, tmp_path: Path) -> None:
    files, expect = load_fixture(path)
    root = tmp_path / "vault"
    root.mkdir()
    write_vault(root, files)
    before = hash_tree(root)
    vault = Vault(root)
    for note_id, want in expect.get("notes", {}).items():
        assert note_id in vault.notes, f"{note_id!r} not indexed; have {sorted(vault.notes)}"
        subset(vault.notes[note_id].to_dict(), want, note_id)
    for note_id in expect.get("absent", []):
        assert note_id not in vault.notes
    if "attachments" in expect:
        assert vault.index.attachments == expect["attachments"]
    check_graph(vault, expect)
    check_link_text(vault, expect.get("link_text", []))
    check_titles(expect.get("titles", []))
    assert hash_tree(root) == before, "reading changed the vault"
