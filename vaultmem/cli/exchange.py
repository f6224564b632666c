"""Exchange commands: export and import the council-memory JSON."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import click

from ..caller import Caller
from ..errors import UsageError
from ..vault import Vault
from . import cli, emit, with_vault
from .write import report, write_options


@cli.command("export")
@click.option("--format", "fmt", type=click.Choice(["council-json"]), default="council-json",
              show_default=True, help="The shape of the file.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file (default: print).")
@with_vault
def export_command(vault: Vault, fmt: str, output: Path | None) -> None:
    """The structured memory (facts, decisions, KPIs, lessons, sessions) as one JSON file.

    \b
    Example:
      vaultmem --vault sample_vault export --format council-json -o memory.json
    """
    from ..curate.council import export_council
    from ..write.files import atomic_write

    text = json.dumps(export_council(vault), ensure_ascii=False, indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    atomic_write(output, text.encode("utf-8"))
    click.echo(f"wrote {output}", err=True)


@cli.command("import")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(["council-json"]))
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@write_options
@with_vault
def import_command(vault: Vault, fmt: str, file: Path, dry_run: bool, as_json: bool,
                   when: dt.datetime, caller: Caller) -> None:
    """Turn a council-memory JSON file into vault notes; what the vault has already is skipped.

    \b
    Example:
      vaultmem --vault sample_vault import council-json memory.json --dry-run
    """
    from ..curate.council_import import import_council

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise UsageError(f"{file}: not a JSON file ({exc}); export one with "
                         "`vaultmem export --format council-json`") from exc
    got = import_council(vault, data, dry_run=dry_run, when=when, caller=caller)
    if as_json:
        emit({"results": [r.to_dict() for r in got.results], "skipped": got.skipped}, str, True)
        return
    if got.results:
        report(got.results, False)
    click.echo(f"{len(got.results)} write(s); {len(got.skipped)} already in the vault.")
