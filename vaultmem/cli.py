"""The ``vaultmem`` command line: a thin click layer over the library."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click
import networkx as nx

from . import __version__, report
from .errors import UsageError, VaultmemError
from .export import export_graph
from .graph import neighbourhood
from .lint import KINDS, lint
from .vault import Vault

BAR_MIN = 500


class Bar:
    """A click progress bar on stderr, shown only when a scan parses many files."""

    def __init__(self) -> None:
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if total < BAR_MIN:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label="Parsing notes", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


class Refused(click.ClickException):
    """A library error: not found, refused, findings (exit 1)."""

    exit_code = 1


class BadUsage(click.ClickException):
    """A library usage error: bad vault path or settings (exit 2)."""

    exit_code = 2


class Group(click.Group):
    """Turns library errors into one-line messages and exit codes, never tracebacks."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VaultmemError as exc:
            kind = BadUsage if exc.exit_code == 2 else Refused
            raise kind(str(exc)) from exc
        except OSError as exc:
            raise click.ClickException(f"{exc}; check the path and its permissions") from exc


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``: print exactly one JSON document to stdout."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON document instead of text.")(func)


def emit(data: Any, text: Callable[[Any], str], as_json: bool) -> None:
    """Print ``data`` as JSON or through its text renderer."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(text(data))


def with_vault(func: Callable[..., Any]) -> Callable[..., Any]:
    """Pass the vault opened by the group (built once, on first use) as ``vault``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        opener: Callable[[], Vault] = ctx.obj
        return func(opener(), *args, **kwargs)

    return wrapper


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--vault", "vault_path", type=click.Path(file_okay=False),
              help="Vault folder (default: $VAULTMEM_VAULT, else the nearest folder above the "
                   "current one holding .obsidian/ or .vaultmem/).")
@click.option("--no-cache", is_flag=True, help="Parse every file again; ignore the cache.")
@click.version_option(__version__, prog_name="vaultmem")
@click.pass_context
def cli(ctx: click.Context, vault_path: str | None, no_cache: bool) -> None:
    """Long-term memory for AI agents, kept in an Obsidian vault.

    \b
    Example:
      vaultmem --vault sample_vault scan
    """
    bar = Bar()
    ctx.call_on_close(bar.close)

    @functools.cache
    def opener() -> Vault:
        vault = Vault.discover(vault_path, use_cache=not no_cache, progress=bar)
        _ = vault.index
        bar.close()
        return vault

    ctx.obj = opener


@cli.command()
@json_option
@with_vault
def scan(vault: Vault, as_json: bool) -> None:
    """Read the whole vault and summarise notes, links, tags, fields and problems.

    \b
    Example:
      vaultmem --vault sample_vault scan --json
    """
    emit(report.scan_summary(vault), report.scan_text, as_json)


@cli.command()
@click.argument("note")
@json_option
@with_vault
def show(vault: Vault, note: str, as_json: bool) -> None:
    """Show one parsed note: properties, tags, fields, headings, links and backlinks.

    NOTE is an id (People/Lucy Tan), a name (Lucy Tan) or a path.

    \b
    Example:
      vaultmem --vault sample_vault show "Lucy Tan"
    """
    emit(report.note_data(vault, vault.note(note)), report.note_text, as_json)


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
    if around is None and depth != 1:
        raise UsageError("--depth needs --around NOTE")
    g: nx.DiGraph = vault.graph
    if around is not None:
        g = neighbourhood(g, vault.note(around).id, depth=depth)
    click.echo(export_graph(g, "json" if as_json else fmt), nl=False)


@cli.command("lint")
@click.option("--check", is_flag=True, help="Exit 1 when there are findings (for CI and hooks).")
@click.option("--kind", "kinds", multiple=True, help=f"Only these kinds ({', '.join(KINDS)}, "
              "or a file problem kind such as frontmatter); repeatable.")
@json_option
@with_vault
def lint_command(vault: Vault, check: bool, kinds: tuple[str, ...], as_json: bool) -> None:
    """Find broken and ambiguous links, missing headings/blocks, bad files and orphans.

    \b
    Example:
      vaultmem --vault sample_vault lint --check
    """
    findings = [f for f in lint(vault) if not kinds or f.kind in kinds]
    if as_json:
        emit({"findings": [f.to_dict() for f in findings]}, str, True)
    else:
        click.echo(report.findings_text(findings))
    if check and findings:
        sys.exit(1)


def main() -> None:
    """Console entry point."""
    cli(prog_name="vaultmem")
