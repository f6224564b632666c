"""Curation commands: conflicts, resolve."""

from __future__ import annotations

import datetime as dt
import sys

import click

from ..caller import Caller
from ..check.conflicts import KINDS
from ..check.sorted_findings import by_kind, conflicts_sorted
from ..curate.kpis import Kpi
from ..errors import UsageError
from ..faces.text import left_out
from ..generate.conflicts_note import REPORT_PATH, conflicts_note
from ..model import Finding
from ..vault import Vault
from . import cli, emit, json_option, with_vault
from .write import report, write_options


def _text(findings: list[Finding]) -> str:
    """Each finding: kind and id, message, suggestion."""
    if not findings:
        return "No conflicts."
    rows = []
    for item in findings:
        rows += [f"{item.kind} {item.id}", f"  {item.message}", f"  -> {item.suggestion}"]
    kinds = ", ".join(f"{kind} {count}" for kind, count in by_kind(findings).items())
    rows.append(f"{len(findings)} conflict(s): {kinds}.")
    return "\n".join(rows)


@cli.command("conflicts")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(KINDS),
              help="Only these kinds (repeatable).")
@click.option("--check", is_flag=True, help="Exit 1 when there are conflicts.")
@click.option("--write", is_flag=True, help=f"Write them to {REPORT_PATH}.")
@click.option("--all", "everything", is_flag=True,
              help="Also the findings it is unsure of (confidence below 0.5).")
@json_option
@with_vault
def conflicts_command(vault: Vault, kinds: tuple[str, ...], check: bool, write: bool,
                      everything: bool, as_json: bool) -> None:
    """Find conflicting memory: facts, decisions, superseded entries, duplicates, aliases,
    expired facts still cited, and sync tools' conflict copies.

    \b
    Example:
      vaultmem --vault sample_vault conflicts --check
    """
    split = conflicts_sorted(vault, kinds=kinds, everything=everything)
    findings = split.shown
    if write:
        from ..write.generated import write_generated

        result = write_generated(vault, REPORT_PATH, conflicts_note(findings))
        click.echo(f"{result.action} {result.path}", err=True)
    emit(split.to_dict(), lambda _: _text(findings) + left_out(split), as_json)
    if check and findings:
        sys.exit(1)


@cli.command("ignore")
@click.argument("finding", required=False)
@click.option("--kind", help="Ignore every finding of this kind instead.")
@click.option("--folder", help="Ignore every finding about notes in this folder instead.")
@click.option("--why", default="", help="Why, kept beside the line for whoever reads it later.")
@write_options
@with_vault
def ignore_command(vault: Vault, finding: str | None, kind: str | None, folder: str | None,
                   why: str, dry_run: bool, as_json: bool, when: dt.datetime,
                   caller: Caller) -> None:
    """Leave a finding (by its id), a whole kind or a folder out of lint's and conflicts'
    findings from now on, in .vaultmem/ignored.txt (which people may edit by hand).

    \b
    Example:
      vaultmem --vault sample_vault ignore --kind orphan --why "we link from dashboards"
    """
    from ..write.ignore_list import add_ignored

    given = [(what, value) for what, value in (("finding", finding), ("kind", kind),
                                               ("folder", folder)) if value]
    if len(given) != 1:
        raise UsageError("give one finding id, or --kind KIND, or --folder FOLDER")
    what, value = given[0]
    report([add_ignored(vault, what, value, why=why, dry_run=dry_run, caller=caller)],
           as_json)


@cli.command("resolve")
@click.argument("finding")
@click.option("--keep", metavar="NOTE", help="The note whose version wins.")
@click.option("--auto", is_flag=True, help="Let the stated rule pick the winner.")
@write_options
@with_vault
def resolve_command(vault: Vault, finding: str, keep: str | None, auto: bool, dry_run: bool,
                    as_json: bool, when: dt.datetime, caller: Caller) -> None:
    """Resolve a conflict: losers are superseded or kept as history, nothing is deleted.

    \b
    Example:
      vaultmem --vault sample_vault resolve fact-conflict:1a2b3c4d --keep "Lucy Tan" --dry-run
    """
    from ..curate.resolution import resolve

    if keep and auto:
        raise UsageError("use --keep NOTE or --auto, not both")
    report(resolve(vault, finding, keep=keep, auto=auto, dry_run=dry_run, when=when,
                   caller=caller), as_json)


def _kpi_text(rows: list[Kpi]) -> str:
    """One line per KPI: value against target, trend."""
    if not rows:
        return "No KPIs."
    out = []
    for row in rows:
        target = f" (target {row.target:g})" if row.target is not None else ""
        value = f"{row.value:g}" if row.value is not None else "?"
        out.append(f"[[{row.id}]]: {value} {row.unit}{target}, {row.trend}"
                   + (f", updated {row.updated}" if row.updated else ""))
    return "\n".join(line.replace("  ", " ") for line in out)


@cli.command("kpi")
@click.argument("name", required=False)
@click.argument("value", required=False)
@click.option("--target", help="New target value.")
@click.option("--unit", help="New unit.")
@click.option("--note", "comment", help="A comment for the history row.")
@write_options
@with_vault
def kpi_command(vault: Vault, name: str | None, value: str | None, target: str | None,
                unit: str | None, comment: str | None, dry_run: bool, as_json: bool,
                when: dt.datetime, caller: Caller) -> None:
    """List KPIs against their targets, or record a new value of one (history row, trend).

    \b
    Example:
      vaultmem --vault sample_vault kpi "OCR Accuracy" 0.88
    """
    from ..curate.kpis import kpi_of, kpis, record_kpi

    if name is not None and value is not None:
        result = record_kpi(vault, name, value, target=target, unit=unit, note=comment,
                            when=when, caller=caller, dry_run=dry_run)
        report([result], as_json)
        return
    rows = [kpi_of(vault, vault.note(name))] if name else kpis(vault)
    emit({"kpis": [row.to_dict() for row in rows]}, lambda _: _kpi_text(rows), as_json)
