"""Recall commands: search, related (and tuning it), mentions, index."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..recall.search import Filters, Hit, search, snippet
from ..vault import Vault
from . import cli, emit, json_option, with_vault

if TYPE_CHECKING:
    from ..check.mentions import Mention
    from ..recall.related.notes import Related
    from ..recall.related.own_weights import OwnFit


def _hits_text(hits: list[Hit], explain: bool) -> str:
    """One line per hit: score, id, line and snippet (and reasons with --explain)."""
    if not hits:
        return "No results."
    rows = []
    for hit in hits:
        where = f":{hit.line}" if hit.line else ""
        rows.append(f"{hit.score:7.3f}  [[{hit.id}]]{where}  {hit.snippet}".rstrip())
        rows += [f"         - {reason}" for reason in hit.reasons] if explain else []
        rows += [f"         {_cited(p)}  {snippet(p['text'])}" for p in hit.passages]
    return "\n".join(rows)


def _cited(passage: dict[str, object]) -> str:
    """A passage's citation: its block id, else its first line."""
    return f"^{passage['block_id']}" if passage["block_id"] else f":{passage['line']}"


@cli.command("search")
@click.argument("query")
@click.option("--type", "kind", help="Only notes of this type.")
@click.option("--tag", help="Only notes with this tag (nested tags included).")
@click.option("--status", help="Only notes with this status.")
@click.option("--since", metavar="YYYY-MM-DD", help="Only notes dated on or after this day.")
@click.option("--folder", help="Only notes in this folder.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option("--explain", is_flag=True, help="Show why each note was chosen.")
@click.option("--passages", default=0, show_default=True, type=click.IntRange(0, 100),
              help="Show up to this many best passages of each note.")
@json_option
@with_vault
def search_command(vault: Vault, query: str, kind: str | None, tag: str | None,
                   status: str | None, since: str | None, folder: str | None, limit: int,
                   explain: bool, passages: int, as_json: bool) -> None:
    """Search notes: words (any form), names (typos allowed), and links around the best hits.

    \b
    Example:
      vaultmem --vault sample_vault search "ocr engine decision" --type decision
    """
    hits = search(vault, query, filters=Filters(kind, tag, status, since, folder), limit=limit,
                  passages=passages)
    emit({"query": query, "results": [h.to_dict() for h in hits]},
         lambda _: _hits_text(hits, explain), as_json)



def _related_text(items: list[Related], explain: bool) -> str:
    """One line per related note, with its first reason (all with --explain)."""
    if not items:
        return "No related notes."
    rows = []
    for item in items:
        first = item.reasons[0] if item.reasons else ""
        rows.append(f"{item.score:7.3f}  [[{item.id}]]  ({item.type}) {'' if explain else first}")
        rows += [f"         - {reason}" for reason in item.reasons] if explain else []
    return "\n".join(row.rstrip() for row in rows)


@cli.command("related")
@click.argument("note")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option("--depth", default=2, show_default=True, type=click.IntRange(1, 6),
              help="How many links away candidates may be.")
@click.option("--explain", is_flag=True, help="Show every reason.")
@json_option
@with_vault
def related_command(vault: Vault, note: str, limit: int, depth: int, explain: bool,
                    as_json: bool) -> None:
    """Entries related to NOTE through links, shared neighbours, tags and recency.

    \b
    Example:
      vaultmem --vault sample_vault related "Use PaddleOCR" --explain
    """
    from ..recall.related.notes import related_notes  # networkx only with --depth 3 or more

    note_id, items = related_notes(vault, note, limit=limit, depth=depth)
    emit({"note": note_id, "results": [i.to_dict() for i in items]},
         lambda _: _related_text(items, explain), as_json)


def _tuned_text(fit: OwnFit) -> str:
    """What tuning found, in a few lines."""
    from ..recall.related.own_weights import CHANGED_MUCH, FEWEST

    if not fit.found:
        return (f"Only {fit.held} of this vault's links can be hidden (a link one way, from a "
                f"note linking two or more notes); {FEWEST} are needed. related keeps the "
                "shipped weights.")
    names = {"own": "this vault's own weights (each half of the links fitted on the other)",
             "shipped": "the shipped weights", "adamic-adar": "Adamic-Adar alone",
             "words": "the note's words alone"}
    rows = [f"Hid {fit.held} of this vault's links one at a time (cut out, then left as their "
            "words).", "Found in the top 10 by:"]
    rows += [f"  {fit.found[key]:.3f}  {name}" for key, name in names.items()]
    if fit.chosen == "shipped":
        return "\n".join([*rows, "related keeps the shipped weights: no others find more."])
    weights = ", ".join(f"{k} {v:g}" for k, v in fit.weights._asdict().items() if v)
    what = "this vault's own weights" if fit.chosen == "own" else names[fit.chosen]
    return "\n".join([*rows, f"related now uses {what}, kept until {CHANGED_MUCH:.0%} of the "
                             "vault's notes are added or removed:", f"  {weights}"])


@cli.command("tune-related")
@json_option
@with_vault
def tune_related_command(vault: Vault, as_json: bool) -> None:
    """Fit related's weights on this vault's own links: some are hidden one at a time, and of
    the weights fitted on them (scored on links they were not fitted on), the shipped ones,
    Adamic-Adar alone and the note's words alone, those finding most are kept in the index.

    \b
    Example:
      vaultmem --vault sample_vault tune-related
    """
    from ..recall.related.own_weights import tune_related

    fit = tune_related(vault)
    emit(fit.to_dict(), lambda _: _tuned_text(fit), as_json)


@cli.command("mentions")
@click.argument("note")
@click.option("--all", "every", is_flag=True,
              help="Also the notes that already link NOTE elsewhere.")
@json_option
@with_vault
def mentions_command(vault: Vault, note: str, every: bool, as_json: bool) -> None:
    """Unlinked mentions of NOTE: other notes that write its title or an alias as plain words
    (any case, whole words, not in links or code), with the link that would replace them.

    \b
    Example:
      vaultmem --vault sample_vault mentions DataFlow
    """
    from ..check.mentions import unlinked_mentions

    note_id, found = unlinked_mentions(vault, note)
    shown = [m for m in found if every or not m.linked]
    emit({"note": note_id, "results": [m.to_dict() for m in shown]},
         lambda _: _mentions_text(shown, len(found) - len(shown)), as_json)


def _mentions_text(found: list[Mention], linked: int) -> str:
    """One line per mention: where, the words and the link to write."""
    rows = [f"{m.source}.md:{m.line}  {m.words!r} -> {m.edit}  {m.text}" for m in found]
    rows.append(f"{len(found)} unlinked mention(s)" + (
        f"; {linked} more in notes that already link it elsewhere: --all lists them"
        if linked else "") + ".")
    return "\n".join(rows)


@cli.command("index")
@click.option("--write", is_flag=True, help="Write the index notes into the vault.")
@click.option("--embed", is_flag=True,
              help="Instead, give every passage a vector now, for semantic recall (needs "
                   "[semantic] in .vaultmem/config.toml and the semantic extra).")
@json_option
@with_vault
def index_command(vault: Vault, write: bool, embed: bool, as_json: bool) -> None:
    """The memory's navigation: a root index of categories and one index per category.

    With --embed, embed the passages that have no vector yet instead (a query embeds a few
    itself; this is for a first use or a large import).

    \b
    Example:
      vaultmem --vault sample_vault index
    """
    if embed:
        _embed(vault, as_json)
        return
    from ..generate.indexes import build_indexes, write_indexes  # the writer only when needed

    pages = build_indexes(vault)
    if write:
        results = write_indexes(vault, pages)
        emit({"results": [r.to_dict() for r in results]},
             lambda _: "\n".join(f"{r.action} {r.path}" for r in results), as_json)
        return
    emit({"pages": {path: text for path, text in pages.items()}},
         lambda _: "\n\n".join(pages.values()).rstrip("\n"), as_json)


def _embed(vault: Vault, as_json: bool) -> None:
    """Embed every passage text without a vector, and say what was done."""
    from ..recall.meaning import embed_vault

    done = embed_vault(vault)
    emit(done._asdict(), lambda _: (
        f"{done.texts} passage texts have vectors; {done.embedded} embedded now in "
        f"{done.seconds:.1f} s ({done.model})"), as_json)


@cli.command("context")
@click.option("--agent", metavar="NAME", help="The agent whose context it is.")
@click.option("--query", metavar="TEXT", help="What the agent is working on or asking.")
@click.option("--note", metavar="NOTE", help="A note the context is about.")
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(50, 200_000),
              help="Most tokens the context may take (estimated; see the README).")
