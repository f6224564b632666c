"""The text a person reads of what ``scan``, ``show``, ``lint`` and ``conflicts`` answer, shared
by the CLI and the MCP tools (no I/O, no click)."""

from __future__ import annotations

import json
from collections import Counter

from ..check.sorted_findings import Sorted, by_kind
from ..check.summaries import note_data
from ..ignored import PATH as IGNORED
from ..model import Finding, Json, Note
from ..vault import Vault

SHOWN_PROBLEMS = 10  # listed by scan; the rest are counted by kind


def scan_text(summary: Json, *, shown: str | None = None) -> str:
    """The readable form of :func:`scan_summary` (``shown``: the vault path as given)."""
    links, cache = summary["links"], summary["cache"]
    types = ", ".join(f"{kind} {count}" for kind, count in summary["by_type"].items()) or (
        "no Markdown notes here; is this the vault's root folder?")
    skipped = ", ".join(f"{kind} {count}" for kind, count in summary["skipped"].items())
    lines = [
        f"Vault   {shown or summary['vault']}",
        f"Notes   {summary['notes']} ({types})",
        f"Skipped {skipped or 'none'}",
        f"Links   {links['total']}: {links['resolved']} resolved, {links['unresolved']} "
        f"unresolved, {links['ambiguous']} ambiguous, {links['embeds']} embeds, "
        f"{links['attachments']} to attachments",
        f"Tags    {summary['tags']['distinct']} distinct, {summary['tags']['uses']} uses",
        f"Fields  {summary['fields']} inline fields; {summary['attachments']} attachments",
        f"Cache   {cache['parsed']} parsed, {cache['reused']} reused, {cache['removed']} "
        f"removed in {cache['seconds']:.2f} s",
        f"Problems ({len(summary['problems'])})" + (":" if summary["problems"] else ""),
    ]
    unsure = sum(summary.get("unsure", {}).values())
    tail = [f"  (and {unsure} link(s) to notes not written yet: vaultmem lint --all)"] \
        if unsure else []
    return "\n".join(lines + _problem_lines(summary["problems"]) + tail)


def _problem_lines(problems: list[Json]) -> list[str]:
    """The first ``SHOWN_PROBLEMS`` problems, and how many more of each kind there are."""
    lines = [f"  {p['kind']:<15} {p['message']}" for p in problems[:SHOWN_PROBLEMS]]
    rest = Counter(p["kind"] for p in problems[SHOWN_PROBLEMS:])
    if rest:
        kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(rest.items()))
        lines.append(f"  ... and {sum(rest.values())} more ({kinds}); "
                      "vaultmem lint or scan --json lists them all")
    return lines


def note_with_text(vault: Vault, note: Note) -> str:
    """The readable form of the note, then its Markdown (credentials redacted)."""
    from ..secrets import redact

    body = redact(vault.note_text(note.id), vault.config.secret_patterns)
    return f"{show_text(note_data(vault, note))}\n\n---- {note.path} ----\n{body}"


def show_text(data: Json) -> str:
    """The readable form of :func:`note_data`."""
    out = [f"{data['id']}  ({data['type']})  {data['path']}"]
    if data["date"]:
        out.append(f"Date: {data['date']}")
    if data["aliases"]:
        out.append("Aliases: " + ", ".join(data["aliases"]))
    if data["tags"]:
        out.append("Tags: " + " ".join(f"#{t['name']}" for t in data["tags"]))
    if data["frontmatter"]:
        out.append("Frontmatter:")
        out += [f"  {k}: {json.dumps(v, ensure_ascii=False)}"
                for k, v in data["frontmatter"].items()]
    out += _section("Headings", [f"{_at(h)}{'#' * h['level']} {h['text']}"
                                 for h in data["headings"]])
    out += _section("Block ids", [f"{_at(b)}^{b['id']}" for b in data["block_ids"]])
    out += _section("Fields", [f"{_at(f)}{f['key']}:: {f['value']}" for f in data["fields"]])
    out += _section("Tasks", [f"{_at(t)}[{t['state']}] {t['text']}" for t in data["tasks"]])
    out += _section("Links", [f"{_at(link)}{link['raw']} -> "
                              f"{link['resolved'] or '(unresolved)'}"
                              + (" (ambiguous)" if link["ambiguous"] else "")
                              for link in data["links"]])
    out += _section("Backlinks", [f"{b['id']} {_at(b)}{b['raw']}" for b in data["backlinks"]])
    out += _section("Problems", [f"{_at(p)}{p['kind']}: {p['message']}"
                                 for p in data["problems"]])
    return "\n".join(out)


def _at(item: Json) -> str:
    """``L12 `` for an item on line 12; nothing for one with no line (a whole-file problem)."""
    return f"L{item['line']} " if item.get("line") is not None else ""


def _section(title: str, rows: list[str]) -> list[str]:
    """A titled, indented list; nothing when empty."""
    return [f"{title} ({len(rows)}):", *(f"  {row}" for row in rows)] if rows else []


def findings_text(findings: list[Finding]) -> str:
    """One line per finding, then its suggestion."""
    if not findings:
        return "No findings."
    rows = []
    for item in findings:
        rows.append(f"{item.kind:<15} {item.message}")
        if item.suggestion:
            rows.append(f"{'':<15} -> {item.suggestion}")
    kinds = ", ".join(f"{kind} {count}" for kind, count in by_kind(findings).items())
    rows.append(f"{len(findings)} finding(s): {kinds}.")
    return "\n".join(rows)


def left_out(split: Sorted) -> str:
    """Lines saying how many findings were left out as unsure or ignored ("" if none)."""
    lines = []
    for counts, why, how in ((split.unsure, "unsure", "--all lists them"),
                             (split.ignored, "ignored", f"see {IGNORED}")):
        if counts:
            kinds = ", ".join(f"{kind} {count}" for kind, count in counts.items())
            lines.append(f"{sum(counts.values())} {why} finding(s) left out ({kinds}): {how}.")
    if split.habits:
        lines.append("This vault's habits, not shown as mistakes (--all lists them):")
        lines += [f"  {habit.says()}" for habit in split.habits]
    return "".join(f"\n{line}" for line in lines)
