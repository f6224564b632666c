"""Context notes for agents, and ``sync``: every generated note brought up to date."""

from __future__ import annotations

from collections.abc import Callable

import networkx as nx

from ..check.conflicts import find_conflicts
from ..index.lookup import notes_of_type
from ..names import check_title
from ..recall.context.build import Context, build_context
from ..recall.context.candidates import backlinkers
from ..vault import Vault
from ..write.apply import WriteResult
from ..write.generated import generated_text, write_generated
from .conflicts_note import REPORT_PATH, conflicts_note
from .export import mermaid
from .indexes import build_indexes, write_indexes

NEIGHBOURS = 30


def _agents(vault: Vault) -> list[str]:
    """Every agent note's id, from the index (no note is decoded)."""
    _ = vault.notes  # the index is current first
    return sorted(notes_of_type(vault.store, "agent"))


def context_path(vault: Vault, agent: str | None) -> str:
    """Where an agent's context note lives (``_vaultmem/context/<agent>.md`` by default; two
    agents with one name are told apart by their folders: ``A - Helper``, ``B - Helper``)."""
    title = agent.rsplit("/", 1)[-1] if agent else "Context"
    twins = [i for i in _agents(vault) if i.rsplit("/", 1)[-1] == title]
    name = check_title(" - ".join(agent.split("/")[1:]) if agent and len(twins) > 1 else title)
    folder = vault.config.context_folder
    return f"{folder}/{name}.md" if folder else f"{name}.md"


def context_follows(vault: Vault) -> Callable[[str, str], list[tuple[str, str]]]:
    """For a rename of ``old`` to ``new``: the agent's context note, moved to the name the
    renamed agent's context note has (none when ``old`` is no agent)."""
    agents = set(_agents(vault))

    def follows(old: str, new: str) -> list[tuple[str, str]]:
        if old not in agents:
            return []
        folder = vault.config.context_folder
        name = check_title(new.rsplit("/", 1)[-1])
        return [(context_path(vault, old), f"{folder}/{name}.md" if folder else f"{name}.md")]
    return follows


def agent_neighbourhood(vault: Vault, agent: str) -> nx.DiGraph:
    """The agent, the notes it links and the notes linking it (no whole-vault graph)."""
    graph = nx.DiGraph()
    note = vault.notes[agent]
    graph.add_node(agent, title=note.title, type=note.type)
    for link in note.links:
        target = link.resolved
        if target is not None and target in vault.notes and target != agent:
            other = vault.notes[target]
            graph.add_node(other.id, title=other.title, type=other.type)
            graph.add_edge(agent, other.id)
    for source in backlinkers(vault, note)[:NEIGHBOURS]:
        graph.add_node(source, title=vault.notes[source].title, type=vault.notes[source].type)
        graph.add_edge(source, agent)
    return graph


def context_note_text(vault: Vault, built: Context) -> str:
    """The context, its sources, and (for an agent) a mermaid map of its neighbourhood."""
    sources = built.sources()
    body = built.text.rstrip("\n") + "\n\n## Sources\n" + "\n".join(f"- {s}" for s in sources)
    properties = {"type": "context", "budget": str(built.budget)}
    if built.agent:
        body += "\n\n## Neighbourhood\n" + mermaid(agent_neighbourhood(vault, built.agent)).rstrip()
        properties["agent"] = f'"[[{built.agent}]]"'
    return generated_text(body, properties)


def write_context_note(vault: Vault, built: Context) -> WriteResult:
    """Write the context note; unchanged content is left alone."""
    return write_generated(vault, context_path(vault, built.agent),
                           context_note_text(vault, built))


def sync(vault: Vault, *, agents: list[str] | None = None, budget: int = 2000,
         index: bool = True, conflicts: bool = True) -> list[WriteResult]:
    """The context note of every agent (or of ``agents``), the index notes, the conflicts note."""
    agents = [vault.note(a).id for a in agents] if agents is not None else _agents(vault)
    results = [write_context_note(vault, build_context(vault, agent=agent, budget=budget))
               for agent in agents]
    if index:
        results += write_indexes(vault, build_indexes(vault))
    if conflicts:
        results.append(write_generated(vault, REPORT_PATH, conflicts_note(find_conflicts(vault))))
    return results
