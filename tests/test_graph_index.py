"""The graph read from the index: the same as from the notes, however the files arrived."""

from __future__ import annotations

import shutil
from pathlib import Path

import networkx as nx
import pytest

from vaultmem.graph import build_graph, ego_graph
from vaultmem.index.graph_rows import degrees
from vaultmem.index.rows import link_rows
from vaultmem.recall.related.notes import related, related_inputs, related_notes
from vaultmem.vault import Vault

from .test_obsidian_fixtures import FIXTURES, load_fixture, write_vault

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"  # comes with the project's workspace
VAULTS = [ROOT / "sample_vault", *(CORPORA / name for name in (
    "kepano-obsidian", "pkmer-math", "dataview-deep-dive", "zettelkasten-starter"))]


def graph_data(graph: nx.DiGraph) -> tuple[dict[str, object], dict[tuple[str, str], object]]:
    """Nodes and edges with their attributes, comparable with ``==``."""
    return dict(graph.nodes(data=True)), {(s, t): d for s, t, d in graph.edges(data=True)}


def stored_links(vault: Vault) -> list[tuple[object, ...]]:
    """Every stored link row, sorted (after a scan)."""
    _ = vault.index
    return sorted(vault.store.query(
        "SELECT source, target, node, missing, ambiguous, kind, line, raw, subpath, embed "
        "FROM links"))


def parsed_links(vault: Vault) -> list[tuple[object, ...]]:
    """Every source note's links as a fresh parse and resolution give them, sorted."""
    return sorted(tuple(row) for note in vault.notes.values()
                  for row in link_rows(note, vault.index.resolver))


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.stem)
def test_files_arriving_one_by_one_give_the_index_a_full_scan_gives(
        fixture: Path, tmp_path: Path) -> None:
    files, _ = load_fixture(fixture)
    root = tmp_path / "vault"
    root.mkdir()
    for name in [*sorted(files), *sorted(files)[:1]]:  # each added, then the first one removed
        if (root / name).exists():
            (root / name).unlink()
        else:
            write_vault(root, {name: files[name]})
        cached, fresh = Vault(root), Vault(root, use_cache=False)
        assert stored_links(cached) == stored_links(fresh) == parsed_links(fresh), name
        assert graph_data(cached.graph) == graph_data(fresh.graph), name
        assert stored_degrees(cached) == whole_degrees(fresh), name


def stored_degrees(vault: Vault) -> dict[str, int]:
    """Every node's degree as the index keeps it (after a scan; none left stale by it)."""
    _ = vault.index
    assert vault.store.query("SELECT node FROM stale_degrees") == []
    return {node: degree for node, degree in vault.store.query("SELECT node, degree FROM degrees")
            if degree}


def whole_degrees(vault: Vault) -> dict[str, int]:
    """Every node's degree counted afresh from all the link rows (after a scan)."""
    _ = vault.index
    found: dict[str, set[str]] = {}
    for source, node in vault.store.query("SELECT source, node FROM links WHERE source != node"):
        found.setdefault(source, set()).add(node)
        found.setdefault(node, set()).add(source)
    return {node: len(others) for node, others in found.items()}


