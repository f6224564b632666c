"""Who writes: the agent an HTTP token writes as (``token add --agent``), recorded in what it
writes (a daily entry's ``by`` line, a fact's history line, a new note's ``recorded_by``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from ..errors import UsageError
from ..model import Note
from ..vault import Vault

_AUTHOR: ContextVar[str | None] = ContextVar("vaultmem_author", default=None)


@contextlib.contextmanager
def written_by(agent: str | None) -> Iterator[None]:
    """Writes inside are made by ``agent`` (None: by no one named)."""
    token = _AUTHOR.set(agent)
    try:
        yield
    finally:
        _AUTHOR.reset(token)


def author_note(vault: Vault) -> Note | None:
    """The agent note of the agent writing now (None when no agent is named); an agent the
    vault has no note for is refused, with the command that creates it."""
    agent = _AUTHOR.get()
    return None if agent is None else vault.note(agent, kind="agent")


def agent_for(vault: Vault, agent: str | None) -> str | None:
    """The agent a lesson or learning is for: ``agent`` when given, else the one writing; a
    token that writes as one agent cannot write as another."""
    writing = author_note(vault)
    if writing is None or agent is None:
        return agent or (writing.id if writing else None)
    if vault.note(agent, kind="agent").id != writing.id:
        raise UsageError(f"this token writes as {writing.title}, not {agent}; leave agent out, "
                         "or use a token made for that agent (vaultmem token add NAME --scope "
                         f"write --agent {agent})")
    return writing.id
