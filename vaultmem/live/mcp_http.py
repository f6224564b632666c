"""``vaultmem mcp --http``: the same tools over MCP's streamable HTTP, for agents on other
machines, behind tokens and limits."""

from __future__ import annotations

import functools
import ipaddress
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import MissingExtra, UsageError
from ..vault import Vault
from .forked import CommandLine
from .http_gate import Gate, Limits, TokenBook
from .keeper import IndexKeeper
from .mcp import build_server
from .tool_pool import ToolPool

HEADERS_SECONDS = 10.0  # a connection's time to send a request's headers
MAX_CONNECTIONS = 1_000  # connections open at once (503 above)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8765`` for IPv6; port 0 picks a free one) as (host, port).

    >>> parse_address("127.0.0.1:8765")
    ('127.0.0.1', 8765)
    >>> parse_address("[::1]:0")
    ('::1', 0)
    """
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--http {text!r}: give HOST:PORT, e.g. 127.0.0.1:8765")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """True when ``host`` is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_url(address: str) -> str:
    """The URL of the MCP endpoint a server started with ``--http address`` answers at.

    >>> http_url("127.0.0.1:8765")
    'http://127.0.0.1:8765/mcp'
    """
    host, port = parse_address(address)
    return f"http://{_url_host(host)}:{port}/mcp"


def serve_http(vault: Vault, address: str, *, tokens: Path, limits: Limits,
               read_only: bool = False, watch: bool = True, workers: int = 1,
               command_line: CommandLine | None = None,
               ready: Callable[[str], None] = lambda url: None) -> None:
    """Serve ``vault`` at ``address`` until stopped (SIGINT or SIGTERM), the calls answered by
    ``workers`` processes (1: by this one); ``ready`` gets the URL once the port is open. Off
    loopback, only with a token configured in ``tokens``."""
    host, port = parse_address(address)
    book = TokenBook(tokens)
    loopback = is_loopback(host)
    if not loopback and not book.any_active():
        raise UsageError(f"serving on {host} (not this machine only) needs a token; add one "
                         f"with `vaultmem token add NAME` (tokens file {tokens}), or serve on "
                         "127.0.0.1 behind a proxy")
    try:
        import uvicorn
    except ImportError as exc:
        raise MissingExtra("mcp --http needs the MCP SDK 2.x: pip install 'vaultmem[mcp]'") \
            from exc
    pool = None if workers == 1 else ToolPool(vault, workers=workers, watch=watch,
                                              call_wait=limits.call_wait,
                                              call_seconds=limits.call_seconds)
    server = build_server(vault, read_only=read_only, watch=watch, limits=limits, pool=pool)
    from mcp.server.transport_security import TransportSecuritySettings

    # The gate checks Host and Origin itself, only while no token is configured: behind a
    # proxy the Host is the public name, and a page cannot send a token it does not know.
    unchecked = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.streamable_http_app(host=host, max_request_body_size=limits.body_bytes,
                                     transport_security=unchecked)
    listening = _listen(host, port)
    gate = Gate(app, book, limits, loopback=loopback,
                open_sessions=functools.partial(sessions_of, server.session_manager))
    config = uvicorn.Config(gate, log_level="warning", timeout_graceful_shutdown=5,
                            http=headers_timed(), limit_concurrency=MAX_CONNECTIONS)
    keeper = IndexKeeper(vault, command_line=command_line) if watch else None
    if keeper is not None:
        keeper.start()
    # uvicorn stops gracefully on SIGINT or SIGTERM, then raises the signal again for the
    # handler it found: with this one, the server is closed below and the exit is 0.
    kept = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        bound = listening.getsockname()
        ready(f"http://{_url_host(host)}:{bound[1]}/mcp")
        uvicorn.Server(config).run(sockets=[listening])
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
        listening.close()
        if pool is not None:
            pool.close()
        if keeper is not None:
            keeper.close()


def sessions_of(manager: Any, name: str) -> int:
    """How many MCP sessions the token ``name`` has open (the SDK records each session's
    owner as it opens it)."""
    owners = getattr(manager, "_session_owners", {})
    return sum(1 for owner in list(owners.values()) if owner.get("client_id") == name)


def headers_timed() -> type[Any]:
    """uvicorn's HTTP/1.1 protocol, closing a connection that has not sent a whole request's
    headers within :data:`HEADERS_SECONDS` of opening (or of its last answer): a caller
    without a token cannot hold connections open by sending a byte now and then."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadersTimed(H11Protocol):
        """H11Protocol with a deadline for each request's headers."""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.headers_due = self.loop.call_later(HEADERS_SECONDS, self.headers_late)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.headers_due.cancel()
            self.headers_due = self.loop.call_later(HEADERS_SECONDS, self.headers_late)

        def connection_lost(self, exc: Exception | None) -> None:
            self.headers_due.cancel()
            super().connection_lost(exc)

        def headers_late(self) -> None:
            """Close the connection if it is still waiting for a request's headers."""
            if self.conn.their_state in (h11.IDLE, h11.DONE) and self.cycle_idle() \
                    and not self.transport.is_closing():
                self.transport.close()

        def cycle_idle(self) -> bool:
            """True when no request is being answered on this connection."""
            return self.cycle is None or self.cycle.response_complete

    return HeadersTimed


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``; an address in use says so."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=256)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror}); choose another "
                         "port, or stop what uses it") from exc


def _url_host(host: str) -> str:
    """``host`` as a URL writes it (IPv6 in brackets)."""
    return f"[{host}]" if ":" in host else host
