"""Many agents on one memory over HTTP: concurrent clients, an editor, a server killed.

    python benchmarks/bench_http.py [--notes 10000] [--clients 50] [--calls 200] [--think 1.0]
                                    [--kill] [--workers 1]

A copy of the synthetic vault of gen_vault.py (made once under ``benchmarks/out/``) is served
by ``vaultmem mcp --http`` on 127.0.0.1, warm, each client with its own write token. Every
client opens a session with the official SDK client and makes ``--calls`` calls (search 40%,
context 25%, related 20%, a daily entry 15%), waiting ``--think`` seconds (on average,
exponential) between them, while an editor appends a line to a random person's note five times
a second. With ``--kill`` the server is killed (SIGKILL) halfway through and started again on
the same port; clients reconnect. ``--workers`` is the server's (processes answering calls).
Printed: per tool, calls, errors and p50/p95/p99 ms; errors by kind; and every acknowledged
daily entry looked up in the vault afterwards (lost: not there).
Loopback only, bounded: each call times out after 60 s, the run after 30 minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scale import ensure_vault  # noqa: E402

TOOLS = {"search": 40, "context": 25, "related": 20, "daily": 15}
CALL_TIMEOUT = 60.0
RUN_TIMEOUT = 1800.0


class Server:
    """``vaultmem mcp --http`` on a fixed loopback port, started again after a kill."""

    def __init__(self, root: Path, tokens: Path, cache: Path, workers: int) -> None:
        self.args = [sys.executable, "-m", "vaultmem", "--vault", str(root), "mcp", "--http",
                     f"127.0.0.1:{free_port()}", "--tokens", str(tokens),
                     "--workers", str(workers)]
        self.env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        self.url = ""
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        """Start the server and wait for its "serving ... at URL" line."""
        self.process = subprocess.Popen(self.args, env=self.env, stderr=subprocess.PIPE,
                                        text=True)
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        while line and " at http" not in line:  # a progress bar first: the index was parsed
            print(f"server: {line.strip()}", file=sys.stderr)
            line = self.process.stderr.readline()
        if " at http" not in line:
            raise SystemExit(f"the server did not start: {line}")
        self.url = line.split(" at ")[1].split()[0]
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        """SIGTERM, as systemd stops it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def editor(root: Path, stop: threading.Event, edits: list[str]) -> None:
    """Append a line to a random person's note five times a second, as a person would."""
    rng = random.Random(11)
    people = sorted((root / "People").glob("*.md"))
    while not stop.wait(0.2):
        note = rng.choice(people)
        with note.open("a", encoding="utf-8") as handle:
            handle.write(f"\n- Edited by hand, edit {len(edits)}.\n")
        edits.append(note.name)


class Tally:
    """What the clients saw: milliseconds per tool, errors by kind, acknowledged entries."""

    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.acknowledged: list[str] = []


def plan(client: int, calls: int, words: list[str], people: list[str]
         ) -> list[tuple[str, dict[str, Any]]]:
    """The calls of one client, drawn from its own seed."""
    rng = random.Random(client)
    found = []
    for number in range(calls):
        tool = rng.choices(list(TOOLS), weights=list(TOOLS.values()))[0]
        query = " ".join(rng.sample(words, 2))
        args = {"search": {"query": query}, "context": {"query": query, "budget": 1000},
                "related": {"note": rng.choice(people)},
                "daily": {"text": f"Bench entry {client}-{number}: checked {query}.",
                          "keep_links": True}}[tool]
        found.append((tool, args))
    return found


async def client(server: Server, token: str, calls: list[tuple[str, dict[str, Any]]],
                 think: float, tally: Tally, seed: int) -> None:
    """One agent: a session, its calls in order, a new session whenever the old one broke."""
    import mcp
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    rng = random.Random(seed)
    left = list(calls)
    in_flight = False
    while left:
        try:
            async with create_mcp_http_client(
                    headers={"Authorization": f"Bearer {token}"}) as http, \
                    streamable_http_client(server.url, http_client=http) as (read, write, *_), \
                    mcp.ClientSession(read, write) as session:
                await session.initialize()
                while left:
                    await anyio.sleep(rng.expovariate(1 / think) if think else 0)
                    tool, args = left[0]
                    started = time.perf_counter()
                    in_flight = True
                    with anyio.fail_after(CALL_TIMEOUT):
                        result = await session.call_tool(tool, args)
                    in_flight = False
                    left.pop(0)
                    tally.ms[tool].append((time.perf_counter() - started) * 1000)
                    if result.is_error:
                        tally.failed[tool] += 1
                        tally.errors[result.content[0].text[:60]] += 1
                    elif tool == "daily":
                        tally.acknowledged.append(args["text"])
        except Exception as exc:  # the server went away: count it, open a new session
            tally.errors[f"session broken ({type(exc).__name__})"] += 1
            if in_flight:  # not retried: it was not acknowledged
                tally.errors["calls in flight when a session broke"] += 1
                left.pop(0)
                in_flight = False
            await anyio.sleep(0.5)


