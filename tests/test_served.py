"""Reading commands run by a running keeper, in a fork of it: the same output, exit code and
error as run alone, with the asking process's folder, clock and streams; anything else (no
keeper, other code, a write, another option) runs in the asking process."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from vaultmem import launch
from vaultmem.index.freshness.watcher_answer import socket_path, watcher_vouches
from vaultmem.live.forked import request_of
from vaultmem.locations import GO, NOT_HERE, PACKAGE, READY, RUN, code_marker, keeper_line
from vaultmem.vault import Vault

from .test_conflicts import LABELLED
from .test_keeper import keeper_on

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
ELAPSED = re.compile(r" in \d+\.\d+ s$", re.MULTILINE)  # scan's "Cache ... in 0.01 s"
NOT_SERVED = 200  # what ASK exits with when no keeper ran the command
ASK = ("import sys; from vaultmem.launch import served; code = served(sys.argv[1:]); "
       f"sys.exit({NOT_SERVED} if code is None else code)")


def by_keeper(args: list[str], cwd: Path | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``args`` asked of the vault's keeper only (exit NOT_SERVED when it did not run them)."""
    return subprocess.run([sys.executable, "-c", ASK, *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def alone(args: list[str], cwd: Path | None = None,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``args`` run by the asking process's own command line, whatever keeper runs."""
    return subprocess.run([sys.executable, "-m", "vaultmem", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120,
                          env={**(env or os.environ), "VAULTMEM_NO_KEEPER": "1"})


def outcome(done: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    """Exit code and streams, with scan's elapsed time (the one part that varies) masked."""
    return done.returncode, ELAPSED.sub(" in ? s", done.stdout), done.stderr


@pytest.fixture
def keeping(tmp_path: Path) -> Iterator[Path]:
    """A copy of the labelled conflicts vault with ``vaultmem watch --no-notes`` on it."""
    root = tmp_path / "kept"
    shutil.copytree(LABELLED, root)
    with keeper_on(root):
        yield root


@pytest.mark.parametrize("args", [
    ["show", "People/Ana"], ["search", "office city", "--json"], ["related", "Ana"],
    ["context", "--query", "where does Ben live"], ["lint", "--json"], ["scan"],
    ["conflicts", "--json"],
    ["show", "Nobody"],  # refused: exit 1, the same message
    ["search"],  # a usage error: exit 2, click's message
])
def test_a_served_command_answers_as_one_run_alone(keeping: Path, args: list[str]) -> None:
    served = by_keeper(["--vault", str(keeping), *args])
    assert served.returncode != NOT_SERVED, served.stderr
    assert outcome(served) == outcome(alone(["--vault", str(keeping), *args]))


def test_the_askers_folder_and_clock_are_the_commands(keeping: Path) -> None:
    earlier = {**os.environ, "VAULTMEM_NOW": "2024-06-01"}  # Ana's office fact still held
    for env in (None, earlier):
        served = by_keeper(["conflicts", "--json"], cwd=keeping / "People", env=env)
        assert served.returncode != NOT_SERVED
        assert outcome(served) == outcome(alone(["conflicts", "--json"], cwd=keeping / "People",
                                                env=env))
    people = keeping / "People"
    then, now = (by_keeper(["conflicts"], people, env).stdout for env in (earlier, None))
    assert "expired-used" in now and "expired-used" not in then


def test_a_change_just_before_the_command_is_in_its_answer(keeping: Path) -> None:
    (keeping / "Notes").mkdir(exist_ok=True)
    (keeping / "Notes" / "Fresh.md").write_text("a zebrafish sighting\n")
    served = by_keeper(["--vault", str(keeping), "search", "zebrafish"])
    assert served.returncode == 0 and "[[Notes/Fresh]]" in served.stdout


def test_many_commands_at_once_are_all_served(keeping: Path) -> None:
    args = ["--vault", str(keeping), "search", "Ana", "--json"]
    expected = outcome(alone(args))
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda _: outcome(by_keeper(args)), range(12)))
    assert results == [expected] * 12


@pytest.mark.parametrize("args", [
    ["context", "--agent", "Nobody", "--write"],  # writes a note: run by the asker
    ["--no-cache", "scan"], ["daily", "x"], ["watch"], ["--version"], [],
])
def test_writes_and_other_commands_are_never_served(keeping: Path, args: list[str]) -> None:
    assert by_keeper(["--vault", str(keeping), *args]).returncode == NOT_SERVED


def test_without_a_keeper_or_with_other_code_the_asker_runs_it(sample: Path,
                                                               keeping: Path) -> None:
    assert by_keeper(["--vault", str(sample), "scan"]).returncode == NOT_SERVED
    assert by_keeper(["--vault", str(keeping), "scan"],
                     env={**os.environ, "VAULTMEM_NO_KEEPER": "1"}).returncode == NOT_SERVED
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:  # another version's ask
        client.settimeout(60)
        client.connect(str(socket_path(Vault(keeping).store)))
        request = (b'{"argv": ["scan"], "cwd": "/", "env": {}, "code": "other", '
                   b'"encoding": "utf-8"}\n')
        socket.send_fds(client, [RUN + request], [0, 1, 2])
        assert client.recv(64) == NOT_HERE


def _ask_raw(keeping: Path, argv: list[str], stdout: int) -> socket.socket:
    """A run request for ``argv`` sent by hand, ``stdout`` as the asker's output."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(60)
    client.connect(str(socket_path(Vault(keeping).store)))
    request = json.dumps({"argv": ["--vault", str(keeping), *argv], "cwd": str(keeping),
                          "env": dict(os.environ), "code": code_marker(), "encoding": "utf-8"})
    socket.send_fds(client, [RUN + request.encode() + b"\n"], [0, stdout, 2])
    return client


def _pid_and_ready(client: socket.socket) -> bool:
    """True when the next two lines are the keeper's pid and the fork's READY, in any order."""
    lines = [keeper_line(client), keeper_line(client)]
    return sorted(line[:4] if line.startswith(b"pid ") else line for line in lines) == sorted(
        [b"pid ", READY])


def test_an_asker_that_gave_up_before_go_gets_nothing_run(keeping: Path) -> None:
    read_end, write_end = os.pipe()
    with _ask_raw(keeping, ["show", "People/Ana"], write_end) as client:
        os.close(write_end)
        assert _pid_and_ready(client)
    with os.fdopen(read_end, "rb") as output:  # every write end closes as the fork exits
        assert output.read() == b""
    read_end, write_end = os.pipe()
    with _ask_raw(keeping, ["show", "People/Ana"], write_end) as client:
        os.close(write_end)
        assert _pid_and_ready(client)
        client.sendall(GO)
        assert keeper_line(client) == b"exit 0\n"
    with os.fdopen(read_end, "rb") as output:
        assert b"People/Ana" in output.read()


@pytest.mark.parametrize("order", [("pid", "ready"), ("ready", "pid")])
def test_a_fork_ready_in_either_order_is_told_go(order: tuple[str, str]) -> None:
    asker, keeper = socket.socketpair()
    with asker, keeper:
        said = {"pid": b"pid 4242\n", "ready": READY}
        keeper.sendall(b"".join(said[line] for line in order))
        assert launch._started(asker) == 4242


def test_a_fork_stuck_before_it_is_ready_is_killed_and_the_asker_runs_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launch, "READY_SECONDS", 0.2)
    stuck = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    asker, keeper = socket.socketpair()
    with asker, keeper:
        keeper.sendall(f"pid {stuck.pid}\n".encode())  # and the fork never says it is ready
        assert launch._started(asker) is None
    assert stuck.wait(timeout=30) == -9


def test_a_keeper_serves_and_keeps_only_the_code_it_started_with(tmp_path: Path) -> None:
    # a copy of the code, so that changing it here changes nothing another test process runs
    code = tmp_path / "code"
    shutil.copytree(PACKAGE, code / "vaultmem", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(code)}
    root = tmp_path / "kept"
    shutil.copytree(LABELLED, root)
    module = code / "vaultmem" / "text.py"
    asked = ["--vault", str(root), "scan"]
    with keeper_on(root, env=env, cwd=tmp_path):  # not the checkout: its code would come first
        before = module.stat()
        os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        assert by_keeper(asked, cwd=tmp_path, env=env).returncode == NOT_SERVED
        assert not watcher_vouches(Vault(root).store)  # nor does it keep the index
        os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert by_keeper(asked, cwd=tmp_path, env=env).returncode == 0


@pytest.mark.parametrize(("line", "valid"), [
    (b'{"argv": ["scan"], "cwd": "/", "env": {"A": "1"}, "code": "c", "encoding": "utf-8"}', True),
    (b'{"argv": ["scan", 3], "cwd": "/", "env": {}, "code": "c", "encoding": "utf-8"}', False),
    (b'{"argv": ["scan"], "cwd": "/", "env": {"A": 1}, "code": "c", "encoding": "utf-8"}', False),
    (b'{"argv": ["scan"], "cwd": "/", "env": {}, "code": "c"}', False),
    (b'["scan"]', False), (b"{not json", False), (b"", False),
])
def test_only_a_well_formed_request_is_run(line: bytes, valid: bool) -> None:
    assert (request_of(RUN + line + b"\n") is not None) is valid
