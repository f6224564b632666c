"""Read commands: scan, show, graph, lint, links."""

from __future__ import annotations

import sys

import click

from ..caller import LinkPolicy
from ..check.linting import KINDS
from ..check.sorted_findings import lint_sorted
from ..check.summaries import note_data, scan_summary
from ..errors import UsageError
from ..faces import text as readable
from ..vault import Vault
from . import cli, emit, json_option, say, with_vault


@cli.command()
@json_option
@with_vault
def scan(vault: Vault, as_json: bool) -> None:
    """Read the whole vault and summarise notes, links, tags, fields and problems.

    \b
    Example:
      vaultmem --vault sample_vault scan --json
    """
    emit(scan_summary(vault), lambda s: readable.scan_text(s, shown=vault.shown), as_json)


@cli.command()
@click.argument("note")
@click.option("--text", "with_text", is_flag=True,
              help="Also print the note's Markdown (credentials redacted).")
@json_option
@with_vault
def show(vault: Vault, note: str, with_text: bool, as_json: bool) -> None:
    """Show one parsed note: properties, tags, fields, headings, links and backlinks.

    NOTE is an id (People/Lucy Tan), a name (Lucy Tan) or a path.

    \b
    Example:
      vaultmem --vault sample_vault show "Lucy Tan"
    """
    found = vault.note(note)
    emit(note_data(vault, found),
         (lambda _: readable.note_with_text(vault, found)) if with_text else readable.show_text,
         as_json)


@cli.command()
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "json", "graphml", "gexf", "mermaid"]),
              help="Output format; json is networkx node-link data.")
@json_option
@click.option("--around", metavar="NOTE", help="Only the neighbourhood of this note.")
@click.option("--depth", default=1, show_default=True, type=click.IntRange(0, 10),
              help="Hops around --around.")
@with_vault
def graph(vault: Vault, fmt: str, as_json: bool, around: str | None, depth: int) -> None:
    """Print the link graph, or the neighbourhood of one note.

    \b
    Example:
      vaultmem --vault sample_vault graph --around "Lucy Tan" --format mermaid
    """
    from ..generate.export import export_graph  # networkx is imported only for graph commands
    from ..graph import ego_graph

    if around is None and depth != 1:
        raise UsageError("--depth needs --around NOTE")
    g = vault.graph if around is None else ego_graph(
        vault.store, vault.note(around).id, radius=depth, degrees=False)
    click.echo(export_graph(g, "json" if as_json else fmt), nl=False)


@cli.command("conventions")
@json_option
@with_vault
def conventions_command(vault: Vault, as_json: bool) -> None:
    """Say what vaultmem detected of the vault's conventions: its templates folder, its daily
    notes, and how its notes are typed (a property such as type or categories, a folder, a tag).

    \b
    Example:
      vaultmem --vault sample_vault conventions
    """
    from ..check.conventions import conventions, conventions_text

    emit(conventions(vault), conventions_text, as_json)


@cli.command("lint")
@click.option("--check", is_flag=True, help="Exit 1 when there are findings (for CI and hooks).")
@click.option("--kind", "kinds", multiple=True, help=f"Only these kinds ({', '.join(KINDS)}, "
              "or a file problem kind such as frontmatter, conflict-markers, sync-duplicate, "
              "sync-copy); "
              "repeatable.")
@click.option("--all", "everything", is_flag=True,
              help="Also the findings it is unsure of (confidence below 0.5), such as links "
              "to notes not written yet and notes nothing links.")
@click.option("--suggest-links", is_flag=True,
              help="Also offer to link the words that name another note (unlinked mentions), "
              "with the exact edit.")
@json_option
@with_vault
def lint_command(vault: Vault, check: bool, kinds: tuple[str, ...], everything: bool,
                 suggest_links: bool, as_json: bool) -> None:
    """Find broken and ambiguous links, missing headings/blocks, bad files, orphans, and sync
    tools' leftovers (conflict copies, git conflict markers, content repeated by a merge).

    \b
    Example:
      vaultmem --vault sample_vault lint --check
    """
    split = lint_sorted(vault, kinds=kinds, everything=everything, suggest_links=suggest_links)
    findings = split.shown
    if as_json:
        emit(split.to_dict(), str, True)
    else:
        say(readable.findings_text(findings) + readable.left_out(split))
    if check and findings:
        sys.exit(1)


@cli.command("links")
@click.option("--check", "text", required=True, metavar="TEXT",
              help="The text an agent is about to write ('-': read it from stdin).")
@click.option("--note", default="", metavar="NOTE",
              help="The note it goes to (its folder decides between notes of one name).")
@click.option("--new-link", is_flag=True,
              help="A link close to an existing note's name is to a new note: keep it.")
@click.option("--link-mentions", is_flag=True,
              help="Also link the first plain-text mention of each person and project.")
@json_option
@with_vault
def links_command(vault: Vault, text: str, note: str, new_link: bool, link_mentions: bool,
                  as_json: bool) -> None:
    """Check the [[links]] of a text before writing it: what each write command would write
    instead (an alias as [[Note|Alias]], a name as the note spells it), and the links it would
    refuse, with the notes they may mean. Exit 1 when one would be refused.

    \b
    Example:
      vaultmem --vault sample_vault links --check "Met [[Lucy]] about [[dataflow]]"
    """
    from ..write.link_review.review import review_data, review_links, review_text

    given = sys.stdin.read() if text == "-" else text
    review = review_links(vault, given, source=vault.note(note).id if note else "",
                          policy=LinkPolicy(new=new_link, mentions=link_mentions))
    emit(review_data(review), review_text, as_json)
    if review.problems:
        sys.exit(1)