def run(root: Path, clients: int, calls: int, think: float, kill: bool, workers: int) -> Tally:
    """Serve ``root``, run the clients and the editor (and the kill), return what was seen."""
    from vaultmem.clock import now
    from vaultmem.write.token_file import add_token

    work = Path(tempfile.mkdtemp(prefix="vm-http-"))
    tokens = work / "tokens.json"
    secrets = [add_token(tokens, f"agent-{n}", scope="write", now=now())[0]
               for n in range(clients)]
    cache = work / "cache"
    subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), "scan"], check=True,
                   env={**os.environ, "XDG_CACHE_HOME": str(cache)}, capture_output=True)
    server = Server(root, tokens, cache, workers)
    server.start()
    words = sorted({w for p in (root / "Projects").glob("*.md") for w in p.stem.split()
                    if len(w) > 3})
    people = sorted(p.stem for p in (root / "People").glob("*.md"))
    tally, stop, edits = Tally(), threading.Event(), []
    hand = threading.Thread(target=editor, args=(root, stop, edits), daemon=True)
    hand.start()

    async def everyone() -> None:
        with anyio.fail_after(RUN_TIMEOUT):
            async with anyio.create_task_group() as group:
                for n in range(clients):
                    group.start_soon(client, server, secrets[n],
                                     plan(n, calls, words, people), think, tally, n)
                if kill:
                    group.start_soon(kill_halfway, server, tally, clients * calls)

    started = time.perf_counter()
    try:
        anyio.run(everyone)
    finally:
        stop.set()
        hand.join()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    tally.errors["(run seconds)"] = round(time.perf_counter() - started)
    tally.errors["(editor edits)"] = len(edits)
    return tally


async def kill_halfway(server: Server, tally: Tally, total: int) -> None:
    """Kill the server once half the calls are made, then start it again."""
    while sum(len(ms) for ms in tally.ms.values()) < total // 2:
        await anyio.sleep(0.1)
    server.kill()
    await anyio.to_thread.run_sync(server.start)
    tally.errors["(server killed and restarted)"] += 1


def lost(root: Path, tally: Tally) -> list[str]:
    """Acknowledged daily entries that are not in any daily note."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in (root / "Daily").glob("*.md"))
    return [entry for entry in tally.acknowledged if entry not in text]


def report(tally: Tally, missing: list[str]) -> str:
    """The tables."""
    rows = ["| tool | calls | errors | p50 ms | p95 ms | p99 ms |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for tool in TOOLS:
        ms = sorted(tally.ms[tool]) or [0.0]
        cuts = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
        rows.append(f"| {tool} | {len(tally.ms[tool])} | {tally.failed[tool]} | "
                    f"{statistics.median(ms):.0f} | {cuts[94]:.0f} | {cuts[98]:.0f} |")
    rows += ["", "| what | count |", "| --- | ---: |"]
    rows += [f"| {what} | {count} |" for what, count in sorted(tally.errors.items())]
    rows.append(f"| acknowledged daily entries | {len(tally.acknowledged)} |")
    rows.append(f"| acknowledged and not in the vault afterwards | {len(missing)} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--kill", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    source = ensure_vault(args.notes)
    root = Path(tempfile.mkdtemp(prefix="vm-http-vault-")) / "vault"
    shutil.copytree(source, root)
    try:
        tally = run(root, args.clients, args.calls, args.think, args.kill, args.workers)
        print(f"{args.notes:,} notes, {args.clients} clients x {args.calls} calls, think "
              f"{args.think} s, {args.workers} worker(s)"
              f"{', server killed halfway' if args.kill else ''}\n")
        print(report(tally, lost(root, tally)))
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
