"""The door of the HTTP server: who is calling (bearer tokens), how often (429), and the limits
each call is held to."""

from __future__ import annotations

import ipaddress
import json
import math
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..access_tokens import Grant, TokenRecord, matching_grant, read_tokens
from ..errors import VaultmemError

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

GRANT_KEY = "vaultmem.grant"  # where the gate leaves a request's grant in its ASGI scope
OPEN = Grant("local", "write")  # a call on a loopback server that has no token configured


@dataclass(frozen=True)
class Limits:
    """What one call may ask of the server."""

    body_bytes: int = 1_048_576  # a request's body (413 above)
    results: int = 100  # ``limit`` of search and related
    budget: int = 20_000  # ``budget`` of context, in tokens
    calls_per_second: float = 20.0  # per token, with bursts of as many (429 above)
    call_wait: float = 30.0  # seconds a call may wait for its turn before it is refused
    sessions_per_token: int = 64  # MCP sessions one token may hold open (429 above)
    call_seconds: float = 10.0  # seconds a reading call may run before it is stopped
    token_calls: int = 1  # calls one token may have running at once; the others wait their turn


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


PROXY_HEADERS = (b"forwarded", b"x-forwarded-for", b"x-forwarded-host", b"x-forwarded-proto",
                 b"x-real-ip")  # a request that passed a proxy: it may come from anywhere
OpenSessions = Callable[[str], int]  # the sessions a token has open


class Gate:
    """ASGI middleware: a request needs a valid token (unless the server is open: loopback, no
    token ever configured, and the request made on this machine, not through a proxy), an
    Origin of this server if it names one, a turn within its token's call rate and room in its
    token's sessions; its grant goes on to the tools in the ASGI scope, and the SDK binds each
    session to the token that opened it."""

    def __init__(self, app: App, book: TokenBook, limits: Limits, *, loopback: bool,
                 open_sessions: OpenSessions = lambda name: 0) -> None:
        self.app, self.book, self.loopback, self.limits = app, book, loopback, limits
        self.rate = CallRate(limits.calls_per_second)
        self.open_sessions = open_sessions
        self.tokened = False  # once a token was active, the server never opens again

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: the session manager's start and stop
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        try:
            grant = self._grant(headers)
        except VaultmemError as exc:  # the tokens file was broken while serving
            await _refuse(send, 503, str(exc), [])
            return
        refusal = self._refusal(scope, headers, grant)
        if refusal is not None:
            await _refuse(send, *refusal)
            return
        assert grant is not None
        scope[GRANT_KEY] = grant
        if grant is not OPEN:
            scope["user"] = _user_of(grant)
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: dict[bytes, bytes], grant: Grant | None
                 ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """Why the gate answers this request itself (status, message, headers), or None."""
        if not _same_origin(headers):
            return 403, ("a web page of another site may not call this server (its Origin "
                         "header names another host)"), []
        if grant is OPEN and not _from_this_machine(scope, headers):
            return 403, ("this server has no token, so it answers only requests made on its "
                         "own machine, not through a proxy; add a token to serve others: "
                         "vaultmem token add NAME"), []
        if grant is None:
            return 401, ("a valid token is needed: send 'Authorization: Bearer <token>' "
                         "(tokens: vaultmem token add NAME)"), [
                             (b"www-authenticate", b'Bearer realm="vaultmem"')]
        wait = self.rate.wait_needed(grant.name, time.monotonic())
        if wait > 0:
            return 429, f"too many calls for token {grant.name!r}; retry later", [
                (b"retry-after", str(math.ceil(wait)).encode())]
        if _opens_session(scope, headers) and grant is not OPEN and \
                self.open_sessions(grant.name) >= self.limits.sessions_per_token:
            return 429, (f"token {grant.name!r} has {self.limits.sessions_per_token} sessions "
                         "open, the most one token may; reuse one, or end one (HTTP DELETE "
                         "with its Mcp-Session-Id) first"), [(b"retry-after", b"60")]
        return None

    def _grant(self, headers: dict[bytes, bytes]) -> Grant | None:
        """Who is calling: the token's grant, or OPEN on an open loopback server."""
        self.tokened = self.tokened or self.book.any_active()
        if self.loopback and not self.tokened:
            return OPEN
        return self.book.grant_for(headers.get(b"authorization", b"").decode("latin-1"))


def _opens_session(scope: Scope, headers: dict[bytes, bytes]) -> bool:
    """True for a request that would open a new MCP session (a POST naming none)."""
    return scope.get("method") == "POST" and b"mcp-session-id" not in headers


def _user_of(grant: Grant) -> Any:
    """The authenticated user the SDK sees: a session answers only the token that opened
    it (another token's requests to it are 404)."""
    from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
    from mcp.server.auth.provider import AccessToken

    return AuthenticatedUser(AccessToken(token=grant.name, client_id=grant.name,
                                         scopes=[grant.scope]))


def _from_this_machine(scope: Scope, headers: dict[bytes, bytes]) -> bool:
    """True when the request comes from this machine itself: a loopback peer, no proxy's
    header, and a Host (and Origin, if any) naming this machine, so that a web page that
    rebinds its own name to 127.0.0.1 cannot reach an open server either."""
    peer = (scope.get("client") or ("",))[0]
    host = headers.get(b"host", b"").decode("latin-1")
    origin = headers.get(b"origin", b"").decode("latin-1")
    return (_loopback_peer(str(peer)) and not any(h in headers for h in PROXY_HEADERS)
            and _loopback_name(host)
            and (not origin or _loopback_name(origin.partition("://")[2])))


def _same_origin(headers: dict[bytes, bytes]) -> bool:
    """True when the request names no Origin, or one of this machine or of the host it was
    sent to (as the proxy forwarded it): a browser page of another site is refused."""
    origin = headers.get(b"origin", b"").decode("latin-1").strip().lower()
    if not origin:
        return True
    netloc = origin.partition("://")[2]
    sent_to = {_host_part(headers.get(name, b"").decode("latin-1").strip().lower())
               for name in (b"host", b"x-forwarded-host")} - {""}
    return _loopback_name(netloc) or _host_part(netloc) in sent_to


def _host_part(netloc: str) -> str:
    """``memory.example.com`` of ``memory.example.com:443``, ``[::1]`` of ``[::1]:80``."""
    return netloc if netloc.endswith("]") else netloc.rsplit(":", 1)[0]


def _loopback_peer(address: str) -> bool:
    """True when the connection's far end is this machine (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _loopback_name(netloc: str) -> bool:
    """True for ``127.0.0.1:8765``, ``localhost``, ``[::1]:80`` and the like."""
    return _host_part(netloc).strip("[]") in ("127.0.0.1", "localhost", "::1")


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
