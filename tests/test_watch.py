"""The watcher: real file changes in a copy of the sample vault, with bounded waits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest

from vaultmem.live.watch import Batcher, relevant, watch
from vaultmem.vault import Vault

from .test_cli import run

pytest.importorskip("watchdog")
CONTEXT = Path("_vaultmem") / "context" / "Rafael.md"


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds passed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def watching(sample: Path) -> Iterator[list[str]]:
    """A watcher for Rafael on the sample copy, running in a thread; yields its log lines."""
    logs: list[str] = []
    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(target=watch, args=(Vault(sample),), kwargs={
        "agents": ["Rafael"], "debounce": 0.3, "log": logs.append, "stop": stop,
        "ready": ready.set})
    thread.start()
    assert ready.wait(60)
    yield logs
    stop.set()
    thread.join(timeout=60)  # a rebuild under way finishes first
    assert not thread.is_alive()


def context(sample: Path) -> str:
    path = sample / CONTEXT
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_batcher_waits_for_quiet_but_not_forever() -> None:
    batch = Batcher(quiet=1.0, longest=5.0)
    batch.add("a.md", 0.0)
    batch.add("b.md", 0.5)
    assert batch.due(1.2) == []
    assert batch.due(1.6) == ["a.md", "b.md"] and batch.due(10.0) == []
    for t in range(7):  # a change every 0.9 s never leaves a quiet second
        batch.add("c.md", t * 0.9)
    assert batch.due(5.0) == ["c.md"]


def test_relevant_paths(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    assert relevant(root, str(root / "People" / "Lucy.md"), "_vaultmem/context") == "People/Lucy.md"
    for ignored in (".obsidian/app.json", ".trash/x.md", "_vaultmem/context/Rafael.md",
                    "_vaultmem", "Agents/.sync-tmp.md"):
        assert relevant(root, str(root / ignored), "_vaultmem/context") is None
    assert relevant(root, "/elsewhere/x.md", "_vaultmem/context") is None


def test_edit_create_rename_delete(sample: Path, watching: list[str]) -> None:
    with (sample / "Agents" / "Rafael.md").open("a", encoding="utf-8") as note:
        note.write("\n- Always double-check VAT numbers.\n")
    assert wait_for(lambda: "double-check VAT numbers" in context(sample))
    (sample / "Lessons" / "Rafael - Read stamps last.md").write_text(
        "---\ntype: lesson\nagent: \"[[Rafael]]\"\nstatus: confirmed\n---\n# Read stamps last\n\n"
        "**Rule:** read rubber stamps after the totals.\n", encoding="utf-8")
    assert wait_for(lambda: "Rafael - Read stamps last" in context(sample))
    os.rename(sample / "Lessons" / "Rafael - Read stamps last.md",
              sample / "Lessons" / "Rafael - Stamps come last.md")
    assert wait_for(lambda: "Rafael - Stamps come last" in context(sample)
                    and "Read stamps last]]" not in context(sample))
    os.remove(sample / "Lessons" / "Rafael - Stamps come last.md")
    assert wait_for(lambda: "Stamps come last" not in context(sample))
    assert all(" changed (" in line and "failed" not in line for line in watching)


def test_a_burst_is_one_rebuild_and_own_writes_do_not_loop(sample: Path,
                                                           watching: list[str]) -> None:
    for i in range(200):
        (sample / f"Burst {i}.md").write_text(f"Synced note {i} about [[Rafael]].\n")
    assert wait_for(lambda: len(watching) >= 1)
    (sample / "Marker.md").write_text("After the burst, [[Rafael]].\n")
    assert wait_for(lambda: len(watching) >= 2)  # a loop on its own writes would show here
    assert " 200 changed (" in watching[0] and " 1 changed (" in watching[1], watching
    assert len(watching) == 2


def test_files_vanishing_mid_burst(sample: Path, watching: list[str]) -> None:
    for i in range(50):
        path = sample / f"Temp {i}.md"
        path.write_text("half-synced [[Rafael]]\n")
        path.unlink()
    (sample / "Agents" / "Rafael.md").write_text(
        (sample / "Agents" / "Rafael.md").read_text() + "\n- Keep receipts for 7 years.\n")
    assert wait_for(lambda: "Keep receipts for 7 years" in context(sample))


class Watcher:
    """``vaultmem watch`` in a subprocess, its output lines collected as they come."""

    def __init__(self, sample: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "vaultmem", "--vault", str(sample), "watch", "--agent",
             "Rafael", "--debounce", "200"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(pipe, lines)) for pipe, lines
                        in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(pipe: IO[str], lines: list[str]) -> None:
        lines.extend(iter(pipe.readline, ""))

    def stop(self, sig: int) -> int:
        """Send ``sig``; the exit code once it ended (killed after a generous wait)."""
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=60)
        finally:
            self.proc.kill()
            for reader in self.readers:
                reader.join(10)
        return code


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_cli_watch_logs_and_stops_on_ctrl_c_or_sigterm(sample: Path, sig: int) -> None:
    watcher = Watcher(sample)
    try:
        assert wait_for(lambda: any("watching" in line for line in watcher.err))
        (sample / "Daily" / "2026-11-29.md").write_text("### 09:00 — Met [[Rafael]]\n")
        assert wait_for(lambda: any("updated" in line for line in watcher.out))
    finally:
        code = watcher.stop(sig)
    err = "".join(watcher.err)
    assert code == 0 and err.startswith(f"watching {sample} (Ctrl-C stops)\n"), err
    assert err.endswith("stopped\n") and "Traceback" not in err
    assert f"updated {CONTEXT.as_posix()}" in "".join(watcher.out)


def test_missing_watchdog_is_a_clear_error(sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "watchdog.observers", None)
    code, _, err = run(sample, "watch")
    assert code == 2 and err == ("Error: watch needs watchdog: pip install 'vaultmem[watch]' (or "
                                 "use --no-notes to keep only the index current)\n")
