"""docs/deploy.md and its systemd units in docs/systemd/, checked against the real program.

Every unit is parsed, holds what the guide promises, and is shown in the guide exactly as it is
in its file. Its commands then run on a copy of the sample vault, with the unit's paths moved
there: the watch service starts, rebuilds on an edit and stops on the signal systemd sends it;
the nightly service exits 0 and changes nothing on its second run; the git service syncs two
clones and leaves a conflicting edit as conflict markers that lint and conflicts report. Where
systemd-analyze exists, the units also pass ``systemd-analyze verify``.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest

from .conftest import ROOT

DOCS = ROOT / "docs"
UNITS = DOCS / "systemd"
GUIDE = DOCS / "deploy.md"
VAULT = "/srv/vault"
CACHE = "/var/cache/vaultmem"
VAULTMEM = "/opt/vaultmem/bin/vaultmem"
WAIT = 60.0  # s; generous on purpose: every wait ends as soon as its event comes
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```$", re.S | re.M)

Unit = dict[str, list[tuple[str, str]]]


def unit_files(suffix: str = "") -> list[Path]:
    """The unit files in docs/systemd/ (of one kind, given its suffix)."""
    kinds = (".service", ".timer")
    return sorted(p for p in UNITS.glob(f"vaultmem-*{suffix}") if p.suffix in kinds)


def parse_unit(text: str) -> Unit:
    """Sections of a unit file as (key, value) lists; systemd allows a key more than once."""
    sections: Unit = {}
    current: list[tuple[str, str]] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        key, sep, value = line.partition("=")
        assert current is not None and sep, f"line {number} is not KEY=VALUE in a section: {raw!r}"
        assert not raw.rstrip().endswith("\\"), f"line {number}: keep each setting on one line"
        current.append((key.strip(), value.strip()))
    return sections


def values(unit: Unit, section: str, key: str) -> list[str]:
    """Every value of ``key`` in ``section``, in order."""
    return [v for k, v in unit.get(section, []) if k == key]


def one(unit: Unit, section: str, key: str) -> str:
    """The one value of ``key`` in ``section``."""
    found = values(unit, section, key)
    assert len(found) == 1, f"[{section}] {key}= is set {len(found)} times"
    return found[0]


def environment(unit: Unit) -> dict[str, str]:
    """The variables the unit's Environment= lines set."""
    env = {}
    for value in values(unit, "Service", "Environment"):
        for assignment in shlex.split(value):
            name, _, setting = assignment.partition("=")
            env[name] = setting
    return env


def load(path: Path) -> Unit:
    return parse_unit(path.read_text(encoding="utf-8"))


def localised(path: Path, vault: Path, cache: Path) -> Unit:
    """The unit with the server's vault and cache paths moved to this test's folders."""
    text = path.read_text(encoding="utf-8").replace(CACHE, str(cache)).replace(VAULT, str(vault))
    return parse_unit(text)


def command(line: str) -> list[str]:
    """An ExecStart= line as the argument list to run here: the installed vaultmem becomes this
    interpreter's ``-m vaultmem``, other programs are looked up on this machine's PATH."""
    argv = shlex.split(line)
    if argv[0] == VAULTMEM:
        return [sys.executable, "-m", "vaultmem", *argv[1:]]
    found = shutil.which(Path(argv[0]).name)
    if found is None:
        pytest.skip(f"{argv[0]} is not installed here")
    return [found, *argv[1:]]


def process_env(unit: Unit, extra: dict[str, str] | None = None) -> dict[str, str]:
    """This test's environment (the clock pinned by conftest) plus the unit's own settings."""
    return {**os.environ, **environment(unit), **(extra or {})}


