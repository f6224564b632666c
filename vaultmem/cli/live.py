"""Live commands: watch, and mcp (the memory as tools for agents)."""

from __future__ import annotations

import contextlib
import signal
import threading
from pathlib import Path

import click

from ..access_tokens import default_tokens_path
from ..errors import UsageError
from ..live.forked import CommandLine
from ..live.http_gate import Limits
from ..live.tool_table import help_line
from ..vault import Vault
from . import cli, main, warm, with_vault
from .access import TOKENS_OPTION


@cli.command("watch")
@click.option("--agent", "agents", multiple=True, help="Only these agents' context notes.")
@click.option("--debounce", default=500, show_default=True, type=click.IntRange(50, 60_000),
              help="Milliseconds without changes before a rebuild (bursts become one).")
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(50, 200_000))
@click.option("--index", is_flag=True, help="Also rewrite the index notes.")
@click.option("--conflicts", is_flag=True, help="Also rewrite the conflicts note.")
@click.option("--no-notes", is_flag=True,
              help="Write no note: only keep the index current for other commands.")
@with_vault
def watch_command(vault: Vault, agents: tuple[str, ...], debounce: int, budget: int, index: bool,
                  conflicts: bool, no_notes: bool) -> None:
    """Keep agents' context notes and the index fresh while people and agents edit the vault
    (Ctrl-C or SIGTERM stops).

    Re-reads only changed files, rebuilds once per burst of changes (a LiveSync pull of 500
    files is one rebuild), ignores its own writes, and logs one line per rebuild. While it
    runs, other vaultmem commands on this vault skip checking every file for changes (it
    tells them the index is current; Linux).

    \b
    Example:
      vaultmem --vault sample_vault watch --agent Rafael --debounce 1000
    """
    from ..live.watch import watch

    for agent in agents:
        vault.note(agent, kind="agent")  # an unknown agent fails now, with a suggestion
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C, and how systemd stops a service
        signal.signal(sig, lambda *_: stop.set())
    with contextlib.suppress(KeyboardInterrupt):
        watch(vault, agents=list(agents) or None, debounce=debounce / 1000, budget=budget,
              index=index, conflicts=conflicts, notes=not no_notes, log=click.echo, stop=stop,
              ready=lambda: click.echo(f"watching {vault.shown} (Ctrl-C stops)", err=True),
              command_line=CommandLine(main, warm))
    click.echo("stopped", err=True)


MCP_HELP = f"""Serve the memory to agents as Model Context Protocol tools over stdio, or over
HTTP with --http.

{help_line()} Needs the mcp extra: pip install 'vaultmem[mcp]'. On Linux a call reads the
files again only when the system reports a change (inotify).

\b
Example:
  vaultmem --vault sample_vault mcp --print-config
  vaultmem --vault sample_vault mcp --http 127.0.0.1:8765
"""


@cli.command("mcp", help=MCP_HELP)
@click.option("--read-only", is_flag=True, help="Offer only the reading tools.")
@click.option("--check-files", is_flag=True,
              help="Check every file's state on every call instead of asking the system what "
              "changed (for a vault on a network file system, whose remote changes Linux does "
              "not report).")
@click.option("--print-config", is_flag=True,
              help="Print how an MCP client starts this server (absolute paths); serve nothing.")
@click.option("--http", "address", metavar="HOST:PORT",
              help="Serve over MCP's streamable HTTP at this address (e.g. 127.0.0.1:8765) "
              "instead of stdio; off this machine only with tokens (vaultmem token add).")
@TOKENS_OPTION
@click.option("--max-body", default=Limits.body_bytes, show_default=True,
              type=click.IntRange(1024), help="Bytes a request may send (413 above).")
@click.option("--max-results", default=Limits.results, show_default=True,
              type=click.IntRange(1, 1000), help="Most results a call may ask for.")
@click.option("--max-budget", default=Limits.budget, show_default=True,
              type=click.IntRange(50, 200_000), help="Most tokens a context may ask for.")
@click.option("--calls-per-second", default=Limits.calls_per_second, show_default=True,
              type=click.FloatRange(0.1), help="Calls per second per token (429 above).")
@click.option("--call-wait", default=Limits.call_wait, show_default=True,
              type=click.FloatRange(0.1), help="Seconds a call may wait for its turn.")
@click.option("--call-time", default=Limits.call_seconds, show_default=True,
              type=click.FloatRange(0.1), help="Seconds a reading call may run before it is "
              "stopped (a write is never cut short).")
@click.option("--token-calls", type=click.IntRange(1, 64), metavar="N",
              help="Calls one token may have running at once, the others waiting their turn "
              "[default: one less than --workers, at least 1].")
@click.option("--max-sessions", default=Limits.sessions_per_token, show_default=True,
              type=click.IntRange(1, 10_000), help="MCP sessions one token may hold open "
              "(429 above).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes answering calls at once over HTTP, each holding the index "
              "warm (about one per core; each takes the memory of one server).")
@with_vault
def mcp_command(vault: Vault, read_only: bool, check_files: bool, print_config: bool,
                address: str | None, tokens_path: Path | None, max_body: int, max_results: int,
                max_budget: int, calls_per_second: float, call_wait: float,
                call_time: float, token_calls: int | None, max_sessions: int,
                workers: int) -> None:
    """``vaultmem mcp``: its help is :data:`MCP_HELP`."""
    if workers != 1 and address is None:
        raise UsageError("--workers is for a server over HTTP (stdio has one client); add "
                         "--http HOST:PORT, or leave --workers out")
    if print_config:
        from ..live import mcp_config
        from ..live.mcp_http import http_url

        click.echo(mcp_config.client_config(vault.root, read_only=read_only,
                                            check_files=check_files) if address is None
                   else mcp_config.http_client_config(http_url(address)), nl=False)
        return
    if address is None:
        from ..live.mcp import serve

        serve(vault, read_only=read_only, watch=not check_files,
              command_line=CommandLine(main, warm))
        return
    from ..live.mcp_http import serve_http

    limits = Limits(max_body, max_results, max_budget, calls_per_second, call_wait,
                    sessions_per_token=max_sessions, call_seconds=call_time,
                    token_calls=token_calls or max(1, workers - 1))
    serve_http(vault, address, tokens=tokens_path or default_tokens_path(), limits=limits,
               read_only=read_only, watch=not check_files, workers=workers,
               command_line=CommandLine(main, warm),
               ready=lambda url: click.echo(f"serving {vault.shown} at {url} (Ctrl-C stops)",
                                            err=True))
    click.echo("stopped", err=True)
