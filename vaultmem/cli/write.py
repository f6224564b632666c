"""Write commands: new, daily, now, fact, decide, lesson, and the seed's write/read."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import Any

import click

from .. import clock
from ..caller import LOCAL, Caller, LinkPolicy
from ..errors import UsageError
from ..vault import Vault
from ..write import entries, facts, journal, seed
from ..write.apply import WriteResult
from . import cli, emit, json_option, with_vault


def write_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--dry-run``, ``--json``, ``--date`` and ``--time``, passed on as ``dry_run``,
    ``as_json`` and ``when``; ``--keep-links``, ``--new-link`` and ``--link-mentions`` set how
    the write treats the links it adds (:mod:`vaultmem.write.link_review.review`), passed on in
    ``caller``, the vault's own user."""

    @functools.wraps(func)
    def wrapper(*args: Any, date: str | None, time: str | None, keep_links: bool,
                new_link: bool, link_mentions: bool, **kwargs: Any) -> Any:
        links = LinkPolicy(keep=keep_links, new=new_link, mentions=link_mentions)
        return func(*args, when=when_of(date, time), caller=LOCAL.linking(links), **kwargs)

    for option in reversed([
        click.option("--dry-run", is_flag=True, help="Show the change as a diff; write nothing."),
        click.option("--date", metavar="YYYY-MM-DD", help="Date to record (default: today)."),
        click.option("--time", metavar="HH:MM", help="Time to record (default: now)."),
        click.option("--keep-links", is_flag=True,
                     help="Write links as given (no link is rewritten or refused)."),
        click.option("--new-link", is_flag=True,
                     help="A link close to an existing note's name is to a new note: keep it."),
        click.option("--link-mentions", is_flag=True,
                     help="Also link the first plain-text mention of each person and project."),
    ]):
        wrapper = option(wrapper)
    return json_option(wrapper)


def when_of(date: str | None, time: str | None) -> dt.datetime:
    """The moment a write records: now, or the given date and time."""
    now = clock.this_minute()
    try:
        day = dt.date.fromisoformat(date) if date else now.date()
        at = dt.time.fromisoformat(time) if time else now.time()
    except ValueError as exc:
        raise UsageError(f"bad --date/--time ({exc}); use YYYY-MM-DD and HH:MM") from exc
    return dt.datetime.combine(day, at)


def report(results: Sequence[WriteResult], as_json: bool) -> None:
    """Print what was written (or would be, with a diff)."""
    emit({"results": [r.to_dict() for r in results]}, lambda _: results_text(results), as_json)


def results_text(results: Sequence[WriteResult]) -> str:
    """One line per write, its messages, and any diff."""
    rows = []
    for result in results:
        version = f" (version {result.version})" if result.version else ""
        rows.append(f"{result.action} {result.path}{version}")
        rows += [f"  {message}" for message in result.messages]
        if result.diff:
            rows.append(result.diff.rstrip("\n"))
    return "\n".join(rows)


def pairs(values: Sequence[str], option: str) -> list[tuple[str, str]]:
    """``key=value`` options split into pairs."""
    out = []
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{option} takes key=value, got {item!r}")
        out.append((key.strip(), value.strip()))
    return out


@cli.command("new")
@click.argument("kind", metavar="TYPE")
@click.argument("title")
@click.option("--field", "fields", multiple=True, metavar="KEY=VALUE", help="A property.")
@click.option("--link", "links", multiple=True, metavar="KEY=NOTE",
              help="A property linking a note (repeat a key for a list).")
@click.option("--body", help="Text added after the template's body.")
@click.option("--force", is_flag=True, help="Create even if a similar note exists.")
@write_options
@with_vault
def new(vault: Vault, kind: str, title: str, fields: tuple[str, ...], links: tuple[str, ...],
        body: str | None, force: bool, dry_run: bool, as_json: bool, when: dt.datetime,
        caller: Caller) -> None:
    """Create a note of TYPE (person, project, decision, ...) from its template.

    \b
    Example:
      vaultmem --vault sample_vault new person "Ana Ruiz" --field role=designer --link org=DataFlow
    """
    grouped: dict[str, list[str]] = {}
    for key, target in pairs(links, "--link"):
        grouped.setdefault(key, []).append(target)
    values = {key: facts.parse_value(value) for key, value in pairs(fields, "--field")}
    report([entries.new_note(vault, kind, title, fields=values, links=grouped, body=body,
                             force=force, dry_run=dry_run, when=when, caller=caller)], as_json)


@cli.command()
@click.argument("text")
@click.option("--title", help="Entry title (default: the start of the text).")
@write_options
@with_vault
def daily(vault: Vault, text: str, title: str | None, dry_run: bool, as_json: bool,
          when: dt.datetime, caller: Caller) -> None:
    """Append a timestamped entry to the daily note (created from its template).

    \b
    Example:
      vaultmem --vault sample_vault daily "OCR accuracy reached 0.88" --title "KPI check"
    """
    report([journal.append_daily(vault, text, title=title, when=when,
                                 caller=caller, dry_run=dry_run)], as_json)


