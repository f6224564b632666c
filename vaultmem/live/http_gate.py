"""The door of the HTTP server: who is calling (bearer tokens), how often (429), and the limits
each call is held to."""

from __future__ import annotations

import contextvars
import json
import math
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import VaultmemError
from ..tokens import Grant, TokenRecord, matching_grant, read_tokens

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

GRANT_KEY = "vaultmem.grant"  # where the gate leaves a request's grant in its ASGI scope
LOCAL = Grant("local", "write")  # a call on a loopback server that has no token configured
# The grant of the tool call being run (None over stdio: the user's own process).
CURRENT_GRANT: contextvars.ContextVar[Grant | None] = contextvars.ContextVar(
    "vaultmem_grant", default=None)


@dataclass(frozen=True)
class Limits:
    """What one call may ask of the server."""

    body_bytes: int = 1_048_576  # a request's body (413 above)
    results: int = 100  # ``limit`` of search and related
    budget: int = 20_000  # ``budget`` of context, in tokens
    calls_per_second: float = 20.0  # per token, with bursts of as many (429 above)
    call_wait: float = 30.0  # seconds a call may wait for its turn before it is refused


class TokenBook:
    """The tokens file, read again whenever it changes (a token revoked is refused at once)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._seen: tuple[int, int, int] | None = None
        self._records: list[TokenRecord] = []
        self._lock = threading.Lock()

    def records(self) -> list[TokenRecord]:
        """The stored tokens as the file is now."""
        with self._lock:
            try:
                st = self.path.stat()
                seen: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
            except FileNotFoundError:
                seen = None
            if seen != self._seen:
                self._records = read_tokens(self.path) if seen else []
                self._seen = seen
            return self._records

    def any_active(self) -> bool:
        """True when some token is configured and not revoked."""
        return any(record.revoked is None for record in self.records())

    def grant_for(self, authorization: str | None) -> Grant | None:
        """The grant of an ``Authorization: Bearer ...`` header, None if it grants nothing."""
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        return matching_grant(self.records(), token.strip())


class CallRate:
    """Calls per second per caller, as token buckets holding one second's calls."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self._buckets: dict[str, tuple[float, float]] = {}  # caller: (calls left, when)

    def wait_needed(self, caller: str, now: float) -> float:
        """0 if ``caller`` may call now (counted), else the seconds until it may."""
        capacity = max(1.0, self.per_second)
        left, then = self._buckets.get(caller, (capacity, now))
        left = min(capacity, left + (now - then) * self.per_second)
        if left < 1.0:
            self._buckets[caller] = (left, now)
            return (1.0 - left) / self.per_second
        self._buckets[caller] = (left - 1.0, now)
        return 0.0


class Gate:
    """ASGI middleware: a request needs a valid token (unless the server is open: loopback and
    no token configured) and a turn within its token's call rate; its grant goes on to the
    tools in the ASGI scope."""

    def __init__(self, app: App, book: TokenBook, limits: Limits, *, loopback: bool) -> None:
        self.app, self.book, self.loopback = app, book, loopback
        self.rate = CallRate(limits.calls_per_second)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: the session manager's start and stop
            await self.app(scope, receive, send)
            return
        try:
            grant = self._grant(scope)
        except VaultmemError as exc:  # the tokens file was broken while serving
            await _refuse(send, 503, str(exc), [])
            return
        if grant is LOCAL and not _from_this_machine(scope):
            await _refuse(send, 403, "this server has no token and answers only pages of this "
                          "machine (Host and Origin 127.0.0.1, localhost or [::1]); add a token "
                          "to serve others: vaultmem token add NAME", [])
            return
        if grant is None:
            await _refuse(send, 401, "a valid token is needed: send 'Authorization: Bearer "
                          "<token>' (tokens: vaultmem token add NAME)",
                          [(b"www-authenticate", b'Bearer realm="vaultmem"')])
            return
        wait = self.rate.wait_needed(grant.name, time.monotonic())
        if wait > 0:
            await _refuse(send, 429, f"too many calls for token {grant.name!r}; retry later",
                          [(b"retry-after", str(math.ceil(wait)).encode())])
            return
        scope[GRANT_KEY] = grant
        await self.app(scope, receive, send)

    def _grant(self, scope: Scope) -> Grant | None:
        """Who is calling: the token's grant, or LOCAL on an open loopback server."""
        if self.loopback and not self.book.any_active():
            return LOCAL
        headers = dict(scope.get("headers") or [])
        value = headers.get(b"authorization", b"").decode("latin-1")
        return self.book.grant_for(value)


def _from_this_machine(scope: Scope) -> bool:
    """True when the request's Host (and Origin, if any) name this machine: a web page that
    rebinds its own name to 127.0.0.1 cannot reach an open server."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    origin = headers.get(b"origin", b"").decode("latin-1")
    return _loopback_name(host) and (not origin or _loopback_name(origin.partition("://")[2]))


def _loopback_name(netloc: str) -> bool:
    """True for ``127.0.0.1:8765``, ``localhost``, ``[::1]:80`` and the like."""
    name = netloc.rsplit(":", 1)[0] if not netloc.endswith("]") else netloc
    return name.strip("[]") in ("127.0.0.1", "localhost", "::1")


async def _refuse(send: Send, status: int, message: str,
                  headers: list[tuple[bytes, bytes]]) -> None:
    """Answer with ``status`` and a JSON body saying why."""
    body = json.dumps({"error": message}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


def grant_of_request(request: Any) -> Grant | None:
    """The grant the gate left on an HTTP request (None: not over HTTP)."""
    scope = getattr(request, "scope", None)
    return scope.get(GRANT_KEY) if isinstance(scope, dict) else None
