"""Commands that move notes and put changes back: rename, merge, undo."""

from __future__ import annotations

import click

from ..generate.context_note import context_follows
from ..vault import Vault
from ..write.merge import Merged, merge
from ..write.rename import Renamed, rename
from ..write.transaction import Record, undo
from . import cli, emit, json_option, with_vault

DRY_RUN = click.option("--dry-run", is_flag=True, help="Show the change as a diff; write nothing.")


def renamed_text(done: Renamed) -> str:
    """What a rename did (or, dry, would do, with its diff)."""
    notes = sum(c.before != c.after for c in done.changes)
    dry = done.record is None
    head = (f"{'Would rename' if dry else 'Renamed'} {done.old} -> {done.new}: "
            f"{done.links} link(s) in {notes} note(s) written again")
    if dry:
        return head + "; nothing was written\n" + done.diff().rstrip("\n")
    return head + " (vaultmem undo puts it back)"


@cli.command("rename")
@click.argument("note")
@click.argument("new")
@DRY_RUN
@json_option
@with_vault
def rename_command(vault: Vault, note: str, new: str, dry_run: bool, as_json: bool) -> None:
    """Rename or move NOTE to NEW (a name, a path, or a folder ending in /) and write every
    link to it again, showing what it showed (an agent's context note moves with it).

    Example: vaultmem --vault sample_vault rename "Invoice Inbox" "Invoice Inbox v2"
    """
    done = rename(vault, note, new, dry_run=dry_run, follows=context_follows(vault))
    emit(done.to_dict(), lambda _: renamed_text(done), as_json)


def merged_text(done: Merged) -> str:
    """What a merge did (or, dry, would do, with its diff)."""
    dry = done.record is None
    head = (f"{'Would merge' if dry else 'Merged'} {done.old} into {done.keep}: {done.links} "
            "link(s) written again")
    both = (f"\n  held both ways until settled: {', '.join(done.disagreeing)} (vaultmem "
            "conflicts)") if done.disagreeing else ""
    if dry:
        return head + "; nothing was written" + both + "\n" + done.diff().rstrip("\n")
    return head + " (vaultmem undo puts it back)" + both


@cli.command("merge")
@click.argument("keep")
@click.argument("old")
@click.option("--redirect", is_flag=True,
              help="Leave OLD as a note saying where it went, not in the trash.")
@click.option("--under", metavar="HEADING",
              help="Put OLD's text at the end of this section of KEEP (default: the end).")
@DRY_RUN
@json_option
@with_vault
def merge_command(vault: Vault, keep: str, old: str, redirect: bool, under: str | None,
                  dry_run: bool, as_json: bool) -> None:
    """Merge note OLD into note KEEP: aliases, tags and list properties joined, OLD's body
    under a heading, every link to OLD reaching KEEP; OLD to the trash.

    Example: vaultmem --vault sample_vault merge "DataFlow" "DataFlow - free beta" --dry-run
    """
    done = merge(vault, keep, old, redirect=redirect, under=under, dry_run=dry_run)
    emit(done.to_dict(), lambda _: merged_text(done), as_json)


def undone_text(record: Record, dry_run: bool) -> str:
    """What undo put back (or would)."""
    files = ", ".join(c.final for c in record.changes)
    verb = "Would put back" if dry_run else "Put back"
    return f"{verb} {record.what} ({record.when}): {files}"


@cli.command("undo")
@DRY_RUN
@json_option
@with_vault
def undo_command(vault: Vault, dry_run: bool, as_json: bool) -> None:
    """Put back the last rename or merge, every byte, unless a note it changed was changed
    since.

    Example: vaultmem --vault sample_vault undo --dry-run
    """
    record = undo(vault.root, dry_run=dry_run)
    data = {"undone": record.what, "when": record.when, "record": record.name,
            "dry_run": dry_run, "files": [c.final for c in record.changes]}
    emit(data, lambda _: undone_text(record, dry_run), as_json)
