"""Access commands: the tokens agents on other machines call the HTTP server with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from .. import clock
from ..access_tokens import SCOPES, checked_folders, default_tokens_path, read_tokens
from . import cli, json_option

TOKENS_OPTION = click.option(
    "--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path),
    help="The tokens file (default: $VAULTMEM_TOKENS, else ~/.config/vaultmem/tokens.json).")


@cli.group("token")
def token_group() -> None:
    """Tokens for `vaultmem mcp --http`: add, list, revoke.

    Stored hashed, outside the vault, readable by you only; a token is shown once, when it is
    added. The server reads the file again when it changes: a revoked token is refused at once.

    \b
    Example:
      vaultmem token add laptop --scope read
    """


@token_group.command("add")
@click.argument("name")
@click.option("--scope", type=click.Choice(SCOPES), default="read", show_default=True,
              help="read: the reading tools only; write: every tool.")
@click.option("--folders", metavar="FOLDER,...",
              help="Only these vault folders: no tool lists, reads or writes anything outside "
              "them (default: the whole vault).")
@click.option("--agent", metavar="AGENT",
              help="The agent this token writes as (its agent note's name): every entry, fact "
              "and note it writes says so, and lessons are that agent's (--scope write).")
@TOKENS_OPTION
def token_add(name: str, scope: str, folders: str | None, agent: str | None,
              tokens_path: Path | None) -> None:
    """Add a token named NAME and print it (this once: store it in the client's settings).

    \b
    Example:
      vaultmem token add council --scope write --agent Rafael
    """
    from ..write.token_file import add_token

    path = tokens_path or default_tokens_path()
    within = checked_folders(folders) if folders is not None else ()
    token, _ = add_token(path, name, scope=scope, folders=within, agent=agent,
                         now=clock.now())
    click.echo(token)
    where = f" in {', '.join(within)}" if within else ""
    writes_as = f", writes as {agent}" if agent else ""
    click.echo(f"token {name!r} ({scope}{where}{writes_as}) added to {path}; it is not shown "
               "again", err=True)


@token_group.command("list")
@TOKENS_OPTION
@json_option
def token_list(tokens_path: Path | None, as_json: bool) -> None:
    """The tokens: name, scope, folders, agent, when added and revoked (never the tokens
    themselves)."""
    path = tokens_path or default_tokens_path()
    rows = [{"name": r.name, "scope": r.scope, "folders": list(r.folders), "agent": r.agent,
             "created": r.created, "revoked": r.revoked} for r in read_tokens(path)]
    data = {"tokens": rows, "file": str(path)}  # no vault needed, and nothing secret in it
    click.echo(json.dumps(data, indent=2) if as_json else _listed(data))


def _listed(data: dict[str, Any]) -> str:
    """One line per token."""
    if not data["tokens"]:
        return f"no token in {data['file']}; add one with: vaultmem token add NAME"
    return "\n".join(f"{row['name']}  {row['scope']}"
                     + (f"  in {','.join(row['folders'])}" if row["folders"] else "")
                     + (f"  as {row['agent']}" if row["agent"] else "")
                     + f"  added {row['created']}"
                     + (f"  revoked {row['revoked']}" if row["revoked"] else "")
                     for row in data["tokens"])


@token_group.command("revoke")
@click.argument("name")
@TOKENS_OPTION
def token_revoke(name: str, tokens_path: Path | None) -> None:
    """Revoke the token named NAME (kept in the list, with when)."""
    from ..write.token_file import revoke_token

    path = tokens_path or default_tokens_path()
    record = revoke_token(path, name, now=clock.now())
    click.echo(f"token {name!r} revoked at {record.revoked}")
