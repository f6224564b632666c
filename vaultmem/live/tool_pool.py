"""Tool calls answered by worker processes that each keep the vault's index warm: an HTTP
server with several cores answers as many calls at once (threads in one process would take
turns under Python's interpreter lock)."""

from __future__ import annotations

import concurrent.futures
import functools
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool

from ..caller import LOCAL, Caller
from ..config import Config
from ..index.sql import too_long
from ..vault import Vault
from .mcp_tools import ToolError, busy
from .mcp_write import WriteTools

log = logging.getLogger(__name__)
ORPHAN_CHECK_SECONDS = 0.5  # how often a worker checks that the server that started it runs
BACKSTOP_FACTOR = 2.0  # a reading call's worker is stopped at twice its queries' limit

_worker_tools: WriteTools | None = None  # the tools of this process, when it is a worker


class ToolPool:
    """``workers`` processes, each with its own :class:`WriteTools` on the vault (its own
    watch of the files, the index shared on disk); a call goes to the first free one. Each
    worker is a pool of its own: one that dies takes only its own call with it."""

    def __init__(self, vault: Vault, *, workers: int, watch: bool,
                 call_wait: float | None, call_seconds: float | None = None) -> None:
        self.setup = (vault.root, vault.config, vault.use_cache, watch, call_seconds)
        self.call_wait = call_wait
        self.call_seconds = call_seconds
        self.reading: set[str] = set()  # the tools whose calls may be stopped
        self._free: queue.Queue[concurrent.futures.ProcessPoolExecutor] = queue.Queue()
        self._all = [self._started() for _ in range(workers)]
        for worker in self._all:
            self._free.put(worker)

    def _started(self) -> concurrent.futures.ProcessPoolExecutor:
        """A worker that has read the index (a process forked from this one, which runs
        threads, could inherit a lock held by one of them: it starts afresh)."""
        worker = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(*self.setup, os.getpid()))
        worker.submit(_warm)  # it starts now, not at the first call
        return worker

    def tool(self, name: str, like: Callable[..., str], *, reading: bool) -> Callable[..., str]:
        """A function with the signature of ``like`` that calls the tool ``name`` (a
        ``reading`` one, or one that writes) in a worker, for the ``caller`` it is given."""
        if reading:
            self.reading.add(name)

        @functools.wraps(like)
        def call(*, caller: Caller = LOCAL, **arguments: object) -> str:
            return self.call(name, arguments, caller)
        return call

    def call(self, name: str, arguments: dict[str, object], caller: Caller = LOCAL) -> str:
        """Tool ``name``'s answer from a free worker; a call that waited ``call_wait`` seconds
        for one is refused (one that started is never cut short: writes are whole). A worker
        found dead before the call is replaced first; one that dies during it, after."""
        try:
            worker = self._free.get(timeout=self.call_wait)
        except queue.Empty:
            raise busy(self.call_wait) from None
        try:
            try:
                future = worker.submit(_call, name, arguments, caller)
            except BrokenProcessPool:  # it died while idle: nothing of this call ran
                worker = self._replaced(worker)
                future = worker.submit(_call, name, arguments, caller)
            try:
                return future.result(timeout=self._backstop(name))
            except BrokenProcessPool:
                worker = self._replaced(worker)
                raise ToolError("a worker process of the server stopped during this call "
                                "(see the server's log); call again") from None
            except concurrent.futures.TimeoutError:  # past its queries' own limit: stopped
                worker = self._replaced(worker, kill=True)
                raise ToolError(str(too_long(self.call_seconds or 0))) from None
        finally:
            self._free.put(worker)

    def _backstop(self, name: str) -> float | None:
        """Seconds after which a reading call's worker is stopped, if its queries' limit did
        not end it (a loop in Python); a write is never cut short."""
        if self.call_seconds is None or name not in self.reading:
            return None
        return self.call_seconds * BACKSTOP_FACTOR

    def _replaced(self, dead: concurrent.futures.ProcessPoolExecutor, *,
                  kill: bool = False) -> concurrent.futures.ProcessPoolExecutor:
        """A new worker in place of ``dead`` (with ``kill``, one still running, stopped)."""
        log.warning("a worker process stopped (killed, out of memory, or past its time); "
                    "starting a new one")
        for process in list(getattr(dead, "_processes", {}).values()) if kill else []:
            process.kill()
        dead.shutdown(wait=False, cancel_futures=True)
        worker = self._started()
        self._all[self._all.index(dead)] = worker
        return worker

    def close(self) -> None:
        """Let the calls running end, then stop the workers."""
        for worker in self._all:
            worker.shutdown(wait=True, cancel_futures=True)


def _start_worker(root: os.PathLike[str], config: Config, use_cache: bool, watch: bool,
                  call_seconds: float | None, server: int) -> None:
    """Make this worker's tools; Ctrl-C is the server's to handle (it reaches the whole
    process group), and a worker whose server died exits."""
    global _worker_tools
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_tools = WriteTools(Vault(root, config=config, use_cache=use_cache), watch=watch,
                               call_seconds=call_seconds)
    threading.Thread(target=_exit_when_orphaned, args=(server,), daemon=True,
                     name="vaultmem-orphan-check").start()


def _exit_when_orphaned(server: int) -> None:
    """Exit once the server process is gone (killed: it could not stop its workers), after
    the call running, if any (a write is whole)."""
    while os.getppid() == server:
        time.sleep(ORPHAN_CHECK_SECONDS)
    assert _worker_tools is not None
    with _worker_tools.lock:
        os._exit(0)


def _warm() -> None:
    """Read the index and find the open conflicts, so that the first call does not."""
    from ..check.conflicts import ready_conflicts

    assert _worker_tools is not None
    with _worker_tools.fresh(LOCAL) as vault:
        ready_conflicts(vault)


def _call(name: str, arguments: dict[str, object], caller: Caller) -> str:
    """Tool ``name`` called in this worker for ``caller``."""
    assert _worker_tools is not None
    answer: str = getattr(_worker_tools, name)(**arguments, caller=caller)
    return answer
