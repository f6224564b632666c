"""Imports flow one way: a module imports only from its own layer or below, and no two packages
(or top-level modules) import each other, directly or through others.

Every ``import`` and ``from ... import`` counts: at module level, inside functions (lazy imports)
and under ``if TYPE_CHECKING:`` (no exemption: none is needed). Not seen, by design: the lazy
re-exports of ``vaultmem/__init__.py`` (the public API, looked up by name on first use) and the
click command modules ``cli/__init__.py`` loads from its own package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

import networkx as nx

from .conftest import ROOT

# The one table: each package or top-level module of vaultmem and its layer, lowest first. A new
# folder or top-level module fails the test until it is placed here.
LAYERS = {
    # base: plain types, errors, the clock, settings, note names, credentials, search words,
    # who calls (caller), the language of a question (languages)
    "vaultmem": 0,  # __init__.py: __version__ and the lazy re-exports
    "vaultmem.errors": 0, "vaultmem.model": 0, "vaultmem.moment": 0, "vaultmem.clock": 0,
    "vaultmem.config": 0, "vaultmem.names": 0, "vaultmem.secrets": 0, "vaultmem.text": 0,
    "vaultmem.similar_names": 0, "vaultmem.regular_files": 0,
    "vaultmem.ignored": 0, "vaultmem.semantic_config": 0, "vaultmem.locations": 0,
    "vaultmem.folders": 0, "vaultmem.access_tokens": 0, "vaultmem.caller": 0,
    "vaultmem.languages": 0,
    "vaultmem.read": 1,  # file text -> records, facts as a note states them (pure)
    "vaultmem.index": 2,  # the SQLite index and what is made at index time (search documents)
    "vaultmem.graph": 3, "vaultmem.vault": 3,  # the Vault composes the index and the graph
    "vaultmem.part_graph": 3,  # a part of the graph read from the index, without networkx
    "vaultmem.recall": 4,  # search, related, context: pure queries
    "vaultmem.check": 4,  # read-only judgements: conflicts, duplicates, lint, reports
    "vaultmem.write": 5,  # the only code that writes vault files
    "vaultmem.generate": 6,  # generated notes: context, indexes, conflicts; graph export
    "vaultmem.curate": 7,  # operations that judge then write (reflect refreshes generated notes)
    "vaultmem.cli": 8, "vaultmem.live": 8, "vaultmem.__main__": 8,  # interfaces
    "vaultmem.faces": 8,  # what the interfaces share: the text a person reads
    "vaultmem.launch": 8,
}


def module_of(rel: str) -> str:
    """The module a file under the project root holds: ``vaultmem/read/parse.py`` ->
    ``vaultmem.read.parse``, ``vaultmem/read/__init__.py`` -> ``vaultmem.read``."""
    parts = rel.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    """The package or top-level module a module belongs to (its row in LAYERS)."""
    return ".".join(module.split(".")[:2])


def imports(rel: str, source: str, modules: set[str]) -> Iterable[tuple[int, str]]:
    """(line, module) for each vaultmem module the file imports, relative imports resolved and
    ``from package import module`` taken as the module."""
    module = module_of(rel)
    package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, rel)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                inner = f"{origin}.{alias.name}"
                yield node.lineno, inner if inner in modules else origin


def edges(sources: Mapping[str, str]) -> list[tuple[str, int, str]]:
    """(file, line, imported module) for every import of a vaultmem module in ``sources``
    (project-relative path -> text)."""
    modules = {module_of(rel) for rel in sources}
    return [(rel, line, target) for rel, source in sorted(sources.items())
            for line, target in imports(rel, source, modules)
            if target == "vaultmem" or target.startswith("vaultmem.")]


def upward(sources: Mapping[str, str]) -> list[str]:
    """Each import of a module from a higher layer, as a sentence."""
    out = []
    for rel, line, target in edges(sources):
        mine, theirs = LAYERS[unit_of(module_of(rel))], LAYERS[unit_of(target)]
        if theirs > mine:
            out.append(f"{rel} imports {target} (layer {theirs} above {mine}), line {line}")
    return out


def cycles(sources: Mapping[str, str]) -> list[str]:
    """One loop of imports, with the import of each step, for each group of packages and
    top-level modules that import each other (directly or through others)."""
    graph = nx.DiGraph()
    for rel, line, target in edges(sources):
        source, dest = unit_of(module_of(rel)), unit_of(target)
        if source != dest and not graph.has_edge(source, dest):
            graph.add_edge(source, dest, example=f"{rel}:{line} imports {target}")
    out = []
    for group in nx.strongly_connected_components(graph):
        if len(group) > 1:
            loop = nx.find_cycle(graph.subgraph(group), source=min(group))
            out.append(" -> ".join([a for a, _ in loop] + [loop[0][0]]) + " ("
                       + "; ".join(graph.edges[step]["example"] for step in loop) + ")")
    return sorted(out)


def vaultmem_sources() -> dict[str, str]:
    """Every Python file of the package, by its project-relative path."""
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted((ROOT / "vaultmem").rglob("*.py"))}


def test_every_package_and_top_level_module_has_a_layer() -> None:
    units = {unit_of(module_of(rel)) for rel in vaultmem_sources()}
    assert sorted(units - set(LAYERS)) == [], "place these in LAYERS (tests/test_layers.py)"
    assert sorted(set(LAYERS) - units) == [], "these are in LAYERS but not in vaultmem/"


def test_no_module_imports_from_a_higher_layer() -> None:
    found = upward(vaultmem_sources())
    assert not found, "\n".join(found)


def test_no_packages_import_each_other_in_a_loop() -> None:
    found = cycles(vaultmem_sources())
    assert not found, "\n".join(found)


def test_the_checks_see_lazy_relative_imports_and_loops() -> None:
    sources = {
        "vaultmem/read/parse.py": "def f():\n    from ..curate import learn\n",
        "vaultmem/curate/learn.py": "from vaultmem.read import parse\n",
        "vaultmem/recall/search.py": "from .. import check\nfrom ..check.conflicts import KINDS\n",
        "vaultmem/check/__init__.py": "",
        "vaultmem/check/conflicts.py": "import vaultmem.recall.search\nfrom .. import clock\n",
        "vaultmem/clock.py": "from . import errors\nfrom .errors import BadClock\n",
        "vaultmem/errors.py": "",
    }
    assert upward(sources) == [
        "vaultmem/read/parse.py imports vaultmem.curate.learn (layer 7 above 1), line 2"]
    assert cycles(sources) == [
        "vaultmem.check -> vaultmem.recall -> vaultmem.check (vaultmem/check/conflicts.py:1 "
        "imports vaultmem.recall.search; vaultmem/recall/search.py:1 imports vaultmem.check)",
        "vaultmem.curate -> vaultmem.read -> vaultmem.curate (vaultmem/curate/learn.py:1 "
        "imports vaultmem.read.parse; vaultmem/read/parse.py:2 imports vaultmem.curate.learn)"]


def test_docs_architecture_shows_the_layers_and_every_module_of_the_query_rooms() -> None:
    """docs/architecture.md's layer table is LAYERS, and it names each module of recall/,
    index/ and check/ (a module whose role the page cannot say in a line is in the wrong room)."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = page.split("## Layers", 1)[1].split("\n\n")[1]
    shown = {f"vaultmem.{unit.strip(' `')}" if unit.strip(" `") != "vaultmem" else "vaultmem":
             int(row.split("|")[1]) for row in table.splitlines()[2:]
             for unit in row.split("|")[2].split(",")}
    assert shown == LAYERS
    for room in ("recall", "index", "check"):
        for path in sorted((ROOT / "vaultmem" / room).rglob("*.py")):
            name = path.relative_to(ROOT / "vaultmem" / room).with_suffix("").as_posix()
            if not name.endswith("__init__"):
                assert f"`{name}`" in page or f"`{name.rsplit('/', 1)[-1]}`" in page, \
                    f"docs/architecture.md does not say what {room}/{name}.py is for"
