"""Apply a text change to one note: secret guard, check before writing, CAS write, re-read."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ..errors import VaultmemError
from ..model import Json, Note, Problem
from ..read.fences import split
from ..read.parse import parse_note
from ..secrets import check_text
from ..vault import Vault
from .files import update
from .note_file import read_text

Check = Callable[[Note], str | None]  # returns what is wrong, or None
YAML_PROBLEM = "invalid YAML frontmatter: "  # how read.frontmatter words a YAML error


class WriteRefused(VaultmemError):
    """A write would not say what it was meant to say; nothing was written."""


@dataclass
class WriteResult:
    """What a write did (or, with ``--dry-run``, would do)."""

    action: str
    id: str
    path: str
    version: int | None = None
    messages: list[str] = field(default_factory=list)
    diff: str | None = None
    conflict: bool = False

    def to_dict(self) -> Json:
        """JSON-ready data (``--json`` output of write commands)."""
        return asdict(self)


def guard(vault: Vault, *texts: str | None, where: str = "text") -> None:
    """Refuse (SecretRefused) when any text holds a credential."""
    for text in texts:
        if text:
            check_text(text, vault.config.secret_patterns, where=where)


def diff_of(rel: str, before: str | None, after: str) -> str:
    """A unified diff of one note."""
    old = (before or "").splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    label = "/dev/null" if before is None else f"a/{rel}"
    return "".join(difflib.unified_diff(old, new, label, f"b/{rel}"))


def checked(vault: Vault, rel: str, change: Callable[[str | None], str | None],
            check: Check | None) -> Callable[[str | None], str | None]:
    """``change`` followed by parsing the new text and running ``check`` on it."""

    def run(text: str | None) -> str | None:
        after = change(text)
        if after is None or after == text:
            return after
        guard(vault, *_added(text, after), where=rel)  # whatever a write adds, keys included
        note = parse_note(rel, after.encode("utf-8"), vault.config)
        had = _problems(vault, rel, text)
        new_problems = {p.kind for p in note.problems} - {p.kind for p in had}
        problem = (_unusable_frontmatter(text, after, had)
                   or (f"the note would not parse cleanly ({', '.join(sorted(new_problems))})"
                       if new_problems else check(note) if check else None))
        if problem:
            raise WriteRefused(f"{rel}: {problem}; nothing was written")
        return after

    return run


def _added(before: str | None, after: str) -> list[str]:
    """The lines ``after`` has that ``before`` did not."""
    old = set((before or "").splitlines())
    return [line for line in after.splitlines() if line not in old]


def _problems(vault: Vault, rel: str, text: str | None) -> list[Problem]:
    """The problems the note already had (an edit may keep, never add, problems)."""
    if text is None:
        return []
    return parse_note(rel, text.encode("utf-8"), vault.config).problems


def _unusable_frontmatter(before: str | None, after: str, had: list[Problem]) -> str | None:
    """Why an edit of the properties cannot be made safely, if it changes them: the note opens
    a frontmatter it never closes (a new block would be added above it), or its frontmatter
    does not parse (what is written could not be read back)."""
    if before is None or _properties(before) == _properties(after):
        return None
    if _properties(before) is None and before.removeprefix("\ufeff").split("\n", 1)[0] \
            .rstrip() == "---":
        return ("its frontmatter opens with --- on line 1 but no line --- closes it; add a "
                "--- line after the last property (or remove line 1 if it opens no properties), "
                "then try again")
    bad = next((p for p in had if p.kind == "frontmatter"), None)
    return None if bad is None else _unparsed(bad)


def _unparsed(problem: Problem) -> str:
    """What is wrong with frontmatter that does not parse, at the line the parser gave, and
    the fix."""
    where = f"line {problem.line}: " if problem.line else ""
    what, yaml, _ = problem.message.removeprefix(YAML_PROBLEM).partition("; fix the properties")
    if problem.message.startswith(YAML_PROBLEM) and yaml:
        return (f"its frontmatter is not valid YAML ({where}{what}), so a property written "
                "there would not read back; fix that line (quote a value holding : or #, close "
                "a [ or {), then try again")
    return f"its frontmatter cannot be read ({where}{problem.message}), then try again"


def _properties(text: str) -> list[str] | None:
    """The frontmatter lines of ``text`` (None: it has no frontmatter)."""
    return split(text.removeprefix("\ufeff"))[0]


def apply(vault: Vault, rel: str, change: Callable[[str | None], str | None], *,
          action: str, check: Check | None = None, dry_run: bool = False) -> WriteResult:
    """Run ``change`` on vault file ``rel`` (locked, compare-and-swap) and report it."""
    run = checked(vault, rel, change, check)
    note_id = rel.removesuffix(".md")
    if dry_run:
        before = read_text(vault.root, rel)  # a dry run refuses what the write would
        after = run(before)
        if after is None or after == before:
            return WriteResult("unchanged", note_id, rel)
        planned = {"created": "create", "updated": "update", "appended": "append"}[action]
        return WriteResult(f"would {planned}", note_id, rel, diff=diff_of(rel, before, after))
    done = update(vault.root, rel, run)
    if not done.changed:
        return WriteResult("unchanged", note_id, rel)
    messages = confirm(vault, rel, done.after or "")
    return WriteResult(action, note_id, rel, messages=messages)


def confirm(vault: Vault, rel: str, meant: str) -> list[str]:
    """Scan again, which puts the written file into the index; say so if the file already
    changed again."""
    path = vault.root / rel
    again = path.read_bytes() != meant.encode("utf-8")
    vault.refresh()
    vault.index  # noqa: B018 - the scan is the point: the next reader parses nothing
    return [f"{rel} was changed again by another editor right after this write"] if again else []