@cli.command()
@click.argument("action", type=click.Choice(["set", "add", "done", "block", "unblock", "clear"]))
@click.argument("text", required=False)
@write_options
@with_vault
def now(vault: Vault, action: str, text: str | None, dry_run: bool, as_json: bool,
        when: dt.datetime, caller: Caller) -> None:
    """Maintain NOW.md: set the task, add priorities, mark done, block, clear a section.

    `done` also logs the completion to today's daily note; `clear` takes a section name
    (task, priorities, blockers, completions; default completions).

    \b
    Example:
      vaultmem --vault sample_vault now done "Ship the Xero export"
    """
    report(journal.now_update(vault, action, text, when=when,
                              caller=caller, dry_run=dry_run), as_json)


@cli.command()
@click.argument("entity", metavar="NOTE")
@click.argument("attribute")
@click.argument("value")
@click.option("--source", metavar="NOTE", help="Where the fact comes from.")
@click.option("--confidence", type=float, help="0 to 1.")
@click.option("--valid-from", metavar="YYYY-MM-DD", help="Since when the fact holds.")
@write_options
@with_vault
def fact(vault: Vault, entity: str, attribute: str, value: str, source: str | None,
         confidence: float | None, valid_from: str | None, dry_run: bool, as_json: bool,
         when: dt.datetime, caller: Caller) -> None:
    """Record a fact on an entity note; the previous value is kept in ## History.

    \b
    Example:
      vaultmem --vault sample_vault fact "Lucy Tan" timezone UTC+7 --source 2026-11-26
    """
    report([facts.record_fact(vault, entity, attribute, value, source=source,
                              confidence=confidence, valid_from=valid_from, when=when,
                              caller=caller,
                              dry_run=dry_run)], as_json)


@cli.command()
@click.argument("title")
@click.option("--topic", required=True, help="What the decision is about (compared for conflicts).")
@click.option("--by", metavar="PERSON", help="Who decided.")
@click.option("--supersedes", metavar="DECISION", help="The decision this one replaces.")
@click.option("--rationale", help="Why, in one sentence.")
@click.option("--status", default="proposed", show_default=True,
              type=click.Choice(["proposed", "approved", "rejected"]))
@click.option("--alternative", "alternatives", multiple=True, help="An option not taken.")
@click.option("--body", help="Text added after the template's body.")
@click.option("--force", is_flag=True, help="Create even if a similar note exists.")
@write_options
@with_vault
def decide(vault: Vault, title: str, topic: str, by: str | None, supersedes: str | None,
           rationale: str | None, status: str, alternatives: tuple[str, ...], body: str | None,
           force: bool, dry_run: bool, as_json: bool, when: dt.datetime, caller: Caller) -> None:
    """Record a decision; --supersedes marks the older one superseded.

    \b
    Example:
      vaultmem --vault sample_vault decide "Use Surya OCR" --topic ocr-engine --by "Lucy Tan" --supersedes "Use PaddleOCR"
    """
    report(entries.decide(vault, title, topic=topic, by=by, supersedes=supersedes,
                          rationale=rationale, status=status, alternatives=alternatives,
                          body=body, force=force, dry_run=dry_run, when=when,
                          caller=caller), as_json)


@cli.command()
@click.argument("title")
@click.option("--agent", required=True, help="The agent that learned it.")
@click.option("--pattern-key", help="A stable key for the pattern (e.g. ocr.deskew).")
@click.option("--applies-to", metavar="NOTE", help="Project or area it applies to.")
@click.option("--source", metavar="NOTE", help="Where it was learned.")
@click.option("--status", default="observing", show_default=True,
              type=click.Choice(["observing", "active", "confirmed"]))
@click.option("--body", help="The rule, written under the note's ## Rule.")
@click.option("--force", is_flag=True, help="Create even if a similar note exists.")
@write_options
@with_vault
def lesson(vault: Vault, title: str, agent: str, pattern_key: str | None,
           applies_to: str | None, source: str | None, status: str, body: str | None,
           force: bool, dry_run: bool, as_json: bool, when: dt.datetime, caller: Caller) -> None:
    """Record a lesson an agent learned.

    \b
    Example:
      vaultmem --vault sample_vault lesson "Rafael - Crop margins" --agent Rafael --pattern-key ocr.margins
    """
    report([entries.lesson(vault, title, agent=agent, pattern_key=pattern_key,
                           applies_to=applies_to, source=source, status=status, body=body,
                           force=force, dry_run=dry_run, when=when, caller=caller)], as_json)


@cli.command("write")
@click.option("--fact", "text", required=True, help="The fact, in one sentence.")
@click.option("--category", required=True,
              type=click.Choice(sorted(seed.CATEGORIES), case_sensitive=False))
@write_options
@with_vault
def write_command(vault: Vault, text: str, category: str, dry_run: bool, as_json: bool,
                  when: dt.datetime, caller: Caller) -> None:
    """Add a fact to MEMORY.md under its category (council-memory `write`).

    \b
    Example:
      vaultmem --vault sample_vault write --fact "Lucy targets bookkeepers with 5+ years" --category decisions
    """
    report([seed.write_fact(vault, text, category, when=when,
                            caller=caller, dry_run=dry_run)], as_json)


@cli.command("read")
@json_option
@with_vault
def read_command(vault: Vault, as_json: bool) -> None:
    """Print MEMORY.md and its category lists (council-memory `read`).

    \b
    Example:
      vaultmem --vault sample_vault read --json
    """
    emit(seed.read_memory(vault), lambda data: data["text"].rstrip("\n"), as_json)
