"""Apply a text change to one note: secret guard, check before writing, CAS write, re-read."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from .. import clock
from ..caller import LOCAL, STRICT, Caller, LinkPolicy
from ..errors import UsageError, VaultmemError
from ..model import Json, Note, Problem
from ..read.fences import split
from ..read.parse import parse_note
from ..secrets import check_text
from ..vault import Vault
from .files import update
from .link_review.outcome import LinkChange, LinkProblem
from .link_review.review import review_links
from .note_file import read_text

Check = Callable[[Note], str | None]  # returns what is wrong, or None
YAML_PROBLEM = "invalid YAML frontmatter: "  # how read.frontmatter words a YAML error


LINK_HISTORY = ".vaultmem/link-history.md"
LINK_HISTORY_HEADER = ("# Links vaultmem wrote otherwise than given\n\nOne line a link an agent "
                       "wrote: when, the note, the line, what was given, what was written and "
                       "why.\n\n")


class WriteRefused(VaultmemError):
    """A write would not say what it was meant to say; nothing was written."""


class TextRefused(UsageError):
    """A text given to a write would read as lines only the writer writes there (an entry's
    heading, the stamp of the agent who wrote it, a section of the board); nothing was
    written."""


class OutsideScope(WriteRefused):
    """A write would change a file outside the folders its writer may see; nothing was
    written."""


class LinkRefused(WriteRefused):
    """A link a write would add reaches no note, or another note than meant; nothing was
    written."""

    def __init__(self, rel: str, problems: list[LinkProblem]) -> None:
        self.problems = problems
        super().__init__(f"{rel}: nothing was written: " + "; ".join(
            _refusal(p) for p in problems) + "; or keep the links as written (--keep-links; "
            "MCP keep_links)")


def _refusal(problem: LinkProblem) -> str:
    """One refused link and the fix: the candidates to write instead."""
    if not problem.candidates:
        return f"{problem.link} (line {problem.line}): {problem.why}"
    meant = " or ".join(f"[[{c}]]" for c in problem.candidates)
    hint = "did you mean" if problem.why.startswith("no note") else "write"
    new = " (if it is a new note to be: --new-link; MCP new_link)" if hint == "did you mean" \
        else ""
    return f"{problem.link} (line {problem.line}): {problem.why}; {hint} {meant}?{new}"


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
    links: list[LinkChange] = field(default_factory=list)  # links written otherwise

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
            check: Check | None, links: list[LinkChange] | None = None,
            template: str | None = None, policy: LinkPolicy = STRICT
            ) -> Callable[[str | None], str | None]:
    """``change`` followed by reviewing the links it adds as ``policy`` says (those written
    otherwise go to ``links``; a new note's lines of ``template``, the owner's, are not its
    own), parsing the new text and running ``check`` on it."""

    def run(text: str | None) -> str | None:
        after = change(text)
        if after is None or after == text:
            return after
        guard(vault, *_added(text, after), where=rel)  # whatever a write adds, keys included
        had = _problems(vault, rel, text)
        meant = parse_note(rel, after.encode("utf-8"), vault.config)
        problem = _unusable_frontmatter(text, after, had) or _new_problems(meant, had) or (
            check(meant) if check else None)  # what was meant, before its links are reviewed
        if not problem and not meant.generated:  # a generated note's links are vaultmem's
            reviewed = _links_reviewed(vault, rel, text if text is not None else template,
                                       meant, after, links, policy)
            if reviewed != after:  # links written otherwise: the text to check is new
                after = reviewed
                problem = _new_problems(parse_note(rel, after.encode("utf-8"), vault.config),
                                        had)
        if problem:
            raise WriteRefused(f"{rel}: {problem}; nothing was written")
        return after

    return run


def _new_problems(note: Note, had: list[Problem]) -> str | None:
    """What ``note`` would not parse cleanly for that it did not before, if anything."""
    new = {p.kind for p in note.problems} - {p.kind for p in had}
    return f"the note would not parse cleanly ({', '.join(sorted(new))})" if new else None


def _links_reviewed(vault: Vault, rel: str, before: str | None, meant: Note, after: str,
                    changes: list[LinkChange] | None, policy: LinkPolicy) -> str:
    """``after`` (parsed: ``meant``) with the links on its added lines written as
    :func:`review_links` says; LinkRefused when one is refused."""
    old = set((before or "").splitlines())
    added = {number for number, line in enumerate(after.split("\n"), 1) if line not in old}
    review = review_links(vault, after, source=rel[:-3], lines=added,
                          policy=policy, parsed=meant)
    if review.problems:
        raise LinkRefused(rel, review.problems)
    if changes is not None:
        changes[:] = review.changes
    return review.text


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
          action: str, check: Check | None = None, dry_run: bool = False,
          template: str | None = None, caller: Caller = LOCAL) -> WriteResult:
    """Run ``change`` on vault file ``rel`` (locked, compare-and-swap) for ``caller`` and
    report it; ``template``: the text a new note starts from (its links are the owner's)."""
    if not caller.may_write:
        raise WriteRefused(f"{rel}: token {caller.name!r} may only read; nothing was written")
    if not caller.may_touch(rel):
        raise OutsideScope(f"{rel} is outside the folders this token may write "
                           f"({', '.join(caller.folders)}); write there with another token, "
                           "or ask for one that covers its folder")
    links: list[LinkChange] = []
    run = checked(vault, rel, change, check, links, template, caller.links)
    note_id = rel.removesuffix(".md")
    if dry_run:
        before = read_text(vault.root, rel)  # a dry run refuses what the write would
        after = run(before)
        if after is None or after == before:
            return WriteResult("unchanged", note_id, rel)
        planned = {"created": "create", "updated": "update", "appended": "append"}[action]
        return WriteResult(f"would {planned}", note_id, rel, diff=diff_of(rel, before, after),
                           messages=_link_lines(links), links=links)
    done = update(vault.root, rel, run)
    if not done.changed:
        return WriteResult("unchanged", note_id, rel)
    messages = _link_lines(links) + confirm(vault, rel, done.after or "")
    if links:
        try:
            update(vault.root, LINK_HISTORY, _logged(note_id, links))
        except VaultmemError as exc:  # the note is written: say so, do not fail the write
            messages.append(f"the links written otherwise were not added to {LINK_HISTORY}: "
                            f"{exc}")
    return WriteResult(action, note_id, rel, messages=messages, links=links)


def _logged(note_id: str, links: list[LinkChange]) -> Callable[[str | None], str]:
    """The change adding one line a link to the history of links written otherwise
    (``LINK_HISTORY``), links in code spans so none of them is a link there."""
    when = clock.now().isoformat(timespec="minutes")

    def add(old: str | None) -> str:
        text = old if old is not None else LINK_HISTORY_HEADER
        lines = [f"- {when} [[{note_id}]] line {c.line}: `{c.before}` -> `{c.after}` "
                 f"({c.why})" for c in links]
        return text + ("" if text.endswith("\n") else "\n") + "\n".join(lines) + "\n"

    return add


def _link_lines(links: list[LinkChange]) -> list[str]:
    """What a write says of the links it wrote otherwise."""
    return [f"line {c.line}: wrote {c.before} as {c.after}: {c.why}" for c in links]


def confirm(vault: Vault, rel: str, meant: str) -> list[str]:
    """Put the written file into the index (only it is read again); say so if the file
    already changed again."""
    path = vault.root / rel
    again = path.read_bytes() != meant.encode("utf-8")
    vault.refresh([rel])
    vault.index  # noqa: B018 - the scan is the point: the next reader parses nothing
    return [f"{rel} was changed again by another editor right after this write"] if again else []