def run_oneshot(unit: Unit, cwd: Path, extra: dict[str, str] | None = None
                ) -> tuple[int | None, list[subprocess.CompletedProcess[str]]]:
    """Run the ExecStart= lines in order as systemd runs a oneshot service: stop at the first
    that fails. Returns the index of the failed line (None: all passed) and the results."""
    done = []
    workdir = values(unit, "Service", "WorkingDirectory")
    for index, line in enumerate(values(unit, "Service", "ExecStart")):
        result = subprocess.run(command(line), cwd=workdir[0] if workdir else cwd,
                                env=process_env(unit, extra), capture_output=True, text=True,
                                timeout=WAIT, stdin=subprocess.DEVNULL)
        done.append(result)
        if result.returncode != 0:
            return index, done
    return None, done


def guide_blocks(language: str | None = None) -> list[str]:
    """The fenced code blocks of docs/deploy.md (of one language), each without its fences."""
    text = GUIDE.read_text(encoding="utf-8")
    return [body for lang, body in FENCE.findall(text) if language is None or lang == language]


# --- the guide and the files ---------------------------------------------------------------

def test_there_are_units_for_each_job() -> None:
    names = {p.name for p in unit_files()}
    assert {"vaultmem-watch.service", "vaultmem-reflect.service", "vaultmem-reflect.timer",
            "vaultmem-git.service", "vaultmem-git.timer", "vaultmem-mcp.service"} <= names


def test_the_guide_shows_every_unit_exactly_as_its_file() -> None:
    blocks = guide_blocks("ini")
    guide = GUIDE.read_text(encoding="utf-8")
    for path in unit_files():
        assert path.read_text(encoding="utf-8") in blocks, (
            f"docs/deploy.md does not show {path.name} as it is in docs/systemd/")
        assert f"docs/systemd/{path.name}" in guide
    units = [p.read_text(encoding="utf-8") for p in unit_files()]
    stray = [b for b in blocks if b.lstrip().startswith("[") and b not in units]
    assert not stray, f"unit text in docs/deploy.md that no file in docs/systemd/ holds: {stray}"


LONG_RUNNING = {"vaultmem-watch.service", "vaultmem-mcp.service"}


@pytest.mark.parametrize("path", unit_files(".service"), ids=lambda p: p.name)
def test_services_hold_what_the_guide_promises(path: Path) -> None:
    unit = load(path)
    assert one(unit, "Service", "User") not in ("", "root", "0")
    assert "VAULTMEM_NOW" not in path.read_text(encoding="utf-8"), (
        "VAULTMEM_NOW pins vaultmem's clock for tests; a service must never set it")
    assert one(unit, "Service", "ProtectSystem") == "strict"
    writable = " ".join(values(unit, "Service", "ReadWritePaths")).split()
    assert VAULT in writable
    lines = values(unit, "Service", "ExecStart")
    assert lines and all(not re.search(r"[$%]", line) for line in lines), (
        "no $variables or %specifiers: the test runs exactly what systemd would")
    assert all(line[0] not in "-@+!:|" for line in lines)
    if any(shlex.split(line)[0] == VAULTMEM for line in lines):
        env = environment(unit)
        assert env.get("VAULTMEM_VAULT") == VAULT
        cache = env.get("XDG_CACHE_HOME", "")
        assert cache and not (cache + "/").startswith(VAULT + "/"), "the cache stays outside"
        assert str(Path("/var/cache") / one(unit, "Service", "CacheDirectory")) == cache, (
            "CacheDirectory= makes $XDG_CACHE_HOME, writable under ProtectSystem=strict")
    if path.name in LONG_RUNNING:
        assert one(unit, "Service", "Type") == "simple"
        assert one(unit, "Service", "Restart") == "on-failure"
        assert one(unit, "Install", "WantedBy") == "multi-user.target"
        assert values(unit, "Service", "KillSignal") in ([], ["SIGTERM"])
    else:
        assert one(unit, "Service", "Type") == "oneshot"


@pytest.mark.parametrize("path", unit_files(".timer"), ids=lambda p: p.name)
def test_timers_start_their_service(path: Path) -> None:
    unit = load(path)
    assert values(unit, "Timer", "OnCalendar")
    service = (values(unit, "Timer", "Unit") or [path.with_suffix(".service").name])[0]
    assert (UNITS / service).is_file()
    assert one(unit, "Install", "WantedBy") == "timers.target"


