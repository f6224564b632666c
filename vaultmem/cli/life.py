"""Lifecycle commands: stale, archive, forget, restore, trash."""

from __future__ import annotations

import datetime as dt

import click

from ..caller import Caller
from ..vault import Vault
from . import cli, emit, json_option, with_vault
from .write import report, write_options


@cli.command("stale")
@json_option
@with_vault
def stale_command(vault: Vault, as_json: bool) -> None:
    """List entries not updated for 90 days and not referenced for 30, or past their expiry.

    The day counts are `stale_days` and `unreferenced_days` in .vaultmem/config.toml.
    References are links from recent daily notes, NOW.md, MEMORY.md and context notes.

    \b
    Example:
      vaultmem --vault sample_vault stale
    """
    from ..curate.lifecycle import stale

    rows = stale(vault)
    emit({"stale": [r.to_dict() for r in rows]},
         lambda _: "\n".join(f"[[{r.id}]]: {r.reason}" for r in rows) or "Nothing is stale.",
         as_json)


@cli.command("archive")
@click.argument("note")
@write_options
@with_vault
def archive_command(vault: Vault, note: str, dry_run: bool, as_json: bool,
                    when: dt.datetime, caller: Caller) -> None:
    """Mark a note `status: archived`; it stays where it is, so links keep working.

    \b
    Example:
      vaultmem --vault sample_vault archive "Use Tesseract for OCR"
    """
    from ..curate.lifecycle import archive

    report([archive(vault, note, when=when, caller=caller, dry_run=dry_run)], as_json)


@cli.command("forget")
@click.argument("note")
@click.option("--force", is_flag=True, help="Forget it even though other notes link to it.")
@click.option("--dry-run", is_flag=True, help="Say what would happen; change nothing.")
@json_option
@with_vault
def forget_command(vault: Vault, note: str, force: bool, dry_run: bool, as_json: bool) -> None:
    """Move a note to the vault's .trash/ (Obsidian's trash), recording where it came from.

    \b
    Example:
      vaultmem --vault sample_vault forget "Facts/DataFlow - free beta" --force
    """
    from ..curate.lifecycle import forget

    moved = forget(vault, note, force=force, dry_run=dry_run)
    emit({"moved": moved, "dry_run": dry_run},
         lambda _: f"{'would move' if dry_run else 'moved'} to {moved}", as_json)


@cli.command("restore")
@click.argument("note")
@click.option("--dry-run", is_flag=True, help="Say what would happen; change nothing.")
@json_option
@with_vault
def restore_command(vault: Vault, note: str, dry_run: bool, as_json: bool) -> None:
    """Put a forgotten note back where it was.

    \b
    Example:
      vaultmem --vault sample_vault restore "DataFlow - free beta"
    """
    from ..curate.lifecycle import restore

    origin = restore(vault, note, dry_run=dry_run)
    emit({"restored": origin, "dry_run": dry_run},
         lambda _: f"{'would restore' if dry_run else 'restored'} {origin}", as_json)


@cli.command("trash")
@click.option("--purge", is_flag=True, help="Delete what is older than the retention (30 days).")
@click.option("--dry-run", is_flag=True, help="Say what would happen; change nothing.")
@json_option
@with_vault
def trash_command(vault: Vault, purge: bool, dry_run: bool, as_json: bool) -> None:
    """List the notes in the trash; --purge deletes those past the retention (`trash_days`).

    \b
    Example:
      vaultmem --vault sample_vault trash
    """
    from ..curate.lifecycle import trash

    rows = trash(vault, purge=purge, dry_run=dry_run)
    gone = "  would be purged" if dry_run else "  purged"
    emit({"trash": rows, "dry_run": dry_run}, lambda _: "\n".join(
        f"{r['deleted']}  {r['name']}  (from {r['from']})" + (gone if r["purged"] else "")
        for r in rows) or "The trash is empty.", as_json)
