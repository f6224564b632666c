"""Tool calls answered by worker processes that each keep the vault's index warm: an HTTP
server with several cores answers as many calls at once (threads in one process would take
turns under Python's interpreter lock)."""

from __future__ import annotations

import concurrent.futures
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool

from ..config import Config
from ..tokens import Grant
from ..vault import Vault
from ..write.author import written_by
from .http_gate import CURRENT_GRANT
from .mcp_tools import ToolError, busy
from .mcp_write import WriteTools

log = logging.getLogger(__name__)
ORPHAN_CHECK_SECONDS = 0.5  # how often a worker checks that the server that started it runs

_worker_tools: WriteTools | None = None  # the tools of this process, when it is a worker


class ToolPool:
    """``workers`` processes, each with its own :class:`WriteTools` on the vault (its own
    watch of the files, the index shared on disk); a call goes to the first free one."""

    def __init__(self, vault: Vault, *, workers: int, watch: bool,
                 call_wait: float | None) -> None:
        self.setup = (vault.root, vault.config, vault.use_cache, watch)
        self.workers = workers
        self.call_wait = call_wait
        self.turns = threading.BoundedSemaphore(workers)  # a call holds one while it runs
        self._lock = threading.Lock()
        self._executor = self._started()

    def _started(self) -> concurrent.futures.ProcessPoolExecutor:
        """A pool whose workers have read the index (a process forked from this one, which
        runs threads, could inherit a lock held by one of them: they start afresh)."""
        executor = concurrent.futures.ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(*self.setup, os.getpid()))
        for _ in range(self.workers):  # all of them start now, not at the first calls
            executor.submit(_warm)
        return executor

    def tool(self, name: str, like: Callable[..., str]) -> Callable[..., str]:
        """A function with the signature of ``like`` that calls the tool ``name`` in a
        worker, as the caller's token."""
        @functools.wraps(like)
        def call(**arguments: object) -> str:
            return self.call(name, arguments)
        return call

    def call(self, name: str, arguments: dict[str, object]) -> str:
        """Tool ``name``'s answer from a free worker; a call that waited ``call_wait`` seconds
        for one is refused (one that started is never cut short: writes are whole). If its
        worker dies, new workers take the next calls."""
        if not self.turns.acquire(timeout=-1 if self.call_wait is None else self.call_wait):
            raise busy(self.call_wait)
        try:
            return self._answered(name, arguments)
        finally:
            self.turns.release()

    def _answered(self, name: str, arguments: dict[str, object]) -> str:
        """Tool ``name``'s answer from the worker that takes it."""
        executor = self._executor
        try:
            future = executor.submit(_call, name, arguments, CURRENT_GRANT.get())
        except BrokenProcessPool:  # a worker died between calls: nothing of this one ran
            self._restart(executor)
            executor = self._executor
            future = executor.submit(_call, name, arguments, CURRENT_GRANT.get())
        try:
            return future.result()
        except BrokenProcessPool:
            self._restart(executor)
            raise ToolError("a worker process of the server stopped during this call (see "
                            "the server's log); call again") from None

    def _restart(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """New workers in place of a pool one of whose workers died (once, whoever saw it)."""
        with self._lock:
            if self._executor is broken:
                log.warning("a worker process stopped (killed, or out of memory); starting "
                            "%d new ones", self.workers)
                broken.shutdown(wait=False, cancel_futures=True)
                self._executor = self._started()

    def close(self) -> None:
        """Let the calls running end, then stop the workers."""
        self._executor.shutdown(wait=True, cancel_futures=True)


def _start_worker(root: os.PathLike[str], config: Config, use_cache: bool, watch: bool,
                  server: int) -> None:
    """Make this worker's tools; Ctrl-C is the server's to handle (it reaches the whole
    process group), and a worker whose server died exits."""
    global _worker_tools
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_tools = WriteTools(Vault(root, config=config, use_cache=use_cache), watch=watch)
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
    """Read the index, so that the first call does not."""
    assert _worker_tools is not None
    with _worker_tools.fresh():
        pass


def _call(name: str, arguments: dict[str, object], grant: Grant | None) -> str:
    """Tool ``name`` called in this worker as the token ``grant`` (None: no token)."""
    assert _worker_tools is not None
    token = CURRENT_GRANT.set(grant)
    try:
        with written_by(grant.agent if grant is not None else None):
            answer: str = getattr(_worker_tools, name)(**arguments)
            return answer
    finally:
        CURRENT_GRANT.reset(token)