@click.option("--fill", is_flag=True,
              help="Every passage found for the question, as far as the budget goes, not only "
                   "the best (breadth over precision).")
@click.option("--write", is_flag=True, help="Write it as the agent's context note.")
@click.option("--explain", is_flag=True,
              help="Then say why each item is in (its score's parts, the words it holds).")
@json_option
@with_vault
def context_command(vault: Vault, agent: str | None, query: str | None, note: str | None,
                    budget: int, fill: bool, write: bool, explain: bool,
                    as_json: bool) -> None:
    """Build an agent's context: core memory, now, its rules and lessons, relevant entries,
    decisions, KPIs, people, recent activity and open conflicts, within a token budget.

    \b
    Example:
      vaultmem --vault sample_vault context --agent Rafael --query "OCR accuracy" --budget 800

    With --json, each item has its "reasons"; --explain prints them after the context.
    """
    from ..recall.context.build import build_context

    built = build_context(vault, agent=agent, query=query, note=note, budget=budget, fill=fill)
    if write:
        from ..generate.context_note import write_context_note

        result = write_context_note(vault, built)
        click.echo(f"{result.action} {result.path}", err=True)
    shown = built.explained() if explain else built.text
    emit(built.to_dict(), lambda _: shown.rstrip("\n"), as_json)


@cli.command("sync")
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(50, 200_000))
@click.option("--no-index", is_flag=True, help="Do not rewrite the index notes.")
@click.option("--no-conflicts", is_flag=True, help="Do not rewrite the conflicts note.")
@json_option
@with_vault
def sync_command(vault: Vault, budget: int, no_index: bool, no_conflicts: bool,
                 as_json: bool) -> None:
    """Regenerate every agent's context note, the index notes and the conflicts note.

    Only notes whose content changed are rewritten, so sync tools do not churn.

    \b
    Example:
      vaultmem --vault sample_vault sync
    """
    from ..generate.context_note import sync

    results = sync(vault, budget=budget, index=not no_index, conflicts=not no_conflicts)
    emit({"results": [r.to_dict() for r in results]},
         lambda _: "\n".join(f"{r.action} {r.path}" for r in results), as_json)
