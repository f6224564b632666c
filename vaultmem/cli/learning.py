"""The learning loop's commands: learn, capture, and the nightly reflect."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import click

from ..caller import Caller
from ..vault import Vault

if TYPE_CHECKING:
    from ..curate.reflect import Reflection
from . import cli, emit, json_option, with_vault
from .write import report, results_text, write_options


@cli.command("learn")
@click.argument("kind", type=click.Choice(["correction", "error", "request"]))
@click.argument("text")
@click.option("--pattern-key", required=True, help="What groups recurring entries (ocr.deskew).")
@click.option("--context", help="What was going on.")
@click.option("--action", help="What to do next time (the rule when promoted).")
@click.option("--agent", help="The agent whose lesson a promotion goes to.")
@click.option("--area", help="Promote into Lessons/AREA.md instead.")
@write_options
@with_vault
def learn_command(vault: Vault, kind: str, text: str, pattern_key: str, context: str | None,
                  action: str | None, agent: str | None, area: str | None, dry_run: bool,
                  as_json: bool, when: dt.datetime, caller: Caller) -> None:
    """Log a correction, error or request in Learnings/; the 3rd entry of a key becomes a rule.

    The entry goes to LEARNINGS.md, ERRORS.md or FEATURE_REQUESTS.md with its Pattern-Key and
    Count; when the key reaches 3, the rule and its sources go into the agent's lesson of that
    key (or a lesson of that key, or Lessons/AREA.md) and the entries are marked promoted.

    \b
    Example:
      vaultmem --vault sample_vault learn correction "Check the currency symbol" \\
        --pattern-key ocr.currency-symbol --agent Rafael
    """
    from ..curate.learn import learn

    report(learn(vault, kind, text, pattern_key=pattern_key, context=context, action=action,
                 agent=agent, area=area, when=when, caller=caller, dry_run=dry_run), as_json)


@cli.command("capture")
@click.argument("message")
@click.option("--pattern-key", help="Group this correction or request with others of this key.")
@write_options
@with_vault
def capture_command(vault: Vault, message: str, pattern_key: str | None, dry_run: bool,
                    as_json: bool, when: dt.datetime, caller: Caller) -> None:
    """Record a user's message where it belongs, by its trigger phrases.

    Corrections ("that's wrong", "不对") and requests ("can you", "我想要") become learning
    entries, preferences ("I prefer", "下次请") go under ## Preferences in MEMORY.md, anything
    else into today's daily note. The phrases are [triggers] in .vaultmem/config.toml.

    \b
    Example:
      vaultmem --vault sample_vault capture "That's wrong, the total is 1249.50"
    """
    from ..curate.capture import capture

    got = capture(vault, message, pattern_key=pattern_key, when=when,
                  caller=caller, dry_run=dry_run)
    emit({"kind": got.kind, "summary": got.summary, "results": [r.to_dict() for r in got.results]},
         lambda _: f"{got.summary}\n{results_text(got.results)}", as_json)


@cli.command("reflect")
@click.option("--days", type=click.IntRange(min=1), default=7, show_default=True,
              help="How many days of daily notes count as recent.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@json_option
@with_vault
def reflect_command(vault: Vault, days: int, dry_run: bool, as_json: bool) -> None:
    """The nightly maintenance; safe from cron, and a second run changes nothing.

    Promotes learning keys seen 3 times, logs an earlier day's NOW completions in that day's
    note and clears them, lists stale entries in _vaultmem/Stale.md, rewrites the memory index
    and _vaultmem/Conflicts.md where they changed, and warns when MEMORY.md passes 30 lines.

    \b
    Example:
      vaultmem --vault sample_vault reflect --dry-run
    """
    from ..curate.reflect import reflect

    got = reflect(vault, days=days, dry_run=dry_run)
    emit(got.to_dict(), lambda _: _reflection_text(got, days), as_json)


def _reflection_text(got: Reflection, days: int) -> str:
    """What changed, the warnings, and a one-line summary."""
    rows = [f"{r.action} {r.path}" + "".join(f"\n  {m}" for m in r.messages)
            for r in got.changed]
    rows += [f"warning: {w}" for w in got.warnings]
    return "\n".join([*rows, f"{len(got.changed)} change(s); {got.daily_entries} daily "
                               f"entries in the last {days} days."])
