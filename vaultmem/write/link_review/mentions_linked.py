"""Plain-text mentions of people and projects in a text about to be written, made links
(``--link-mentions``): the first mention of each, not in properties, code or a link."""

from __future__ import annotations

from ...check.mentions import link_for, names_among, pattern, prose, word_runs
from ...model import Note
from ...vault import Vault
from .outcome import LinkChange

MENTIONED = frozenset({"person", "project"})  # the notes whose mentions are linked


def link_mentions(vault: Vault, source: str, note: Note, written: list[str],
                   lines: set[int] | None, changes: list[LinkChange], linked: set[str]) -> None:
    """Link the first plain-text mention of each person and project the text names and does
    not link (``linked``) yet, not in its properties, a code block, a code span or a link."""
    done = linked | {source}
    body = body_start(written)
    fenced = False
    for number, line in enumerate(written, 1):
        fenced ^= line.lstrip().startswith(("```", "~~~"))
        if fenced or number < body or (lines is not None and number not in lines):
            continue
        raws = [c.after for c in changes if c.line == number] + [
            link.raw for link in note.links if link.line == number]
        text = prose(line, raws)
        names = {name: target for name, target in names_among(
            vault.store, set(word_runs(text))).items()
            if target not in done and vault.notes[target].type in MENTIONED}
        for name, target in sorted(names.items(), key=lambda item: -len(item[0])):
            found = pattern(name).search(text) if target not in done else None
            if found is None:
                continue
            done.add(target)
            link = link_for(vault.index.resolver.link_text(source, target, "shortest"),
                            found.group())
            written[number - 1] = line = line[:found.start()] + link + line[found.end():]
            text = text[:found.start()] + " " * len(link) + text[found.end():]
            changes.append(LinkChange(number, found.group(), link,
                                             f"mentions {target}"))


def body_start(lines: list[str]) -> int:
    """The 1-based line a note's body starts on (after its frontmatter, if any)."""
    if lines and lines[0].strip() == "---":
        closing = next((at for at, line in enumerate(lines[1:], 2)
                        if line.strip() in ("---", "...")), None)
        return closing + 1 if closing else 1
    return 1
