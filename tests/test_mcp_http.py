"""The MCP server over streamable HTTP: started on 127.0.0.1 on a sample vault copy, driven by
the SDK's own HTTP client; tokens, scopes and limits."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import anyio
import pytest

from vaultmem.write.token_file import add_token, revoke_token

from .conftest import NOW, ROOT, SAMPLE, hash_tree, set_file_times
from .test_mcp import READERS, WRITERS, call, ok

mcp = pytest.importorskip("mcp")
httpx = pytest.importorskip("httpx")
MCPError = pytest.importorskip("mcp.shared.exceptions").MCPError

T = TypeVar("T")
TIMEOUT = 30.0  # seconds for a server to start or a session to end; a hang fails the test


@contextlib.contextmanager
def http_server(vault: Path, tokens: Path, *options: str) -> Iterator[str]:
    """``vaultmem mcp --http 127.0.0.1:0`` on ``vault`` until the block ends; yields its URL."""
    with serving(vault, tokens, *options) as (url, _):
        yield url


@contextlib.contextmanager
def serving(vault: Path, tokens: Path, *options: str, env: dict[str, str] | None = None
            ) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """:func:`http_server`, yielding its URL and its process (``env``: the environment's
    variables it runs with, this test's when not given)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "vaultmem", "--vault", str(vault), "mcp", "--http",
         "127.0.0.1:0", "--tokens", str(tokens), *options],
        env={**(os.environ if env is None else env), "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    assert server.stderr is not None
    threading.Thread(target=lambda: [lines.put(line) for line in server.stderr],  # type: ignore
                     daemon=True).start()
    try:
        first = lines.get(timeout=TIMEOUT)
        assert " at http://127.0.0.1:" in first, first
        yield first.split(" at ")[1].split()[0], server
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        server.wait(timeout=TIMEOUT)


def session_with(url: str, token: str | None, body: Callable[[Any], Awaitable[T]]) -> T:
    """Run ``body`` with an initialised SDK session sending ``token`` (None: no header). The
    session is left to the server to end: the SDK client's DELETE on the way out can wait on
    its own SSE stream's connection for the whole timeout on a loaded machine (a race of the
    client's, not of the server's; ending a session is tested with plain requests)."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}

    async def run() -> T:
        with anyio.fail_after(TIMEOUT):
            async with create_mcp_http_client(headers=headers) as client, \
                    streamable_http_client(url, http_client=client,  # no DELETE at the end:
                                           terminate_on_close=False) as (read, write, *_), \
                    mcp.ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return anyio.run(run)


def post(url: str, token: str | None, body: bytes = b"{}") -> Any:
    """One raw POST to the MCP endpoint (for status codes the SDK client hides)."""
    headers = {"content-type": "application/json",
               "accept": "application/json, text/event-stream"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return httpx.post(url, content=body, headers=headers, timeout=TIMEOUT)


@pytest.fixture
def tokens(tmp_path: Path) -> tuple[Path, str, str]:
    """A tokens file with a read token and a write token: (file, read token, write token)."""
    path = tmp_path / "config" / "tokens.json"
    reader, _ = add_token(path, "reader", scope="read", now=NOW)
    writer, _ = add_token(path, "writer", scope="write", now=NOW)
    return path, reader, writer


CALLS: dict[str, dict[str, Any]] = {
    "search": {"query": "OCR"}, "related": {"note": "Lucy Tan"},
    "mentions": {"note": "Lucy Tan"}, "context": {"agent": "Rafael", "query": "OCR"},
    "show": {"note": "Lucy Tan"}, "conflicts": {}, "check_links": {"text": "[[Lucy Tan]]"},
    "daily": {"text": "Checked the OCR pipeline over HTTP."},
    "fact": {"note": "Lucy Tan", "attribute": "timezone", "value": "Europe/Lisbon"},
    "decide": {"title": "Serve memory over HTTP", "topic": "remote-agents",
               "rationale": "Agents run on other machines"},
    "lesson": {"title": "Rafael - Ask for a token first", "agent": "Rafael",
               "pattern_key": "http.token", "body": "**Rule:** ask for a token."},
    "learn": {"kind": "correction", "text": "Send the token", "pattern_key": "http.token",
              "agent": "Rafael"},
    "now": {"action": "add", "text": "Serve memory over HTTP"},
    "rename": {"note": "Invoice Inbox", "new": "Invoice Inbox (HTTP)", "dry_run": False},
    "merge": {"keep": "Lucy Tan", "old": "Marco Diaz"},  # a dry run, as agents get by default
}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_every_tool_over_http_with_a_write_token(sample: Path, tokens: tuple[Path, str, str],
                                                 workers: str) -> None:
    path, _, writer = tokens

    async def every_tool(session: Any) -> dict[str, str]:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        assert listed == READERS | WRITERS
        return {name: await ok(session, name, **arguments) for name, arguments in CALLS.items()}

    with http_server(sample, path, "--workers", workers) as url:
        answers = session_with(url, writer, every_tool)
    assert json.loads(answers["search"])["results"]
    assert "Lucy Tan" in answers["show"]
    assert "Checked the OCR pipeline over HTTP." in (sample / "Daily/2026-11-29.md").read_text()
    assert "Europe/Lisbon" in (sample / "People/Lucy Tan.md").read_text()
    assert (sample / "Projects/Invoice Inbox (HTTP).md").is_file()
    assert json.loads(answers["merge"])["written"] is False
    assert (sample / "People/Marco Diaz.md").is_file()


def test_a_read_token_reads_and_neither_sees_nor_calls_a_writing_tool(
        reading_server: Served) -> None:
    before = hash_tree(reading_server.vault)

    async def as_reader(session: Any) -> tuple[set[str], dict[str, tuple[bool, str]]]:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        tried = {name: await call(session, name, **CALLS[name]) for name in sorted(WRITERS)}
        await ok(session, "search", query="OCR")
        return listed, tried

    listed, tried = session_with(reading_server.url, reading_server.reader, as_reader)
    assert listed == READERS
    for name, (failed, text) in tried.items():
        assert failed and f"token 'reader' may only read, and {name} writes" in text
    assert hash_tree(reading_server.vault) == before


def test_no_token_a_wrong_or_a_revoked_one_is_401(reading_server: Served) -> None:
    url, reader, leaving = reading_server.url, reading_server.reader, reading_server.leaving
    assert post(url, leaving).status_code != 401  # let in (the empty body is then refused)
    revoke_token(reading_server.tokens, "leaving", now=NOW)  # while the server runs
    for token in (None, "vm_not-a-token", leaving, f"{reader}x"):
        answer = post(url, token)
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == 'Bearer realm="vaultmem"'
        assert "vaultmem token add" in answer.json()["error"]
    with pytest.raises(ExceptionGroup) as refused:  # nor can the SDK client open a session
        session_with(url, leaving, lambda session: session.list_tools())
    assert refused.group_contains(MCPError, match="error response", depth=2)
    assert session_with(url, reader, lambda session: session.list_tools()).tools


def test_an_oversize_request_is_413_and_a_flood_429(sample: Path,
                                                   tokens: tuple[Path, str, str]) -> None:
    path, reader, _ = tokens
    # one call each ten seconds: the first passes the gate, the next ones come too soon
    with http_server(sample, path, "--max-body", "2048", "--calls-per-second", "0.1") as url:
        assert post(url, reader, b"[" + b" " * 4096 + b"]").status_code == 413
        flood = [post(url, reader) for _ in range(3)]
    assert [answer.status_code for answer in flood] == [429, 429, 429]
    assert all(1 <= int(answer.headers["retry-after"]) <= 10 for answer in flood)
    assert "too many calls for token 'reader'" in flood[0].json()["error"]


def test_a_call_above_the_limits_is_refused_with_what_to_ask(
        sample: Path, tokens: tuple[Path, str, str]) -> None:
    path, reader, _ = tokens

    async def asking(session: Any) -> list[tuple[bool, str]]:
        return [await call(session, "search", query="OCR", limit=11),
                await call(session, "context", query="OCR", budget=3000),
                await call(session, "search", query="OCR", limit=10)]

    with http_server(sample, path, "--max-results", "10", "--max-budget", "2000") as url:
        too_many, too_long, fine = session_with(url, reader, asking)
    assert too_many == (True, "limit 11 is above this server's 10 results per call; ask for "
                              "10 or fewer")
    assert too_long[0] and "budget 3000 is above this server's 2000 tokens" in too_long[1]
    assert not fine[0]


def test_a_loopback_server_without_tokens_is_open_to_this_machine_only(
        sample: Path, tmp_path: Path) -> None:
    with http_server(sample, tmp_path / "no-tokens.json") as url:
        text = session_with(url, None, lambda session: ok(session, "show", note="Lucy Tan"))
        rebound = httpx.post(url, content=b"{}", headers={"host": "evil.example:8765"})
        page = httpx.post(url, content=b"{}", headers={"origin": "http://evil.example"})
    assert "Lucy Tan" in text
    assert rebound.status_code == page.status_code == 403
    assert "vaultmem token add" in rebound.json()["error"]


def test_with_a_token_a_proxy_s_host_is_let_in(reading_server: Served) -> None:
    headers = {"host": "memory.example.com", "authorization": f"Bearer {reading_server.reader}",
               "content-type": "application/json", "accept": "application/json, "
               "text/event-stream"}
    answer = httpx.post(reading_server.url, headers=headers, content=json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "proxy-test", "version": "1"}}}))
    assert answer.status_code == 200, answer.text


# --- a token limited to some folders ------------------------------------------------------

SCOPED_CALLS: dict[str, dict[str, Any]] = {
    "search": {"query": "OCR pricing DataFlow decision", "limit": 50, "passages": 3},
    "context": {"query": "OCR pricing DataFlow decision", "budget": 4000},
    "related": {"note": "Lucy Tan", "limit": 50, "depth": 3},
    "mentions": {"note": "Lucy Tan", "linked": True},
    "show": {"note": "Lucy Tan"}, "conflicts": {},
    "check_links": {"text": "Talked to [[Lucy Tan]] about [[Use PadleOCR]]."},
}


def outside(vault: Path, folder: str) -> tuple[set[str], set[str]]:
    """What only notes outside ``folder`` hold, which no token of it may be shown: their ids
    with a folder (``Decisions/Use PaddleOCR``) and their lines no note inside holds (not the
    lines of the context notes ``watch`` writes: a person's line there is made of a note inside
    as a context of the folder shows it)."""
    inside = " ".join(p.read_text(encoding="utf-8") for p in (vault / folder).rglob("*.md"))
    notes = [p for p in vault.rglob("*.md") if not p.is_relative_to(vault / folder)]
    ids = {p.relative_to(vault).with_suffix("").as_posix() for p in notes}
    lines = {line.strip() for p in notes if not p.is_relative_to(vault / "_vaultmem")
             for line in p.read_text(encoding="utf-8").splitlines()}
    return ({i for i in ids if "/" in i}, {line for line in lines
                                           if len(line) >= 25 and line not in inside})


def seen_outside(text: str, ids: set[str], lines: set[str]) -> list[str]:
    """The ids and lines of notes outside the folder that ``text`` shows."""
    return sorted(i for i in ids | lines if i in text)


class Served(NamedTuple):
    """A server started once for the tests of this module that only read (one revokes a token
    of its own): its URL, the vault it serves, its tokens file, a token limited to People, a
    whole-vault token, a read token and a write token to revoke."""

    url: str
    vault: Path
    tokens: Path
    people: str
    whole: str
    reader: str
    leaving: str


@pytest.fixture(scope="module")
def reading_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The sample vault with a conflict inside People, served until the module's tests end
    (with their pinned clock and a cache of its own)."""
    root = tmp_path_factory.mktemp("people")
    vault = root / "vault"
    shutil.copytree(SAMPLE, vault)
    set_file_times(vault)
    with (vault / "People" / "Priya Nair.md").open("a", encoding="utf-8") as note:
        note.write("\n- [[Lucy Tan]] timezone:: UTC+9\n")  # a conflict inside People
    path = root / "tokens.json"
    made = {name: add_token(path, name, scope=scope, folders=folders, now=NOW)[0]
            for name, scope, folders in (("people", "read", ("People",)), ("all", "read", ()),
                                         ("reader", "read", ()), ("leaving", "write", ()))}
    env = {**os.environ, "XDG_CACHE_HOME": str(root / "cache"), "VAULTMEM_NOW": NOW.isoformat(),
           "TZ": "UTC"}
    env.pop("VAULTMEM_VAULT", None)
    with serving(vault, path, "--calls-per-second", "1000", env=env) as (url, _):
        yield Served(url, vault, path, made["people"], made["all"], made["reader"],
                     made["leaving"])


@pytest.mark.parametrize("tool", sorted(SCOPED_CALLS))
def test_a_folder_token_never_sees_a_note_outside_its_folders(reading_server: Served,
                                                              tool: str) -> None:
    url, vault = reading_server.url, reading_server.vault
    ids, lines = outside(vault, "People")
    failed, text = session_with(url, reading_server.people,
                                lambda s: call(s, tool, **SCOPED_CALLS[tool]))
    _, unscoped = session_with(url, reading_server.whole,
                               lambda s: call(s, tool, **SCOPED_CALLS[tool]))
    assert not failed, text
    assert seen_outside(unscoped, ids, lines), "the call shows other folders to a whole token"
    assert not seen_outside(text, ids, lines), f"{tool} showed notes outside People: {text}"
    assert tool in ("check_links", "mentions") or "People/" in text, text
    if tool == "conflicts":
        assert "People/Priya Nair" in text  # the conflict inside People is still found


def test_a_folder_token_writes_only_in_its_folders(sample: Path, tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    token, _ = add_token(path, "people", scope="write", folders=("People",), now=NOW)
    before = hash_tree(sample)

    async def writes(session: Any) -> list[tuple[bool, str]]:
        return [await call(session, "daily", text="Met Lucy."),
                await call(session, "fact", note="Use PaddleOCR", attribute="status",
                           value="dropped"),
                await call(session, "fact", note="Lucy Tan", attribute="timezone",
                           value="UTC+9")]

    with http_server(sample, path) as url:
        daily, outside_fact, inside_fact = session_with(url, token, writes)
    assert daily[0] and "Daily/2026-11-29.md is outside the folders this token may write " \
        "(People)" in daily[1]
    assert outside_fact[0] and "no note named 'Use PaddleOCR'" in outside_fact[1]
    assert not inside_fact[0], inside_fact[1]
    changed = {rel for rel, digest in hash_tree(sample).items() if before.get(rel) != digest}
    assert changed == {"People/Lucy Tan.md"}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_agent_token_says_which_agent_wrote(sample: Path, tmp_path: Path,
                                               workers: str) -> None:
    path = tmp_path / "tokens.json"
    token, _ = add_token(path, "council", scope="write", agent="Rafael", now=NOW)

    async def writes(session: Any) -> list[tuple[bool, str]]:
        return [await call(session, "daily", text="Reviewed the OCR queue."),
                await call(session, "lesson", title="Rafael - Review the queue daily",
                           pattern_key="review.daily"),
                await call(session, "lesson", title="Strategist - Plan", agent="Strategist")]

    with http_server(sample, path, "--workers", workers) as url:
        daily, mine, other = session_with(url, token, writes)
    assert not daily[0] and not mine[0], (daily, mine)
    assert other[0] and "this token writes as Rafael, not Strategist" in other[1]
    text = (sample / "Daily/2026-11-29.md").read_text()
    assert "### 10:00 — Reviewed the OCR queue.\nby [[Rafael]]\n" in text
    assert 'agent: "[[Rafael]]"' in (sample / "Lessons/Rafael - Review the queue daily.md"
                                     ).read_text()


# --- calls answered by worker processes (--workers) ---------------------------------------

def test_a_folder_token_sees_only_its_folders_in_every_worker(sample: Path,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    token, _ = add_token(path, "people", scope="read", folders=("People",), now=NOW)
    ids, lines = outside(sample, "People")

    async def every_call(session: Any) -> dict[str, tuple[bool, str]]:
        return {tool: await call(session, tool, **arguments)
                for _ in range(2) for tool, arguments in SCOPED_CALLS.items()}

    with http_server(sample, path, "--workers", "2") as url:
        answers = session_with(url, token, every_call)
    for tool, (failed, text) in answers.items():
        assert not failed, text
        assert not seen_outside(text, ids, lines), f"{tool} showed notes outside People: {text}"


def workers_of(server: subprocess.Popen[str]) -> list[int]:
    """The pids of the worker processes answering ``server``'s calls."""
    found = []
    for child in Path(f"/proc/{server.pid}/task").glob("*/children"):
        found += [int(pid) for pid in child.read_text().split()]
    return sorted(pid for pid in found if b"spawn_main" in _command_line(pid))


def _command_line(pid: int) -> bytes:
    """The command line of process ``pid`` (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def wait_for(condition: Callable[[], bool]) -> bool:
    """True once ``condition()`` is, False if it is not within ``TIMEOUT`` seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_dead_worker_is_replaced_and_a_killed_server_leaves_no_worker(
        sample: Path, tokens: tuple[Path, str, str]) -> None:
    path, reader, _ = tokens
    with serving(sample, path, "--workers", "2") as (url, server):
        assert wait_for(lambda: len(workers_of(server)) == 2)
        first = workers_of(server)
        os.kill(first[0], signal.SIGKILL)
        assert wait_for(lambda: _command_line(first[0]) == b"")
        text = session_with(url, reader, lambda session: ok(session, "show", note="Lucy Tan"))
        assert "Lucy Tan" in text  # answered by new workers
        assert wait_for(lambda: len(workers_of(server)) == 2)
        second = workers_of(server)
        assert first[0] not in second
        server.kill()
        server.wait(timeout=TIMEOUT)
    assert wait_for(lambda: all(_command_line(pid) == b"" for pid in second))
