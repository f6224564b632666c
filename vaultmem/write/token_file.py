"""Adding and revoking access tokens in the tokens file (atomic, locked, readable by its owner
only)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

from ..access_tokens import (
    SCOPES,
    TokenRecord,
    check_token_name,
    digest_of,
    new_token,
    read_tokens,
    tokens_text,
)
from ..errors import UsageError
from .files import atomic_write
from .locks import file_lock


def add_token(path: Path, name: str, *, scope: str, folders: tuple[str, ...] = (),
              agent: str | None = None, now: dt.datetime) -> tuple[str, TokenRecord]:
    """Store a new token named ``name`` in ``path``, limited to ``folders`` if any, writing as
    ``agent`` if given; return it (shown this once) and its record."""
    if scope not in SCOPES:
        raise UsageError(f"scope {scope!r}: use one of {', '.join(SCOPES)}")
    if agent is not None and scope != "write":
        raise UsageError("--agent names who a token writes as; give it with --scope write")
    if agent is not None and (not agent.strip() or any(ch in agent for ch in "[]|#^\n")):
        raise UsageError(f"--agent {agent!r}: give the agent note's name, e.g. Rafael")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with file_lock(path.parent, path.name):
        records = read_tokens(path)
        check_token_name(name, records)
        token = new_token()
        record = TokenRecord(name, digest_of(token), scope, _stamp(now), folders=folders,
                             agent=agent.strip() if agent else None)
        atomic_write(path, tokens_text([*records, record]).encode("utf-8"), mode=0o600)
    return token, record


def revoke_token(path: Path, name: str, *, now: dt.datetime) -> TokenRecord:
    """Mark the active token ``name`` revoked (kept, with when); return its record."""
    with file_lock(path.parent, path.name):
        records = read_tokens(path)
        active = [r for r in records if r.name == name and r.revoked is None]
        if not active:
            names = sorted({r.name for r in records if r.revoked is None})
            raise UsageError(f"no active token named {name!r} in {path}"
                             + (f"; active: {', '.join(names)}" if names else ""))
        revoked = dataclasses.replace(active[0], revoked=_stamp(now))
        kept = [revoked if r is active[0] else r for r in records]
        atomic_write(path, tokens_text(kept).encode("utf-8"), mode=0o600)
    return revoked


def _stamp(moment: dt.datetime) -> str:
    """``moment`` in UTC, to the second (``2026-12-05T10:00:00Z``)."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
