"""Keep the index current while running, vouch for it to other vaultmem processes, and run
their reading commands.

Without a watcher every command reads the status of every file to know what changed (a
tenth of a second at 10,000 notes, a second at 100,000). A long-running process (``watch``,
``mcp``) sees changes through inotify instead: :class:`IndexKeeper` takes each change into
the index and answers other processes' question "is the index current?" on a socket in the
cache folder (see :mod:`vaultmem.index.freshness.watcher_answer`), so they skip that
reading. Given the command line, it also runs a reading command another process asks it to
run, in a fork of itself (:mod:`vaultmem.live.forked`, asked by :mod:`vaultmem.launch`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading

from ..errors import VaultmemError
from ..index.freshness.watcher_answer import (
    CURRENT,
    QUESTION,
    UNKNOWN,
    answered,
    answering,
    save_listing,
    socket_path,
)
from ..locations import NOT_HERE, RUN, code_marker
from ..vault import Vault
from . import forked
from .forked import CommandLine
from .inotify import VaultWatch

log = logging.getLogger(__name__)
TICK = 0.5  # seconds between looks at the system's change queue while nobody asks
REQUEST_BYTES, MAX_REQUEST = 65536, 1 << 20


class IndexKeeper:
    """The index of ``vault`` kept current in a thread, vouched for on a Unix socket, where
    (with ``command_line``) other processes' reading commands are run too."""

    def __init__(self, vault: Vault, *, command_line: CommandLine | None = None) -> None:
        self.vault = Vault(vault.root, config=vault.config, use_cache=vault.use_cache)
        self.command_line = command_line  # to run other processes' commands, in forks
        self.code = code_marker()  # of the code this process loaded: it serves only that
        self.outdated = False  # the code changed since: it keeps the index no more, for now
        self.watch = VaultWatch(self.vault.root)  # before the first scan: no change is missed
        self.path = socket_path(self.vault.store)
        self.server: socket.socket | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="vaultmem-index", daemon=True)
        self.dirty = True  # until the first take-in
        self.generation = -1  # of the index whose listing was stored last

    def start(self) -> bool:
        """Take the index in and start answering; False (and nothing started) when another
        process answers already, the system cannot report changes, or there is no socket."""
        if self.vault.store.memory or not self.watch.whole or not self._bind():
            self.watch.close()
            return False
        self.thread.start()  # it takes the index in first; questions wait in the backlog
        return True

    def close(self) -> None:
        """Stop answering and remove the socket."""
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        if self.server is not None:
            self.server.close()
            answered(self.path)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
        self.watch.close()

    def _bind(self) -> bool:
        """Listen on the socket unless a live process does (a dead one's socket is replaced)."""
        from ..index.freshness.watcher_answer import watcher_vouches
        from ..index.store import private_dir

        private_dir(self.path.parent)
        if self.path.exists() and watcher_vouches(self.vault.store, timeout=1.0):
            return False
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            server.bind(str(self.path))  # too long a path (over 107 bytes) fails here
            server.listen(16)
        except OSError as exc:
            log.warning("cannot vouch for the index at %s: %s", self.path, exc)
            server.close()
            return False
        server.settimeout(TICK)
        self.server = server
        answering(self.path)
        return True

    def _serve(self) -> None:
        """Answer questions; between them, take changes in as they come."""
        assert self.server is not None
        self.dirty = not self._take_in()
        if self.command_line is not None:
            self._warm(self.command_line)
        while not self.stop.is_set():
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                self._take_in_changes()
                continue
            except OSError:
                return  # closed
            with client:
                self._answer(client)

    def _warm(self, command_line: CommandLine) -> None:
        """Ready this process for the commands its forks run (they start with what it has)."""
        try:
            command_line.warm(self.vault)
        except Exception as exc:  # a fork then does that work itself; keeping goes on
            log.warning("could not ready the commands run for others: %s", exc)

    def _answer(self, client: socket.socket) -> None:
        """One question, one answer; a command to run is run in a fork (which answers)."""
        client.settimeout(1.0)
        with contextlib.suppress(OSError):
            data, fds, _, _ = socket.recv_fds(client, REQUEST_BYTES, 3)
            if data == QUESTION:
                client.sendall(CURRENT if self._take_in_changes() else UNKNOWN)
            elif data.startswith(RUN) and len(fds) == 3:
                self._run(client, data, fds)
                fds = []
            for fd in fds:
                os.close(fd)

    def _run(self, client: socket.socket, data: bytes, fds: list[int]) -> None:
        """Run the request in ``data`` with the asking process's streams ``fds`` in a fork of
        this process, when it runs the same code and the index holds every change."""
        while not data.endswith(b"\n") or data.count(b"\n") < 2:
            more = client.recv(REQUEST_BYTES)
            if not more or len(data) > MAX_REQUEST:
                break
            data += more
        request = forked.request_of(data)
        if (self.command_line is None or request is None or request["code"] != self.code
                or not self._take_in_changes()):
            for fd in fds:
                os.close(fd)
            client.sendall(NOT_HERE)
            return
        client.settimeout(None)
        forked.start(request, fds, socket.socket(fileno=os.dup(client.fileno())),
                     command_line=self.command_line, socket_path=self.path)

    def _take_in_changes(self) -> bool:
        """Take in what changed since the last look; False when the index may not be current
        (or vaultmem's code changed since this process started: it would keep an index of its
        own code, which commands of the new code rebuild)."""
        if self._outdated():
            return False
        stored_since = self.vault.store.generation() != self.generation  # by another process
        changes = self.watch.changes()
        if changes != set() or self.dirty or stored_since:  # dirty: the last one failed
            paths = None if self.dirty else changes  # after a failure, every file
            self.dirty = not (self.watch.whole and self._take_in(paths))
        return not self.dirty

    def _outdated(self) -> bool:
        """True while vaultmem's code is not the code this process loaded (said when seen)."""
        outdated = code_marker() != self.code
        if outdated and not self.outdated:
            log.warning("vaultmem's code changed since this process started: restart it to "
                        "keep the index again; until then commands check every file themselves")
        self.outdated = outdated
        return outdated

    def _take_in(self, paths: set[str] | None = None) -> bool:
        """Take the files at ``paths`` in (every file when None, parsing what changed) and
        store the listing; False on failure."""
        self.vault.refresh(paths)
        try:
            index = self.vault.index
        except (VaultmemError, OSError) as exc:  # a file vanished mid-scan: try on next ask
            log.warning("could not take the vault's changes in: %s", exc)
            return False
        save_listing(self.vault.store, index.listing, index.generation)
        self.generation = index.generation
        return True