def test_a_renamed_note_resolves_the_links_to_both_names_again(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write_vault(root, {"A.md": "[[Old]] [[new]] [[img.png]]\n", "Old.md": "x\n",
                       "sub/img.png": ""})
    assert [(r[1], r[2], r[3]) for r in stored_links(Vault(root))] == [
        ("Old", "Old", 0), ("img.png", "sub/img.png", 0), ("new", "new", 1)]
    (root / "Old.md").rename(root / "New.md")
    (root / "sub" / "img.png").unlink()
    assert [(r[1], r[2], r[3]) for r in stored_links(Vault(root))] == [
        ("Old", "old", 1), ("img.png", "img.png", 1), ("new", "New", 0)]


@pytest.mark.parametrize("root", VAULTS, ids=lambda p: p.name)
def test_the_graph_from_the_index_is_the_graph_of_the_notes(root: Path) -> None:
    if not root.is_dir():
        pytest.skip(f"{root} is not on this machine")
    vault = Vault(root, use_cache=False)
    assert graph_data(vault.graph) == graph_data(build_graph(vault.notes, vault.index.other))


@pytest.mark.parametrize("root", VAULTS, ids=lambda p: p.name)
def test_ego_graphs_and_related_notes_match_the_whole_graph(root: Path, tmp_path: Path) -> None:
    if not root.is_dir():
        pytest.skip(f"{root} is not on this machine")
    copy = tmp_path / "vault"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git"))
    vault = Vault(copy)  # over 200 notes are parsed, and their rows made, in worker processes
    assert stored_links(vault) == parsed_links(vault)
    whole = vault.graph
    undirected = whole.to_undirected(as_view=True)
    for note_id in sorted(vault.notes)[:: max(1, len(vault.notes) // 40)]:
        part = ego_graph(vault.store, note_id, radius=2)
        nodes, edges = graph_data(part)
        expected = nx.ego_graph(whole, note_id, radius=2, undirected=True)
        assert {n: {k: v for k, v in d.items() if k != "degree"} for n, d in nodes.items()} \
            == graph_data(expected)[0], note_id
        assert edges == graph_data(expected)[1], note_id
        assert {n: d["degree"] for n, d in nodes.items()} == dict(undirected.degree(nodes))
        inputs = related_inputs(vault, note_id)[1]
        assert related_notes(vault, note_id)[1] == related(whole, note_id, **inputs), note_id


def test_related_reads_only_the_notes_around_it(sample: Path) -> None:
    vault = Vault(sample)
    _, found = related_notes(vault, "Lucy Tan")
    assert found and "graph" not in vault.__dict__


@pytest.mark.parametrize("root", VAULTS, ids=lambda p: p.name)
def test_scan_counts_from_the_index_are_the_counts_of_the_notes(root: Path) -> None:
    from collections import Counter

    from vaultmem.check.summaries import scan_summary

    if not root.is_dir():
        pytest.skip(f"{root} is not on this machine")
    vault = Vault(root, use_cache=False)
    notes = list(vault.notes.values())
    links = [link for note in notes for link in note.links]
    summary = scan_summary(vault)
    assert (summary["notes"], summary["by_type"]) == (
        len(notes), dict(sorted(Counter(note.type for note in notes).items())))
    assert summary["links"] == {
        "total": len(links), "resolved": sum(k.resolved is not None for k in links),
        "unresolved": sum(k.resolved is None for k in links),
        "ambiguous": sum(k.ambiguous for k in links), "embeds": sum(k.embed for k in links),
        "attachments": sum(k.resolved in set(vault.index.attachments) for k in links)}
    assert summary["tags"] == {"distinct": len({t for n in notes for t in n.tag_names()}),
                               "uses": sum(len(n.tags) for n in notes)}
    assert summary["fields"] == sum(len(n.fields) for n in notes)


@pytest.mark.parametrize("root", VAULTS, ids=lambda p: p.name)
def test_link_checks_and_orphans_from_the_index_cover_every_link(root: Path) -> None:
    from vaultmem.check.linting import lint

    if not root.is_dir():
        pytest.skip(f"{root} is not on this machine")
    vault = Vault(root, use_cache=False)
    found = {(f.kind, f.notes[0], f.line) for f in lint(vault, least=0.0)}
    for note in vault.notes.values():
        for link in note.links:
            if link.resolved is None:
                assert {("broken-link", note.id, link.line),
                        ("unwritten-link", note.id, link.line)} & found
            elif link.ambiguous:  # unless it reaches another note in its own folder
                own = link.resolved.rpartition("/")[0] == note.id.rpartition("/")[0]
                itself = link.resolved == note.id
                assert (("ambiguous-link", note.id, link.line) in found) == (itself or not own)
    degree = vault.graph.to_undirected(as_view=True).degree
    assert {i for kind, i, _ in found if kind == "orphan"} == {
        i for i in vault.notes if degree(i) == 0 and vault.notes[i].type != "daily"}


def test_a_scan_dying_after_storing_notes_leaves_links_a_later_scan_gets_right(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vaultmem.index.store import Store

    root = tmp_path / "vault"
    write_vault(root, {"People/Lucy.md": "# Lucy\n", "X.md": "see [[Lucy]]\n"})
    assert stored_links(Vault(root))[0][2] == "People/Lucy"
    (root / "People" / "Lucy.md").rename(tmp_path / "Lucy.md")  # out of the vault a while
    (root / "X.md").write_text("see [[Lucy]] again\n")
    real = Store.store_notes

    def dies_after(self: Store, updates: dict[str, object]) -> set[str]:
        real(self, updates)  # type: ignore[arg-type]
        raise KeyboardInterrupt  # the process dies right after this transaction

    with monkeypatch.context() as patched, pytest.raises(KeyboardInterrupt):
        patched.setattr(Store, "store_notes", dies_after)
        _ = Vault(root).index
    (tmp_path / "Lucy.md").rename(root / "People" / "Lucy.md")
    assert stored_links(Vault(root)) == stored_links(Vault(root, use_cache=False))
    assert [row[2] for row in stored_links(Vault(root))] == ["People/Lucy"]


def test_links_ending_in_a_folder_step_are_resolved_again_when_their_note_appears(
        tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write_vault(root, {"A.md": "[[B/]] [[B/.]] [[B]]\n", "Sub/N.md": "[[x/..]]\n"})
    assert {row[3] for row in stored_links(Vault(root))} == {1}  # nothing resolves yet
    write_vault(root, {"B.md": "# B\n", "Sub.md": "# Sub\n"})
    assert stored_links(Vault(root)) == stored_links(Vault(root, use_cache=False))
    assert {row[2] for row in stored_links(Vault(root))} == {"B", "Sub"}


def test_a_note_saved_as_dot_md_in_capitals_is_shown_related_and_checked(tmp_path: Path) -> None:
    from vaultmem.check.linting import lint
    from vaultmem.check.summaries import note_data

    root = tmp_path / "vault"
    write_vault(root, {"Upper.MD": "# Upper\n\n## Plan\n",
                       "Other.md": "[[Upper#Nope]] [[Upper]]\n"})
    for vault in (Vault(root), Vault(root)):  # the first scan, then the index
        assert vault.note("Upper").path == "Upper.MD"
        assert [b["id"] for b in note_data(vault, vault.note("Upper"))["backlinks"]] == [
            "Other", "Other"]
        assert [r.id for r in related_notes(vault, "Upper")[1]] == ["Other"]
        assert [f.kind for f in lint(vault)] == ["missing-heading"]


def test_a_degree_left_stale_by_a_killed_scan_is_counted_by_the_reader(sample: Path) -> None:
    vault = Vault(sample)
    lucy = "People/Lucy Tan"
    assert stored_degrees(vault)[lucy] == whole_degrees(Vault(sample, use_cache=False))[lucy]
    with vault.store.held() as db:  # links changed, the scan died before counting again
        db.execute("UPDATE degrees SET degree = 999 WHERE node = ?", (lucy,))
        db.execute("INSERT INTO stale_degrees VALUES (?)", (lucy,))
    assert degrees(vault.store, {lucy}) == {lucy: whole_degrees(vault)[lucy]}


def test_a_memo_of_node_attributes_gives_the_rows_it_saves_reading(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vaultmem.index import graph_rows
    from vaultmem.index.vocabulary import telling_terms

    vault = Vault(sample)
    _ = vault.notes
    plain = graph_rows.star_rows(vault.store, "People/Lucy Tan")
    known: graph_rows.NodeMemo = {}
    assert graph_rows.star_rows(vault.store, "People/Lucy Tan", known=known) == plain
    assert known["People/Lucy Tan"] == plain.notes["People/Lucy Tan"]
    assert graph_rows.star_rows(vault.store, "People/Lucy Tan", known=known) == plain
    monkeypatch.setattr(graph_rows, "MEMO_MOST", 5)  # a long-running server's memo is bounded
    other = graph_rows.star_rows(vault.store, "Learnings/LEARNINGS")
    assert graph_rows.star_rows(vault.store, "Learnings/LEARNINGS", known=known) == other
    assert set(plain.notes) - set(other.notes)  # Lucy Tan's own neighbours are forgotten:
    assert {node for node, attrs in known.items() if attrs} == set(other.notes)  # begun again
    text = vault.note_text("People/Lucy Tan")
    counts: dict[str, int] = {}
    words = telling_terms(vault.store, text, count=12, most_share=1.0)
    assert telling_terms(vault.store, text, count=12, most_share=1.0, known=counts) == words
    assert telling_terms(vault.store, text, count=12, most_share=1.0, known=counts) == words
    assert counts and all(count >= 0 for count in counts.values())


@pytest.mark.parametrize("root", VAULTS, ids=lambda p: p.name)
def test_backlinks_read_from_the_link_rows_are_those_of_the_linking_notes(root: Path) -> None:
    from vaultmem.index.link_rows import backlinks_of

    if not root.is_dir():
        pytest.skip(f"{root} is not on this machine")
    vault = Vault(root, use_cache=False)
    for note_id in sorted(vault.notes):
        read = [(source, link.line, link.raw) for source, link in vault.backlinks(note_id)]
        assert [tuple(row) for row in backlinks_of(vault.store, note_id)] == read, note_id
