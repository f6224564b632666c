"""Where a vault and its index live, found without loading anything else: the command line's
first step, before it asks a running keeper to answer for it."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket

KEEPER_SOCKET = "watcher.sock"  # in the index's folder: where a vault's keeper answers
# A command asks the keeper with RUN and a JSON line, its streams passed along; the keeper
# answers NOT_HERE (run it yourself), or forks and says "pid N" and the fork READY; the
# asker answers GO (from then on the fork, not the asker, runs the command: one of them, never
# both), and the keeper says "exit CODE" when the fork ends.
RUN, NOT_HERE, READY, GO = b"run\n", b"no\n", b"ready\n", b"go\n"
PACKAGE = Path(__file__).resolve().parent


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/vaultmem`` (default ``~/.cache/vaultmem``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "vaultmem"


def index_folder(vault_root: Path) -> Path:
    """The cache folder of the index of the vault at ``vault_root``."""
    return cache_root() / hashlib.sha256(str(vault_root.resolve()).encode()).hexdigest()[:20]


def marked_vault(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``.obsidian/`` or ``.vaultmem/``."""
    here = start.resolve()
    return next((folder for folder in (here, *here.parents)
                 if (folder / ".obsidian").is_dir() or (folder / ".vaultmem").is_dir()), None)


def named_vault(explicit: str | None, start: Path | None = None) -> Path | None:
    """The vault a command names: ``explicit``, else ``$VAULTMEM_VAULT``, else the nearest
    marked folder at or above ``start`` (the current folder); None when that is no folder
    (:func:`vaultmem.config.find_vault` says why)."""
    chosen = explicit or os.environ.get("VAULTMEM_VAULT")
    if not chosen:
        return marked_vault(start or Path.cwd())
    path = Path(chosen).expanduser()
    return path.resolve() if path.is_dir() else None


def code_marker() -> str:
    """What the running code is: its Python, its folder and every module's size and change
    time. A keeper running other code than the asking command's does not answer for it."""
    digest = hashlib.sha256(f"{sys.version}|{PACKAGE}".encode())
    for folder, subfolders, files in os.walk(PACKAGE):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]


def keeper_line(keeper: socket.socket) -> bytes:
    """One line the keeper sends (with its newline; what came if it closed first), read a
    byte at a time so the next line stays for the next read."""
    data = b""
    while not data.endswith(b"\n") and len(data) < 64:
        chunk = keeper.recv(1)
        if not chunk:
            break
        data += chunk
    return data


GLOBAL_VALUED = ("--vault",)  # the group's options that take a value
GLOBAL_FLAGS = ("--no-cache",)


def hoisted(argv: list[str]) -> list[str]:
    """``argv`` with the global options written after the command moved before it, as the
    command line reads them (``scan --vault X`` is ``--vault X scan``); nothing after ``--``.

    >>> hoisted(["scan", "--json", "--vault", "v", "--no-cache"])
    ['--vault', 'v', '--no-cache', 'scan', '--json']
    >>> hoisted(["--vault", "v", "search", "x", "--vault=w"])
    ['--vault', 'v', '--vault=w', 'search', 'x']
    """
    at = 0
    while at < len(argv) and argv[at].startswith("-"):  # the options already before it
        at += 2 if argv[at] in GLOBAL_VALUED else 1
    front, rest = list(argv[:at + 1]), []
    tail = iter(argv[at + 1:])
    for arg in tail:
        if arg == "--":
            rest += [arg, *tail]
        elif arg in GLOBAL_VALUED:
            front[at:at] = [arg, next(tail, "")]
            at += 2
        elif arg in GLOBAL_FLAGS or arg.startswith(tuple(f"{o}=" for o in GLOBAL_VALUED)):
            front.insert(at, arg)
            at += 1
        else:
            rest.append(arg)
    return front + rest