# --- the units run --------------------------------------------------------------------------

def read_lines(stream: IO[str] | None, into: queue.Queue[str]) -> threading.Thread:
    """A thread that copies each line of a child's pipe into a queue."""
    assert stream is not None

    def pump() -> None:
        for line in stream:
            into.put(line)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def wait_line(lines: queue.Queue[str], seen: list[str], wanted: Callable[[str], bool]) -> bool:
    """Take lines into ``seen`` until one is ``wanted`` (True) or WAIT seconds passed."""
    end = time.monotonic() + WAIT
    while (left := end - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        seen.append(line)
        if wanted(line):
            return True
    return False


@pytest.fixture
def watch_process(sample: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Unit]]:
    """The watch service's command, started as systemd would start it, on the sample copy."""
    pytest.importorskip("watchdog")
    unit = localised(UNITS / "vaultmem-watch.service", sample, tmp_path / "cache")
    proc = subprocess.Popen(command(one(unit, "Service", "ExecStart")), cwd=tmp_path,
                            env=process_env(unit), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield proc, unit
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=WAIT)


def test_watch_service_starts_rebuilds_and_stops_on_its_kill_signal(
        sample: Path, tmp_path: Path,
        watch_process: tuple[subprocess.Popen[str], Unit]) -> None:
    proc, unit = watch_process
    out: queue.Queue[str] = queue.Queue()
    err: queue.Queue[str] = queue.Queue()
    readers = [read_lines(proc.stdout, out), read_lines(proc.stderr, err)]
    said: list[str] = []
    logged: list[str] = []
    assert wait_line(err, said, lambda line: line.startswith("watching ")), said
    assert str(sample) in said[-1]
    with (sample / "Agents" / "Rafael.md").open("a", encoding="utf-8") as note:
        note.write("\n- Check the VAT number against the vendor's register.\n")
    assert wait_line(out, logged, lambda line: "_vaultmem/context/Rafael.md" in line), logged
    assert "Check the VAT number" in (sample / "_vaultmem/context/Rafael.md").read_text()

    kill = (values(unit, "Service", "KillSignal") or ["SIGTERM"])[0]
    proc.send_signal(getattr(signal, kill))
    assert proc.wait(timeout=WAIT) == 0, f"watch did not exit cleanly on {kill}"
    for reader in readers:
        reader.join(timeout=WAIT)
    while not err.empty():
        said.append(err.get())
    assert said[-1].strip() == "stopped" and not any("Traceback" in line for line in said)
    assert not (sample / ".vaultmem-locks").exists()
    assert (tmp_path / "cache" / "vaultmem").is_dir(), "the cache is where XDG_CACHE_HOME says"


def test_nightly_service_runs_and_a_second_run_changes_nothing(sample: Path,
                                                                tmp_path: Path) -> None:
    unit = localised(UNITS / "vaultmem-reflect.service", sample, tmp_path / "cache")
    failed, first = run_oneshot(unit, tmp_path)
    assert failed is None, first[-1].stderr
    assert [r.args[3] for r in first] == ["reflect", "sync"]
    assert "change(s);" in first[0].stdout
    generated = {p: p.read_bytes() for p in (sample / "_vaultmem").rglob("*.md")}
    assert generated
    stamps = {p: p.stat().st_mtime_ns for p in generated}
    failed, again = run_oneshot(unit, tmp_path)
    assert failed is None, again[-1].stderr
    assert again[0].stdout.startswith("0 change(s);")
    assert all(line.startswith("unchanged ") for line in again[1].stdout.splitlines())
    assert {p: p.stat().st_mtime_ns for p in generated} == stamps, "nothing is rewritten"
    assert not (sample / ".vaultmem-locks").exists()


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check,
                          timeout=WAIT, stdin=subprocess.DEVNULL)


def vaultmem(vault: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault), *args],
                          capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL)


@pytest.fixture
def git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git with no user or system configuration of this machine, and a fixed identity."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "vaultmem test")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "test@example.invalid")


