"""related on vaults written the way people write them: daily notes, properties, missing notes,
attachments, common tags and hubs."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import networkx as nx
import pytest

from vaultmem.index.graph_rows import GraphRows
from vaultmem.recall.related.notes import (
    WEIGHTS,
    Related,
    Weights,
    related,
    related_inputs,
    related_notes,
)
from vaultmem.vault import Vault

from .test_obsidian_fixtures import write_vault

DAYS = [f"Daily/2026-10-{day:02d}.md" for day in range(1, 7)]
# the parts of the graph alone, each its own weight: what the tests of each part look at
GRAPH_ONLY = Weights(link_out=2.0, link_in=2.0, shared=1.0, adamic=0.0, text=0.0, names_it=0.0,
                     named_by=0.0, tags=1.0, recent=0.3)


def related_in(root: Path, files: dict[str, str], note: str,
               weights: Weights = GRAPH_ONLY) -> list[Related]:
    """``related`` over the graph of a vault of ``files`` (added to what ``root`` holds), with
    ``weights`` (by default the graph's parts alone: these notes are a few words each); the
    part of the graph read from the index gives what the whole graph gives."""
    write_vault(root, files)
    vault = Vault(root)
    note_id, found = related_notes(vault, note, limit=100)
    inputs = related_inputs(vault, note_id)[1]
    assert found == related(vault.graph, note_id, limit=100, **inputs)
    return related(vault.graph, note_id, limit=100, **inputs, weights=weights)


def ids(found: list[Related]) -> list[str]:
    """The related notes' ids, best first."""
    return [r.id for r in found]


def reasons(found: list[Related], note_id: str) -> list[str]:
    """The reasons given for one related note."""
    return next(r.reasons for r in found if r.id == note_id)


def test_co_mention_in_daily_notes_ranks_below_a_direct_link_with_a_shared_tag(
        tmp_path: Path) -> None:
    files = {"Linear Algebra.md": "---\ntags: [math]\n---\nSee [[Matrices]].\n",
             "Matrices.md": "---\ntags: [math]\n---\nRows and columns.\n",
             "Groceries.md": "Milk, bread.\n"}
    files |= {day: "Studied [[Linear Algebra]], then bought [[Groceries]].\n" for day in DAYS}
    found = related_in(tmp_path, files, "Linear Algebra")
    assert ids(found).index("Matrices") < ids(found).index("Groceries")
    assert "both linked from daily note [[2026-10-01]] (weak)" in reasons(found, "Groceries")
    assert reasons(found, "Matrices") == ["[[Linear Algebra]] links to it", "shared tag #math"]


def test_daily_notes_configured_in_obsidian_are_weak_bridges_too(tmp_path: Path) -> None:
    files = {".obsidian/daily-notes.json": '{"folder": "Journal", "format": "DD.MM.YYYY"}',
             "Topic.md": "Alone.\n", "Other.md": "Alone too.\n", "Linked.md": "[[Topic]]\n",
             "Journal/01.10.2026.md": "[[Topic]] and [[Other]]\n"}
    found = related_in(tmp_path, files, "Topic")
    assert ids(found) == ["Journal/01.10.2026", "Linked", "Other"]
    assert reasons(found, "Other") == ["both linked from daily note [[01.10.2026]] (weak)"]


def test_many_days_mentioning_both_add_less_than_a_direct_link(tmp_path: Path) -> None:
    files = {"Topic.md": "[[Linked]]\n", "Linked.md": "x\n", "Other.md": "y\n"}
    files |= {f"Daily/2026-09-{day:02d}.md": "[[Topic]] [[Other]]\n" for day in range(1, 29)}
    found = related_in(tmp_path, files, "Topic")
    score = {r.id: r.score for r in found}
    assert score["Other"] < score["Linked"]


def test_for_a_daily_note_the_days_around_it_are_no_weak_evidence(tmp_path: Path) -> None:
    files = {"Daily/2026-10-01.md": "after:: [[2026-10-02]]\nmonthly:: [[2026-M10]]\n",
             "Daily/2026-10-02.md": "before:: [[2026-10-01]]\n",
             "Daily/2026-M10.md": "A month.\n", "Topic.md": "[[2026-10-01]]\n"}
    found = related_in(tmp_path, files, "2026-10-02")
    assert reasons(found, "Daily/2026-M10") == ["both linked from daily note [[2026-10-01]]"]
    assert reasons(related_in(tmp_path, {}, "Topic"), "Daily/2026-M10") == [
        "linked through daily note [[2026-10-01]] (weak)"]


def test_a_missing_note_or_an_attachment_is_no_bridge(tmp_path: Path) -> None:
    both = "[[Not written yet]] ![[diagram.png]] ![[Books.base]] [[Tables.base]]\n"
    files = {"A.md": both, "B.md": both, "diagram.png": "", "Tables.base": "views: []\n",
             "C.md": "[[Shared]]\n", "Shared.md": "[[A]]\n"}
    found = related_in(tmp_path, files, "A")
    assert ids(found) == ["Shared", "C"]
    assert reasons(found, "C") == ["linked through [[Shared]]"]


def test_a_linked_template_is_not_related(tmp_path: Path) -> None:
    files = {".obsidian/templates.json": '{"folder": "Templates"}',
             "Templates/Meeting.md": "[[A]] [[B]]\n", "A.md": "[[Meeting]]\n", "B.md": "x\n"}
    assert related_in(tmp_path, files, "A") == []


def test_a_shared_property_counts_more_than_a_shared_link_in_the_text(tmp_path: Path) -> None:
    files = {"Out of Control.md": "---\nauthor: \"[[Kevin Kelly]]\"\n---\nA book.\n",
             "The Inevitable.md": "---\nauthor: \"[[Kevin Kelly]]\"\n---\nAnother.\n",
             "Podcast.md": "We talked about [[Kevin Kelly]].\n",
             "Kevin Kelly.md": "A writer.\n"}
    found = related_in(tmp_path, files, "Out of Control")
    assert ids(found) == ["Kevin Kelly", "The Inevitable", "Podcast"]
    assert reasons(found, "The Inevitable") == ["same author [[Kevin Kelly]]"]
    assert reasons(found, "Podcast") == ["both link [[Kevin Kelly]]"]
    assert found[1].score == pytest.approx(2 * found[2].score, abs=1e-3)


def test_inline_fields_are_properties_too(tmp_path: Path) -> None:
    files = {"round.md": "functions:: [[filter]]\n", "floor.md": "functions:: [[filter]]\n",
             "filter.md": "x\n"}
    found = related_in(tmp_path, files, "round")
    assert reasons(found, "floor") == ["same functions [[filter]]"]


def graph_of(edges: list[tuple[str, str]], tags: dict[str, list[str]]) -> nx.DiGraph:
    """A graph of notes with the given tags (others untagged)."""
    graph = nx.DiGraph(edges)
    graph.add_nodes_from(tags)
    nx.set_node_attributes(graph, {n: {"type": "note", "title": n, "tags": tags.get(n, [])}
                                   for n in graph})
    return graph


def test_a_tag_on_hundreds_of_notes_says_nothing_and_a_rare_one_much() -> None:
    tags = {f"n{i:03d}": ["math"] for i in range(300)}
    tags |= {"A": ["math", "groups"], "B": ["math", "groups"], "C": ["math"]}
    found = related(graph_of([], tags), "A")
    assert ids(found) == ["B"]
    assert found[0].reasons == ["shared tag #groups"]
    assert found[0].score == pytest.approx(WEIGHTS.tags)  # the best tag evidence counts 1


def test_a_candidate_linked_with_many_other_notes_is_not_pushed_down() -> None:
    edges = [("A", "P"), ("B", "P"), ("C", "P"), *(("C", f"n{i}") for i in range(30))]
    found = related(graph_of(edges, {}), "A", limit=3)
    assert [(r.id, r.score) for r in found][1:] == [("B", found[2].score), ("C", found[2].score)]


def test_related_notes_ranks_as_of_the_day_given(tmp_path: Path) -> None:
    files = {"A.md": "[[B]] [[C]]\n", "B.md": "---\ndate: 2026-01-10\n---\n",
             "C.md": "---\ndate: 2026-03-01\n---\n"}
    write_vault(tmp_path, files)
    vault = Vault(tmp_path)
    graph, inputs = related_inputs(vault, "A")
    early = related(graph, "A", today=dt.date(2026, 1, 12), weights=GRAPH_ONLY, **inputs)
    late = related(graph, "A", today=dt.date(2026, 3, 2), weights=GRAPH_ONLY, **inputs)
    assert (ids(early), ids(late)) == (["B", "C"], ["C", "B"])
    assert related_notes(vault, "A", today=dt.date(2026, 3, 2))[1] == related(
        graph, "A", today=dt.date(2026, 3, 2), **inputs)


def test_the_most_similar_text_alone_ranks_below_a_direct_link() -> None:
    found = related(graph_of([("A", "B")], {"C": []}), "A", text={"C": 1.0})
    assert ids(found) == ["B", "C"]
    assert found[1].reasons == ["similar text (1.00)"]


def test_notes_linking_one_note_nobody_wrote_yet_share_a_topic(tmp_path: Path) -> None:
    files = {"A.md": "[[Category theory]]\n", "B.md": "See [[Category theory]].\n",
             "C.md": "Unrelated.\n"}
    found = related_in(tmp_path, files, "A", weights=WEIGHTS)
    assert [(r.id, r.reasons) for r in found] == [
        ("B", ["both linked with [[Category theory]] (a note nobody wrote yet)",
               "similar text (1.00)"])]


def test_a_note_writing_another_notes_name_in_plain_words_ranks_it_as_a_link(
        tmp_path: Path) -> None:
    files = {"Meeting.md": "---\nauthor: Kevin Kelly\n---\nWe read Out of Control today.\n"
                           "[[Agenda]]\n",
             "Out of Control.md": "A book.\n", "Kevin Kelly.md": "A writer.\n",
             "Agenda.md": "[[Budget]]\n", "Budget.md": "[[Agenda]]\n"}
    found = related_in(tmp_path, files, "Meeting", weights=WEIGHTS)
    assert set(ids(found)[:3]) == {"Agenda", "Kevin Kelly", "Out of Control"}  # as a link
    assert reasons(found, "Out of Control")[0] == "[[Meeting]] names it (line 4)"
    assert reasons(found, "Kevin Kelly")[0] == "[[Meeting]] names it (line 2)"


def test_notes_a_hub_lists_together_are_related_the_nearer_the_more(tmp_path: Path) -> None:
    hub = "# Index\n\n- [[Deskew]]\n- [[Binarize]]\n- [[Crop]]\n\n" + "text\n" * 8 + "[[Far]]\n"
    found = related_in(tmp_path, {"Index.md": hub, "Deskew.md": "x\n", "Binarize.md": "x\n",
                                  "Crop.md": "x\n", "Far.md": "x\n"}, "Deskew",
                       weights=Weights(link_out=0.0, link_in=0.0, shared=0.0, adamic=0.0,
                                       text=0.0, names_it=0.0, named_by=0.0, tags=0.0,
                                       recent=0.0, cocited=1.0))
    scored = {hit.id: round(hit.score, 2) for hit in found if hit.score}
    assert scored == {"Binarize": 1.0, "Crop": 0.67}  # one line apart, two; Far is 10 away
    assert [hit.reasons for hit in found if hit.id == "Binarize"] == [
        ["[[Index]] links both, 1 line(s) apart"]]


def _networkx_of(rows: GraphRows) -> nx.DiGraph:
    """The graph ``rows`` describe, built with networkx itself (an oracle independent of
    :mod:`vaultmem.part_graph`)."""
    graph = nx.DiGraph()
    graph.add_nodes_from((note_id, dict(attrs)) for note_id, attrs in rows.notes.items())
    graph.add_nodes_from((node, {"type": role, "title": node.rsplit("/", 1)[-1], "path": node,
                                 "missing": False, "self_links": 0})
                         for node, role in rows.roles.items())
    graph.add_nodes_from((label, {"type": "missing", "title": label, "path": None,
                                  "missing": True, "self_links": 0})
                         for label in rows.labels.values())
    for link in rows.links:
        if link.node == link.source:
            graph.nodes[link.source]["self_links"] += 1
            continue
        pair = (link.source, rows.labels[link.node] if link.missing else link.node)
        if not graph.has_edge(*pair):
            graph.add_edge(*pair, kinds=[], count=0, lines=[])
        edge = graph.edges[pair]
        edge["kinds"] = sorted({*edge["kinds"], link.kind})
        edge["count"] += 1
        edge["lines"].append(link.line)
    for node, degree in rows.degrees.items():
        if rows.labels.get(node, node) in graph:
            graph.nodes[rows.labels.get(node, node)]["degree"] = degree
    return graph


def test_the_part_read_from_the_index_relates_as_a_networkx_graph_of_it(sample: Path) -> None:
    from vaultmem.index.graph_rows import star_rows
    from vaultmem.part_graph import PartGraph
    from vaultmem.recall.related.notes import related_inputs

    vault = Vault(sample)
    for note_id in sorted(vault.notes):
        part, inputs = related_inputs(vault, note_id, every_word=True)
        assert isinstance(part, PartGraph)
        also = {*inputs["text"], *inputs["words"], *inputs["mentions"]["names_it"],
                *inputs["mentions"]["named_by"],
                *(member for members in inputs["tagged"].values() for member in members)}
        whole = _networkx_of(star_rows(vault.store, note_id, also))
        assert {n: part.nodes[n] for n in part.nodes} == dict(whole.nodes(data=True))
        assert part.edges == {pair: whole.edges[pair] for pair in whole.edges}
        for node in part.nodes:
            assert sorted(part.successors(node)) == sorted(whole.successors(node))
            assert sorted(part.predecessors(node)) == sorted(whole.predecessors(node))
            undirected = whole.to_undirected(as_view=True)
            assert part.to_undirected()[node].keys() == set(undirected[node])
        by_part = [(r.id, round(r.score, 6), r.reasons) for r in related(part, note_id, **inputs)]
        by_nx = [(r.id, round(r.score, 6), r.reasons) for r in related(whole, note_id, **inputs)]
        assert by_part == by_nx, note_id
