"""Who writes: the agent a caller writes as (an HTTP token's ``token add --agent``), recorded in
what it writes (a daily entry's ``by`` line, a fact's history line, a new note's
``recorded_by``)."""

from __future__ import annotations

from collections.abc import Mapping

from ..caller import Caller
from ..errors import UsageError
from ..model import Note
from ..text import stamp_line, stamp_part
from ..vault import Vault
from .apply import TextRefused


def author_note(vault: Vault, caller: Caller) -> Note | None:
    """The agent note of the agent ``caller`` writes as (None when it names none); an agent
    the vault has no note for is refused, with the command that creates it."""
    return None if caller.agent is None else vault.note(caller.agent, kind="agent")


def agent_for(vault: Vault, agent: str | None, caller: Caller) -> str | None:
    """The agent a lesson or learning is for: ``agent`` when given, else the one ``caller``
    writes as; a token that writes as one agent cannot write as another."""
    writing = author_note(vault, caller)
    if writing is None or agent is None:
        return agent or (writing.id if writing else None)
    if vault.note(agent, kind="agent").id != writing.id:
        raise UsageError(f"this token writes as {writing.title}, not {agent}; leave agent out, "
                         "or use a token made for that agent (vaultmem token add NAME --scope "
                         f"write --agent {agent})")
    return writing.id


def refuse_stamp_lines(text: str, where: str) -> None:
    """Refuse (TextRefused) a text with a line that reads as a stamp (:func:`stamp_line`):
    only the writer says which agent wrote an entry."""
    line = stamp_line(text)
    if line is not None:
        shown = text.splitlines()[line - 1].strip()
        raise TextRefused(f"{where}, line {line} ({shown!r}) would read as the stamp saying "
                          "which agent wrote the entry, which only the writer puts there; say "
                          f"it within a sentence (approved {shown}) or quote it (> {shown}); "
                          "nothing was written")


def refuse_stamp_parts(where: str, texts: Mapping[str, str | None]) -> None:
    """Refuse (TextRefused) texts (by what they are) that would name a writer where a
    history line names the agent who wrote it (:func:`stamp_part`)."""
    for what, text in texts.items():
        if text and stamp_part(text):
            raise TextRefused(f"{where}: {what} {text!r} holds a stamp (by [[...]]) where a "
                              "## History line names the agent who recorded a value, which only "
                              "the writer puts there; leave it out (a token made for an agent "
                              "stamps its writes); nothing was written")