def test_gitignore_of_the_guide_keeps_locks_and_temp_files_out(sample: Path,
                                                               git_env: None) -> None:
    (block,) = guide_blocks("gitignore")
    git(sample, "init", "-q")
    (sample / ".gitignore").write_text(block, encoding="utf-8")
    for ignored in (".vaultmem-locks/0123456789abcdef0123456789abcdef.lock",
                    "_vaultmem/context/.Rafael.md.0a1b2c3d.tmp", ".NOW.md.k2j3h4g5.tmp"):
        assert git(sample, "check-ignore", "-q", ignored, check=False).returncode == 0, ignored
    for kept in ("NOW.md", "_vaultmem/context/Rafael.md", ".vaultmem/config.toml",
                 ".obsidian/app.json"):
        assert git(sample, "check-ignore", "-q", kept, check=False).returncode == 1, kept


def test_git_service_syncs_and_leaves_a_conflict_to_lint(sample: Path, tmp_path: Path,
                                                         git_env: None) -> None:
    (block,) = guide_blocks("gitignore")
    (sample / ".gitignore").write_text(block, encoding="utf-8")
    origin, laptop = tmp_path / "origin.git", tmp_path / "laptop"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    git(sample, "init", "-q", "-b", "main")
    git(sample, "add", "-A")
    git(sample, "commit", "-q", "-m", "the vault")
    git(sample, "remote", "add", "origin", str(origin))
    git(sample, "push", "-q", "-u", "origin", "main")
    git(tmp_path, "clone", "-q", str(origin), str(laptop))
    unit = localised(UNITS / "vaultmem-git.service", sample, tmp_path / "cache")

    # no conflict: a note from the laptop comes in, an agent's daily entry goes out
    (laptop / "Meetings" / "Laptop notes.md").write_text("Met [[Priya Nair]].\n")
    git(laptop, "add", "-A")
    git(laptop, "commit", "-q", "-m", "laptop")
    git(laptop, "push", "-q")
    assert vaultmem(sample, "daily", "Deployed the watcher", "--title", "Ops").returncode == 0
    failed, done = run_oneshot(unit, tmp_path)
    assert failed is None, [r.stderr for r in done]
    assert (sample / "Meetings" / "Laptop notes.md").is_file()
    git(laptop, "pull", "-q", "--no-rebase")
    assert "Deployed the watcher" in (laptop / "Daily" / "2026-11-29.md").read_text()
    assert git(sample, "status", "--porcelain").stdout == ""

    # a conflict: both sides change NOW.md's current task
    now = laptop / "NOW.md"
    task = re.compile(r"(## Current Task\n).*?(\n\n)", re.S)
    now.write_text(task.sub(r"\1Ship the Xero export.\2", now.read_text()))
    git(laptop, "commit", "-q", "-am", "laptop: task")
    git(laptop, "push", "-q")
    assert vaultmem(sample, "now", "set", "Fix currency symbols first").returncode == 0
    failed, done = run_oneshot(unit, tmp_path)
    assert failed == 2 and "pull" in done[-1].args, [r.stderr for r in done]
    failed, done = run_oneshot(unit, tmp_path)  # the next round commits the markers and pushes
    assert failed is None, [r.stderr for r in done]

    lint = vaultmem(sample, "lint", "--kind", "conflict-markers", "--check")
    assert lint.returncode == 1 and "conflict-markers" in lint.stdout
    assert "NOW.md" in lint.stdout
    found = vaultmem(sample, "conflicts", "--kind", "sync-copy", "--check")
    assert found.returncode == 1 and "NOW" in found.stdout
    git(laptop, "pull", "-q", "--no-rebase")
    assert "<<<<<<<" in now.read_text(), "every clone gets the markers to merge by hand"


