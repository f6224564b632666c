"""``vaultmem mcp --http``: the same tools over MCP's streamable HTTP, for agents on other
machines, behind tokens and limits."""

from __future__ import annotations

import ipaddress
import signal
import socket
from collections.abc import Callable
from pathlib import Path

from ..errors import MissingExtra, UsageError
from ..vault import Vault
from .forked import CommandLine
from .http_gate import Gate, Limits, TokenBook
from .keeper import IndexKeeper
from .mcp import build_server
from .tool_pool import ToolPool


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
                                              call_wait=limits.call_wait)
    server = build_server(vault, read_only=read_only, watch=watch, limits=limits, pool=pool)
    from mcp.server.transport_security import TransportSecuritySettings

    # The gate checks Host and Origin itself, only while no token is configured: behind a
    # proxy the Host is the public name, and a page cannot send a token it does not know.
    unchecked = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.streamable_http_app(host=host, max_request_body_size=limits.body_bytes,
                                     transport_security=unchecked)
    listening = _listen(host, port)
    config = uvicorn.Config(Gate(app, book, limits, loopback=loopback), log_level="warning",
                            timeout_graceful_shutdown=5)
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
