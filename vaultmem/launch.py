"""The ``vaultmem`` command: a reading command is run by the vault's keeper (``watch``, ``mcp``)
when one runs, in a fork of that warm process, so the answer costs what the query costs; else
(or with ``VAULTMEM_NO_KEEPER=1``) the command line runs here.

Only this much loads before asking: a keeper that is missing, busy with other code, or not
sure its index is current leaves the command to this process, and nothing is lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys

from .locations import (
    GO,
    KEEPER_SOCKET,
    NOT_HERE,
    READY,
    RUN,
    code_marker,
    hoisted,
    index_folder,
    keeper_line,
    named_vault,
)

# Commands that only read the vault (their --write, which writes a note, runs here).
SERVED = frozenset({"show", "search", "related", "context", "scan", "lint", "conflicts",
                    "graph"})
ASK_SECONDS = 5.0  # a keeper that does not take the command by then is left alone
READY_SECONDS = 10.0  # a fork that is not ready by then is stuck (seen after fork under faketime)


def main() -> None:
    """Console entry point."""
    code = served(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from .cli import main as run_here

    run_here()


def served(argv: list[str]) -> int | None:
    """The exit code of ``argv`` run by the vault's keeper, None when no keeper ran it."""
    vault = _vault_option(hoisted(argv))
    if vault is None or os.environ.get("VAULTMEM_NO_KEEPER"):
        return None
    root = named_vault(vault or None)
    path = index_folder(root) / KEEPER_SOCKET if root is not None else None
    if path is None or not path.exists():
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as keeper:
        keeper.settimeout(ASK_SECONDS)
        try:
            keeper.connect(str(path))
            socket.send_fds(keeper, [RUN + _request(argv) + b"\n"], [0, 1, 2])
            pid = _started(keeper)
            if pid is not None:
                keeper.sendall(GO)
        except (OSError, ValueError):
            return None  # the fork, if any, sees the closed socket and runs nothing
        return None if pid is None else _exit_code(keeper, pid)


def _vault_option(argv: list[str]) -> str | None:
    """The ``--vault`` value ("" when none) when ``argv`` is a served command, else None."""
    vault, at = "", 0
    while at < len(argv) and argv[at].startswith("-"):
        if argv[at] == "--vault" and at + 1 < len(argv):
            vault, at = argv[at + 1], at + 2
        elif argv[at].startswith("--vault="):
            vault, at = argv[at].partition("=")[2], at + 1
        else:
            return None  # --no-cache, --version, --help: this process
    served = at < len(argv) and argv[at] in SERVED and "--write" not in argv[at:]
    return vault if served else None


def _request(argv: list[str]) -> bytes:
    """What the keeper needs to run ``argv`` as this process would."""
    return json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ),
                       "code": code_marker(),
                       "encoding": getattr(sys.stdout, "encoding", None) or "utf-8"}).encode()


def _started(keeper: socket.socket) -> int | None:
    """The pid of the keeper's fork running the command once the fork is ready for GO; None
    when the keeper left it to us, or the fork did not get ready in time (it is killed, so
    that the command runs here and never twice)."""
    first = keeper_line(keeper)
    if first == NOT_HERE:
        return None
    keeper.settimeout(READY_SECONDS)
    try:  # the keeper's "pid N" and the fork's READY come in either order
        both = {first, keeper_line(keeper)}
    except OSError:
        both = {first}
    pid = next((int(line[4:]) for line in both if line.startswith(b"pid ")), None)
    if pid is not None and READY not in both:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        return None
    return pid


def _exit_code(keeper: socket.socket, pid: int) -> int:
    """Wait for the fork to end (passing it Ctrl-C and termination); its exit code."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda number, _: os.kill(pid, number))
    keeper.settimeout(None)
    try:
        line = keeper_line(keeper)
    except OSError:
        line = b""
    if not line.startswith(b"exit "):
        print("vaultmem: the keeper's process ended without an exit code", file=sys.stderr)
        return 1
    return int(line[5:])
