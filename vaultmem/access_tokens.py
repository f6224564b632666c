"""Access tokens of the HTTP server: what each may do, kept hashed in a file outside the vault."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .caller import Caller
from .errors import ConfigError, UsageError

SCOPES = ("read", "write")
PREFIX = "vm_"  # tokens are recognisable in logs and by secret scanners
FILE_VERSION = 1


@dataclass(frozen=True)
class Grant:
    """What the bearer of a token may do: its name, its scope (``read`` or ``write``), the
    folders it may see (none: the whole vault) and the agent it writes as (none: unnamed)."""

    name: str
    scope: str
    folders: tuple[str, ...] = ()
    agent: str | None = None

    @property
    def may_write(self) -> bool:
        """True when the token may call the writing tools."""
        return self.scope == "write"

    def as_caller(self) -> Caller:
        """The caller a call made with this token is."""
        return Caller(self.name, self.may_write, self.folders, self.agent)


@dataclass(frozen=True)
class TokenRecord:
    """One token as stored: never the token, only its SHA-256; revoked ones are kept."""

    name: str
    digest: str
    scope: str
    created: str
    revoked: str | None = None
    folders: tuple[str, ...] = ()
    agent: str | None = None

    @property
    def grant(self) -> Grant:
        """What the token allows."""
        return Grant(self.name, self.scope, self.folders, self.agent)


def default_tokens_path() -> Path:
    """``$VAULTMEM_TOKENS``, else ``tokens.json`` in vaultmem's settings folder of this user."""
    if os.environ.get("VAULTMEM_TOKENS"):
        return Path(os.environ["VAULTMEM_TOKENS"]).expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(config) / "vaultmem" / "tokens.json"


def new_token() -> str:
    """A fresh random token (256 bits)."""
    return PREFIX + secrets.token_urlsafe(32)


def digest_of(token: str) -> str:
    """The stored form of ``token``: its SHA-256 (tokens are random, so no salt or slow hash
    adds anything)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matching_grant(records: list[TokenRecord], token: str) -> Grant | None:
    """The grant of the active token ``token`` is, or None; every stored digest is compared
    in constant time, so the time taken says nothing of which (or whether one) matched.

    >>> record = TokenRecord("ci", digest_of("vm_x"), "read", "2026-12-05T10:00:00Z")
    >>> matching_grant([record], "vm_x")
    Grant(name='ci', scope='read', folders=(), agent=None)
    >>> matching_grant([record], "vm_y") is None
    True
    """
    presented = digest_of(token)
    found = None
    for record in records:
        if hmac.compare_digest(record.digest, presented) and record.revoked is None:
            found = record.grant
    return found


def read_tokens(path: Path) -> list[TokenRecord]:
    """The tokens stored in ``path`` (none when it does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    try:
        data = json.loads(text)
        return [_record(item) for item in data["tokens"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path}: not a vaultmem tokens file ({exc}); move it aside and add "
                          "the tokens again with `vaultmem token add`") from exc


def _record(item: dict[str, Any]) -> TokenRecord:
    """One stored token, its fields checked."""
    record = TokenRecord(**{**item, "folders": tuple(item.get("folders") or ())})
    if record.scope not in SCOPES or not isinstance(record.digest, str):
        raise ValueError(f"token {record.name!r} has scope {record.scope!r}")
    if record.agent is not None and not isinstance(record.agent, str):
        raise ValueError(f"token {record.name!r} has agent {record.agent!r}")
    return record


def tokens_text(records: list[TokenRecord]) -> str:
    """The file that stores ``records``."""
    data = {"version": FILE_VERSION, "tokens": [asdict(record) for record in records]}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def check_token_name(name: str, records: list[TokenRecord]) -> None:
    """Refuse a name that is empty, has spaces or control characters, or is an active token's."""
    if not name or any(ch.isspace() or not ch.isprintable() for ch in name):
        raise UsageError(f"token name {name!r}: use letters, digits, '-' or '_' (no spaces)")
    if any(r.name == name and r.revoked is None for r in records):
        raise UsageError(f"a token named {name!r} exists; revoke it first (`vaultmem token "
                         f"revoke {name}`) or choose another name")


def checked_folders(text: str) -> tuple[str, ...]:
    """Vault folders given as ``People,Projects/Pilot`` (slashes around each are dropped).

    >>> checked_folders("People, /Projects/Pilot/")
    ('People', 'Projects/Pilot')
    """
    folders = tuple(part.strip().strip("/") for part in text.split(",") if part.strip())
    for folder in folders:
        parts = folder.split("/")
        if not folder or any(part in ("", ".", "..") for part in parts) or "\\" in folder:
            raise UsageError(f"folder {folder!r}: give vault folders as People or "
                             "Projects/Pilot, separated by commas")
    if not folders:
        raise UsageError("--folders is empty: name the vault folders, e.g. People,Projects")
    return folders