def test_mcp_client_configs_in_the_guide_launch_vaultmem_mcp(sample: Path, tmp_path: Path) -> None:
    configs = [json.loads(block) for block in guide_blocks("json")]
    servers = [s for c in configs for s in c.get("mcpServers", {}).values()]
    remote = [s for s in servers if "url" in s]
    assert remote and all(s["type"] == "http" and s["url"].startswith("https://")
                          and s["url"].endswith("/mcp")
                          and s["headers"]["Authorization"].startswith("Bearer vm_")
                          for s in remote)
    for server in (s for s in servers if "url" not in s):
        argv = [server["command"], *server["args"]]
        if argv[0] == "ssh":
            argv = argv[2:]  # ssh [user@]host COMMAND...: the command run on the server
        assert argv[0] == VAULTMEM and "mcp" in argv
        args = [str(sample) if a == VAULT else a for a in argv[1:]]
        result = subprocess.run([sys.executable, "-m", "vaultmem", *args, "--help"],
                                capture_output=True, text=True, timeout=WAIT,
                                env={**os.environ, **{k: v.replace(CACHE, str(tmp_path))
                                                      for k, v in server.get("env", {}).items()}})
        assert result.returncode == 0 and "Model Context Protocol" in result.stdout


def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    missing = [p for p in ("/usr/bin/git", "/bin/sh") if not Path(p).exists()]
    if missing:
        pytest.skip(f"{', '.join(missing)} not here; systemd-analyze checks that commands exist")
    # verify checks that each command exists: the guide's install path is not on this machine
    for path in unit_files():
        text = path.read_text(encoding="utf-8").replace(VAULTMEM, sys.executable)
        (tmp_path / path.name).write_text(text, encoding="utf-8")
    copies = [str(tmp_path / p.name) for p in unit_files()]
    result = subprocess.run([analyze, "verify", *copies], capture_output=True, text=True,
                            timeout=WAIT, stdin=subprocess.DEVNULL)
    said = [line for line in (result.stdout + result.stderr).splitlines()
            if "vaultmem-" in line]
    assert result.returncode == 0 and not said, result.stdout + result.stderr


def test_mcp_service_serves_a_token_and_stops_on_its_kill_signal(sample: Path,
                                                                 tmp_path: Path) -> None:
    """The HTTP server's unit, run here on a free port: it starts, a token added as the guide
    says is let in and a missing one is not, and it exits 0 on the signal systemd sends."""
    pytest.importorskip("mcp")
    httpx = pytest.importorskip("httpx")
    unit = localised(UNITS / "vaultmem-mcp.service", sample, tmp_path / "cache")
    tokens = tmp_path / "etc" / "tokens.json"
    env = process_env(unit, {"VAULTMEM_TOKENS": str(tokens)})
    added = subprocess.run([sys.executable, "-m", "vaultmem", "token", "add", "council",
                            "--scope", "write"], env=env, capture_output=True, text=True,
                           timeout=WAIT, check=True)
    line = one(unit, "Service", "ExecStart").replace("127.0.0.1:8765", "127.0.0.1:0")
    proc = subprocess.Popen(command(line), cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    err: queue.Queue[str] = queue.Queue()
    reader = read_lines(proc.stderr, err)
    said: list[str] = []
    try:
        assert wait_line(err, said, lambda text: text.startswith("serving ")), said
        url = said[-1].split(" at ")[1].split()[0]
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "deploy-test", "version": "1"}}}
        headers = {"accept": "application/json, text/event-stream",
                   "host": "memory.example.com"}  # as the proxy passes it on
        let_in = httpx.post(url, json=hello, timeout=WAIT, headers={
            **headers, "authorization": f"Bearer {added.stdout.strip()}"})
        shut_out = httpx.post(url, json=hello, timeout=WAIT, headers=headers)
        assert (let_in.status_code, shut_out.status_code) == (200, 401)
        proc.send_signal(getattr(signal, (values(unit, "Service", "KillSignal")
                                          or ["SIGTERM"])[0]))
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=WAIT)
    reader.join(timeout=WAIT)
    while not err.empty():
        said.append(err.get())
    assert said[-1].strip() == "stopped" and not any("Traceback" in text for text in said)
