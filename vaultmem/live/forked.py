"""Run a command for another process in a fork of this warm one: what ``vaultmem`` asks a running
keeper to do instead of starting Python, importing everything and listing the vault itself.

The asking process sends its arguments, folder and environment, and its standard input,
output and error (file descriptors over the Unix socket). The fork takes them as its own, runs
the command line there and exits with its exit code, which the keeper passes back.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from ..index.freshness.watcher_answer import trusted
from ..locations import GO, READY, keeper_line
from ..vault import Vault


class CommandLine(NamedTuple):
    """The command line a keeper runs for others: ``run`` reads ``sys.argv`` (and may raise
    SystemExit), ``warm`` readies this process for its reading commands on a vault."""

    run: Callable[[], None]
    warm: Callable[[Vault], None]


GO_SECONDS = 10.0  # an asker that has the fork's pid answers at once; else it gave up


def request_of(data: bytes) -> dict[str, Any] | None:
    """The request in ``data`` (one JSON line after the ``run`` line), None when malformed."""
    try:
        request = json.loads(data.split(b"\n", 2)[1])
    except (IndexError, ValueError):
        return None
    keys = {"argv": list, "cwd": str, "env": dict, "code": str, "encoding": str}
    ok = isinstance(request, dict) and all(isinstance(request.get(k), t) for k, t in keys.items())
    texts = ok and all(isinstance(arg, str) for arg in request["argv"]) and all(
        isinstance(value, str) for value in request["env"].values())
    return request if texts else None


def start(request: dict[str, Any], fds: list[int], client: socket.socket, *,
          command_line: CommandLine, socket_path: Path) -> None:
    """Fork; the child runs the request, a thread here tells ``client`` its pid, then its
    exit code (``client`` is closed when done)."""
    try:
        pid = os.fork()  # what this process's streams hold unwritten, the fork never writes
    except OSError:  # no memory for a fork: the asker sees the socket close and runs it
        for fd in fds:
            os.close(fd)
        client.close()
        raise
    if pid == 0:
        _child(request, fds, command_line, socket_path, client)
    for fd in fds:
        os.close(fd)
    threading.Thread(target=_report, args=(client, pid), name=f"vaultmem-run-{pid}",
                     daemon=True).start()


def _report(client: socket.socket, pid: int) -> None:
    """Tell ``client`` the child's pid, wait for it, tell its exit code."""
    with client:
        with contextlib.suppress(OSError):
            client.sendall(f"pid {pid}\n".encode())
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(OSError):
            client.sendall(f"exit {128 - code if code < 0 else code}\n".encode())


def _child(request: dict[str, Any], fds: list[int], command_line: CommandLine,
           socket_path: Path, client: socket.socket) -> NoReturn:
    """Once the asking process says go, become it (its streams, folder, environment) and run
    its command; if it gave up waiting, run nothing."""
    client.settimeout(GO_SECONDS)
    try:
        client.sendall(READY)
        go = keeper_line(client) == GO
    except OSError:
        go = False
    if not go:
        os._exit(0)
    code = 1
    try:
        _become(request, fds)
        trusted(socket_path)
        sys.argv = ["vaultmem", *request["argv"]]
        command_line.run()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    except BaseException as exc:  # whatever happens, the child ends with a code
        print(f"vaultmem: {exc.__class__.__name__}: {exc}", file=sys.stderr)
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
    os._exit(code)  # not the keeper's exit handlers: they would remove its socket


def _become(request: dict[str, Any], fds: list[int]) -> None:
    """Take the asking process's streams, folder, environment and signal handling."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in request["env"].items()})
    time.tzset()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    encoding = request["encoding"]
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)),
                                 encoding=encoding)
    sys.stdout = _writer(1, encoding)
    sys.stderr = _writer(2, encoding, errors="backslashreplace")


def _writer(fd: int, encoding: str, errors: str = "strict") -> io.TextIOWrapper:
    """A text stream on ``fd`` as Python makes one at start (line-buffered on a terminal)."""
    return io.TextIOWrapper(io.BufferedWriter(io.FileIO(fd, "w", closefd=False)),
                            encoding=encoding, errors=errors, line_buffering=os.isatty(fd))
