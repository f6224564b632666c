"""The [secure] attacks at scale: a folder token against a vault being edited, and the calls
that cost the most.

    python benchmarks/attack_http.py [--notes 10000] [--calls 500] [--sessions 2]
                                     [--attackers 4] [--attack-seconds 30] [--repeats 3]

A copy of the synthetic vault of gen_vault.py (made once under ``benchmarks/out/``) gets a
``Private/`` folder of notes holding unique marker lines and linking People notes. It is served
by ``vaultmem mcp --http 127.0.0.1:PORT --workers 2 --calls-per-second 1000``, started after a
``vaultmem watch`` on the same vault with the same XDG_CACHE_HOME.

1. Folder-token leak trial. A read token limited to ``People`` and a whole-vault read token
   make the same ``--calls`` calls each (``--sessions`` sessions per token, all at once) over
   every reading tool, with arguments reaching outside People: Private marker words and
   titles, Projects words, People notes that link out, Private and Projects notes by id and
   name, a search filtered to Private, context for an agent, check_links with link_mentions.
   Meanwhile an editor rewrites a Private note with a new marker (every tenth time a new
   Private note) or appends a marked line to a Projects note, four edits a second.
   A leak is a folder-token answer showing an id, a title (12+ characters), a line (25+
   characters) or a marker word of a note outside People (the files as they are at the end,
   plus every marker ever written) that neither People's notes nor the call's own arguments
   hold. A whole-token failure is an error, a ``show`` of a Private note without one of its
   markers due (written GRACE seconds before the call, or later), or a search for a Private
   marker word that misses its note (when the marker was GRACE seconds old and still there).
   Printed: per token calls, errors, answers showing notes outside People (leaks for the
   People token; for the whole token, proof that the check finds them), whole-token failures
   and p50/p95 ms; the same per tool; every leak (the call and the text shown) and the first
   whole-token failures.
2. Bounded-call trial, same server: wall ms per call (median and max of ``--repeats``) and the
   worker processes' peak RSS (VmHWM, reset before each call) for a 40,000-character search, a
   1,000,000-character one (under the 1 MiB --max-body: the tool refuses it), a 1,048,576-
   character one (its request is over 1 MiB: HTTP 413), and the worst 2,000-character queries
   built from the vault's most common distinct words, its most-linked titles and those titles
   misspelt, for search (limit 100, passages 5) and context (budget 20000). Then
   ``--attackers`` sessions of one token send those worst queries back to back for
   ``--attack-seconds`` while another token searches once a second with ordinary queries:
   its p50/p95 alone and under the attack, the attack's calls and the workers' peak RSS.
Loopback only, bounded: each call times out after 120 s, each trial after 30 minutes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_http import Server  # noqa: E402
from bench_scale import ensure_vault  # noqa: E402

from vaultmem.clock import now  # noqa: E402
from vaultmem.index.fts import STOPWORDS  # noqa: E402
from vaultmem.recall.question_bounds import MAX_QUESTION_CHARS  # noqa: E402
from vaultmem.write.token_file import add_token  # noqa: E402

CALL_TIMEOUT = 120.0
TRIAL_TIMEOUT = 1800.0
GRACE = 1.0  # seconds an edit may take to be seen by the whole token
EDITS_PER_SECOND = 4
LINE_CHARS = 25  # a line this long that no People note holds is the outside note's own
TITLE_CHARS = 12  # likewise a title
NAME_KEY = 8  # ids and titles are looked up by their first 8 characters
BARE_KEY = 10  # a line without its links is looked up by its first 10 characters
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
PRIVATE_TITLES = ("Payroll Ledger Vexmoor", "Severance Terms Quillbrook",
                  "Board Minutes Harrowgate", "Acquisition Talks Brindlemere",
                  "Medical Leave Ostravane", "Legal Hold Carrowmist")
TOOL_WEIGHTS = {"search": 25, "context": 15, "related": 10, "mentions": 10, "show": 20,
                "conflicts": 5, "check_links": 15}


# -- the vault copy and its editor ----------------------------------------------------------


@dataclass
class Written:
    """One marker written by the editor: when (perf_counter), in which note, its words."""

    at: float
    note: str
    word: str  # asked for in searches
    seal: str  # never asked for: it shows only if the note's text is shown
    line: str


@dataclass
class Layout:
    """The vault copy, what the calls ask about, and every marker written into it."""

    root: Path
    scratch: Path  # beside the vault: where a rewrite is written before it replaces the note
    people: list[str]  # People titles whose notes link outside People
    projects: list[str]  # Projects titles
    agents: list[str]
    words: list[str]  # words of Projects and Private titles
    written: list[Written] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(13))


def code_word(prefix: str, n: int) -> str:
    """A made-up word no note holds: ``prefix`` then ``n`` in four letters (zq + 'aabc')."""
    letters = ""
    for _ in range(4):
        n, digit = divmod(n, 26)
        letters = chr(97 + digit) + letters
    return prefix + letters


def links_out(root: Path) -> list[str]:
    """Titles of People notes linking a note outside People, most such links first."""
    outside = {p.stem.casefold() for p in root.rglob("*.md")
               if not p.is_relative_to(root / "People")}
    counts: Counter[str] = Counter()
    for note in sorted((root / "People").glob("*.md")):
        for target in re.findall(r"\[\[([^\]|#^]+)", note.read_text(encoding="utf-8")):
            if target.split("/")[-1].removesuffix(".md").casefold() in outside:
                counts[note.stem] += 1
    return [title for title, _ in counts.most_common(20)]


def layout(root: Path, scratch: Path) -> Layout:
    """What the calls of the leak trial ask about, with the Private notes planted."""
    projects = sorted(p.stem for p in (root / "Projects").glob("*.md"))
    words = sorted({w for title in (*projects, *PRIVATE_TITLES) for w in title.split()})
    lay = Layout(root, scratch, links_out(root), projects,
                 sorted(p.stem for p in (root / "Agents").glob("*.md")), words)
    (root / "Private").mkdir()
    for n, title in enumerate(PRIVATE_TITLES):
        lay.written.append(write_private(lay, title, n))
    return lay


def write_private(lay: Layout, title: str, n: int) -> Written:
    """(Re)write the Private note ``title`` with marker ``n``, whole (renamed into place)."""
    word, seal = code_word("zq", n), code_word("xv", n)
    person, other = lay.rng.sample(lay.people, 2)
    line = f"Private marker {word}: salary band {seal} of [[{person}]] rises to {120 + n % 80}k."
    text = (f"# {title}\n\n{line}\n\nAgreed with [[{other}]] for the "
            f"[[{lay.rng.choice(lay.projects)}]] budget.\n")
    draft = lay.scratch / "draft.md"
    draft.write_text(text, encoding="utf-8")
    os.replace(draft, lay.root / "Private" / f"{title}.md")
    return Written(time.perf_counter(), f"Private/{title}", word, seal, line)


def append_project(lay: Layout, n: int) -> Written:
    """Append a marked line to a random Projects note."""
    word, seal = code_word("zp", n), code_word("xp", n)
    project = lay.rng.choice(lay.projects)
    line = (f"Roadmap change {word} sealed {seal} with [[{lay.rng.choice(lay.people)}]] "
            "for the next budget.")
    with (lay.root / "Projects" / f"{project}.md").open("a", encoding="utf-8") as note:
        note.write(f"\n{line}\n")
    return Written(time.perf_counter(), f"Projects/{project}", word, seal, line)


def editor(lay: Layout, stop: threading.Event) -> None:
    """Edit notes outside People EDITS_PER_SECOND times a second until ``stop``: a Projects
    append, then a Private rewrite (every tenth one a new Private note), in turn."""
    n = len(lay.written)
    while not stop.wait(1 / EDITS_PER_SECOND):
        n += 1
        if n % 2:
            lay.written.append(append_project(lay, n))
        elif n % 20 == 0:
            lay.written.append(write_private(lay, f"Memo {code_word('mm', n)}", n))
        else:
            title = PRIVATE_TITLES[(n // 2) % len(PRIVATE_TITLES)]
            lay.written.append(write_private(lay, title, n))


def latest(written: list[Written], note: str, before: float) -> Written | None:
    """The last marker written into ``note`` at or before ``before``."""
    found = [w for w in written if w.note == note and w.at <= before]
    return found[-1] if found else None


# -- processes: the watch, the workers' memory ------------------------------------------------


def start_watch(root: Path, cache: Path, agent: str) -> subprocess.Popen[str]:
    """``vaultmem watch`` on ``root`` with the server's cache, once it watches (it rewrites
    one agent's context note: every agent's would take a core of this small machine)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "vaultmem", "--vault", str(root), "watch", "--agent", agent,
         "--debounce", "200"], env={**os.environ, "XDG_CACHE_HOME": str(cache)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    seen = []
    while not seen or "watching" not in seen[-1]:  # after progress lines, if any
        seen.append(process.stderr.readline())
        if not seen[-1]:
            process.kill()
            raise SystemExit(f"the watch did not start: {''.join(seen)}")
    threading.Thread(target=process.stderr.read, daemon=True).start()
    return process


def stop_process(process: subprocess.Popen[str]) -> None:
    """SIGINT, as Ctrl-C stops it; killed if it has not stopped in a minute."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_pids(server_pid: int) -> list[int]:
    """The pids of the worker processes answering the server's calls."""
    found = []
    for children in Path(f"/proc/{server_pid}/task").glob("*/children"):
        found += [int(pid) for pid in children.read_text().split()]
    return sorted(pid for pid in found if b"spawn_main" in _command_line(pid))


def _command_line(pid: int) -> bytes:
    """The command line of process ``pid`` (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def reset_peaks(pids: list[int]) -> None:
    """Start the processes' peak RSS (VmHWM) again from their RSS now."""
    for pid in pids:
        with contextlib.suppress(OSError):
            Path(f"/proc/{pid}/clear_refs").write_text("5")


def peak_mb(pids: list[int]) -> float:
    """The highest peak RSS (VmHWM) of the processes, in MB."""
    peaks = [0]
    for pid in pids:
        with contextlib.suppress(OSError):
            status = Path(f"/proc/{pid}/status").read_text()
            peaks += [int(line.split()[1]) for line in status.splitlines()
                      if line.startswith("VmHWM:")]
    return max(peaks) / 1024


# -- calls ------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def session(url: str, token: str) -> AsyncIterator[Any]:
    """An initialised SDK session sending ``token``."""
    import mcp
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http, \
            streamable_http_client(url, http_client=http) as (read, write, *_), \
            mcp.ClientSession(read, write) as opened:
        await opened.initialize()
        yield opened


async def timed_call(opened: Any, tool: str, args: dict[str, Any]) -> tuple[bool, str, float]:
    """(failed, text, ms) of one call; an exception (an HTTP refusal, a timeout) is a failure
    whose text names it."""
    started = time.perf_counter()
    try:
        with anyio.fail_after(CALL_TIMEOUT):
            result = await opened.call_tool(tool, args)
        failed = bool(result.is_error)
        text = "".join(getattr(block, "text", "") for block in result.content)
    except Exception as exc:  # reported, not raised
        failed, text = True, f"{type(exc).__name__}: {exc}"
    return failed, text, (time.perf_counter() - started) * 1000


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ``values`` by nearest rank; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


# -- 1. the leak trial ------------------------------------------------------------------------


@dataclass
class Call:
    """One planned call: the tool, its arguments, the Private note a whole token must see in
    the answer (None: no such check), and whether it names a note outside People."""

    tool: str
    args: dict[str, Any]
    expect: str | None = None
    names_outside: bool = False


@dataclass
class Answer:
    """One call as made: which token, when (perf_counter), how long, and what came back."""

    token: str
    call: Call
    started: float
    ms: float
    failed: bool
    text: str


def misspelt(title: str) -> str:
    """``title`` with two letters of its longest word swapped (a typo to be matched)."""
    word = max(title.split(), key=len)
    typo = word[:2] + word[3] + word[2] + word[4:] if len(word) > 4 else word + "e"
    return title.replace(word, typo, 1)


def plan_call(tool: str, rng: random.Random, lay: Layout) -> Call:
    """The arguments of one call of ``tool`` reaching outside People as far as they can."""
    title = rng.choice(PRIVATE_TITLES)
    private = f"Private/{title}"
    marker = latest(lay.written, private, time.perf_counter())
    assert marker is not None
    person, project = rng.choice(lay.people), rng.choice(lay.projects)
    words = " ".join(rng.sample(lay.words, 3))
    links = f"Talked to [[{person}]] about [[{misspelt(title)}]], [[{project}]] and {title}."
    choices = {
        "search": [Call(tool, {"query": marker.word, "limit": 50, "passages": 3}, private),
                   Call(tool, {"query": words, "limit": 50, "passages": 3}),
                   Call(tool, {"query": words, "folder": "Private", "limit": 50}),
                   Call(tool, {"query": f"{title} {project}", "limit": 20, "passages": 3})],
        "context": [Call(tool, {"query": f"{marker.word} {words}", "budget": 4000}),
                    Call(tool, {"note": person, "budget": 4000, "explain": True}),
                    Call(tool, {"agent": rng.choice(lay.agents), "query": words,
                                "budget": 4000}, None, True),
                    Call(tool, {"note": private, "budget": 2000}, None, True)],
        "related": [Call(tool, {"note": person, "limit": 50, "depth": 3})],
        "mentions": [Call(tool, {"note": person, "linked": True})],
        "show": [Call(tool, {"note": private}, private, True),
                 Call(tool, {"note": title}, private, True),
                 Call(tool, {"note": f"Projects/{project}"}, None, True),
                 Call(tool, {"note": person})],
        "conflicts": [Call(tool, {})],
        "check_links": [Call(tool, {"text": links, "link_mentions": True, "new_link": True}),
                        Call(tool, {"text": links, "note": private}, None, True)],
    }
    return rng.choice(choices[tool])


async def caller(url: str, token: tuple[str, str], calls: int, seed: int, lay: Layout,
                 answers: list[Answer]) -> None:
    """One session of ``token`` (name, secret) making ``calls`` calls drawn from ``seed``
    (fewer if the trial's time is up)."""
    rng = random.Random(seed)
    name, secret = token
    deadline = time.perf_counter() + TRIAL_TIMEOUT
    async with session(url, secret) as opened:
        for _ in range(calls):
            if time.perf_counter() > deadline:
                break
            tool = rng.choices(list(TOOL_WEIGHTS), weights=list(TOOL_WEIGHTS.values()))[0]
            planned = plan_call(tool, rng, lay)
            started = time.perf_counter()
            failed, text, ms = await timed_call(opened, tool, planned.args)
            answers.append(Answer(name, planned, started, ms, failed, text))


def leak_trial(url: str, tokens: dict[str, str], calls: int, sessions: int,
               lay: Layout) -> list[Answer]:
    """Both tokens' sessions at once (the same seeds: the same calls), the editor editing."""
    answers: list[Answer] = []
    stop = threading.Event()
    hand = threading.Thread(target=editor, args=(lay, stop), daemon=True)

    async def everyone() -> None:
        with anyio.fail_after(TRIAL_TIMEOUT + 2 * CALL_TIMEOUT):
            async with anyio.create_task_group() as group:
                for seed in range(sessions):
                    for token in tokens.items():
                        group.start_soon(caller, url, token, calls // sessions, seed, lay,
                                         answers)

    hand.start()
    try:
        anyio.run(everyone)
    finally:
        stop.set()
        hand.join()
    return answers


class Matcher:
    """Which of many strings occur in a text, found fast: each is looked up by its first
    ``key`` characters at every place in the text that no word character precedes."""

    def __init__(self, strings: Iterable[str], key: int) -> None:
        self.key = key
        self.strings = {s for s in strings if len(s) >= key}
        self.by_start: dict[str, list[str]] = defaultdict(list)
        for string in self.strings:
            self.by_start[string[:key]].append(string)

    def found(self, text: str) -> set[str]:
        """The strings ``text`` holds."""
        hits = set()
        for start in re.finditer(r"(?<!\w)\S", text):
            i = start.start()
            for string in self.by_start.get(text[i:i + self.key], ()):
                if text.startswith(string, i):
                    hits.add(string)
        return hits


def normal(text: str) -> str:
    """``text`` with every run of white space one space."""
    return " ".join(text.split())


def plain(text: str) -> str:
    """An answer's text as shown: a JSON answer's strings (unescaped), white space normal."""
    try:
        data = json.loads(text)
    except ValueError:
        return normal(text)
    return normal("\n".join(strings_in(data)))


def strings_in(data: Any) -> list[str]:
    """Every string in a JSON value (keys too), depth first."""
    if isinstance(data, dict):
        return [s for key, value in data.items() for s in (key, *strings_in(value))]
    if isinstance(data, list):
        return [s for item in data for s in strings_in(item)]
    return [data] if isinstance(data, str) else []


@dataclass
class Secrets:
    """What only notes outside People hold (which no People token may be shown)."""

    lines: Matcher
    names: Matcher  # ids with a folder, long titles
    words: set[str]  # every marker's words

    def seen(self, text: str, asked: str) -> list[str]:
        """The secrets the answer ``text`` shows that the call's arguments ``asked`` did not."""
        shown = plain(text)
        hits = self.lines.found(shown) | self.names.found(shown)
        hits |= set(re.findall(r"[a-z]+", shown)) & self.words
        return sorted(hit for hit in hits if hit not in asked)


def secrets(root: Path, written: list[Written]) -> Secrets:
    """The outside notes' ids, titles and lines as the files are now, plus every marker
    written, less what People's own notes hold."""
    inside = normal("\n".join(p.read_text(encoding="utf-8")
                              for p in sorted((root / "People").rglob("*.md"))))
    notes = [p for p in root.rglob("*.md") if not p.is_relative_to(root / "People")]
    ids = {p.relative_to(root).with_suffix("").as_posix() for p in notes}
    titles = {p.stem for p in notes if len(p.stem) >= TITLE_CHARS and not DATE.match(p.stem)}
    names = Matcher(ids | titles, NAME_KEY)
    return Secrets(Matcher(outside_lines(root, notes, written, inside), LINE_CHARS),
                   Matcher(names.strings - names.found(inside), NAME_KEY),
                   {w.word for w in written} | {w.seal for w in written})


def outside_lines(root: Path, notes: list[Path], written: list[Written],
                  inside: str) -> set[str]:
    """The lines of ``notes`` and every marker line, less those People's notes hold, also
    as an answer shows them (``![[img.png|300]]`` as ``[[img.png]]``). The notes vaultmem
    generates (``_vaultmem/``: an agent's context, made of People's lines too) are left out."""
    own = [p for p in notes if not p.is_relative_to(root / "_vaultmem")]
    lines = {normal(line) for p in own for line in p.read_text(encoding="utf-8").splitlines()}
    lines = {line for line in lines | {w.line for w in written} if len(line) >= LINE_CHARS}
    bare_lines: dict[str, set[str]] = defaultdict(set)
    for line in lines:
        bare_lines[bare(line)].add(line)
    held = Matcher(lines, LINE_CHARS).found(inside)
    bare_held = Matcher(bare_lines, BARE_KEY).found(bare(inside))
    return lines - held - {line for key in bare_held for line in bare_lines[key]}


def bare(text: str) -> str:
    """``text`` with every link or embed as its target alone (``[[X#h|a]]``: ``X``)."""
    return re.sub(r"!?\[\[([^\]|#^]*)[^\]]*\]\]", r"\1", text)


def asked_text(args: dict[str, Any]) -> str:
    """The strings of a call's arguments, as :func:`plain` shows text."""
    return normal("\n".join(strings_in(args)))


def verdict(answer: Answer, written: list[Written]) -> str:
    """'ok', 'unchecked' or what a whole-token answer got wrong."""
    if answer.failed:
        return f"error: {answer.text[:160]}"
    note = answer.call.expect
    if note is None:
        return "ok"
    if answer.call.tool == "show":
        due = latest(written, note, answer.started - GRACE)
        assert due is not None
        seals = [w.seal for w in written if w.note == note and w.at >= due.at]
        return "ok" if any(seal in answer.text for seal in seals) else \
            f"shows none of the markers written since {due.word}: {answer.text[:160]}"
    marker = next(w for w in written if w.word == answer.call.args["query"])
    ended = answer.started + answer.ms / 1000
    if marker.at > answer.started - GRACE or any(
            w.note == note and marker.at < w.at <= ended for w in written):
        return "unchecked"  # too fresh, or replaced during the call
    return "ok" if note in plain(answer.text) else f"{note} not found: {answer.text[:160]}"


def leak_report(answers: list[Answer], lay: Layout) -> str:
    """The leak trial's tables and findings."""
    found = secrets(lay.root, lay.written)
    leaks = {id(a): found.seen(a.text, asked_text(a.call.args)) for a in answers}
    verdicts = {id(a): verdict(a, lay.written) for a in answers if a.token == "whole"}
    rows = [token_table(answers, leaks, verdicts), "", tool_table(answers, leaks, verdicts),
            "", edits_line(lay, answers, verdicts, found), "", "Leaks (folder token):"]
    rows += leak_lines([a for a in answers if a.token == "people"], leaks) or ["none"]
    rows += ["", "Whole-token failures (first 10):"]
    problems = [(a, verdicts[id(a)]) for a in answers if verdicts.get(id(a), "ok")
                not in ("ok", "unchecked")]
    rows += [f"- {a.call.tool} {json.dumps(a.call.args)[:200]}: {why}"
             for a, why in problems[:10]] or ["none"]
    return "\n".join(rows)


def token_table(answers: list[Answer], leaks: dict[int, list[str]],
                verdicts: dict[int, str]) -> str:
    """Per token: calls, errors, answers showing notes outside People (leaks for the People
    token; for the whole token, the leak check's own check), whole-token failures, p50/p95."""
    rows = ["| token | calls | errors | errors on People-only calls | answers showing notes "
            "outside People | whole-token failures | p50 ms | p95 ms |",
            "| --- |" + " ---: |" * 7]
    for token in ("people", "whole"):
        mine = [a for a in answers if a.token == token]
        inside_errors = sum(a.failed and not a.call.names_outside for a in mine)
        leaking = sum(bool(leaks.get(id(a))) for a in mine)
        failures = sum(verdicts.get(id(a), "ok") not in ("ok", "unchecked") for a in mine)
        ms = [a.ms for a in mine]
        rows.append(f"| {token} | {len(mine)} | {sum(a.failed for a in mine)} | "
                    f"{inside_errors} | {leaking} | "
                    f"{failures if token == 'whole' else '-'} | {pct(ms, 0.5):.0f} | "
                    f"{pct(ms, 0.95):.0f} |")
    return "\n".join(rows)


def tool_table(answers: list[Answer], leaks: dict[int, list[str]],
               verdicts: dict[int, str]) -> str:
    """Per tool: each token's calls, errors, leaks or failures and p95 ms."""
    rows = ["| tool | people calls | people errors | people leaks | people p95 ms | "
            "whole calls | whole errors | whole failures | whole p95 ms |",
            "| --- |" + " ---: |" * 8]
    for tool in TOOL_WEIGHTS:
        people = [a for a in answers if a.token == "people" and a.call.tool == tool]
        whole = [a for a in answers if a.token == "whole" and a.call.tool == tool]
        failures = sum(verdicts[id(a)] not in ("ok", "unchecked") for a in whole)
        rows.append(f"| {tool} | {len(people)} | {sum(a.failed for a in people)} | "
                    f"{sum(bool(leaks[id(a)]) for a in people)} | "
                    f"{pct([a.ms for a in people], 0.95):.0f} | {len(whole)} | "
                    f"{sum(a.failed for a in whole)} | {failures} | "
                    f"{pct([a.ms for a in whole], 0.95):.0f} |")
    return "\n".join(rows)


def edits_line(lay: Layout, answers: list[Answer], verdicts: dict[int, str],
               found: Secrets) -> str:
    """How much was edited, checked and looked for."""
    kinds = Counter("new Private note" if w.note.startswith("Private/Memo") else
                    w.note.split("/")[0] for w in lay.written[len(PRIVATE_TITLES):])
    marked = Counter(a.call.tool for a in answers if a.token == "whole" and a.call.expect
                     and verdicts[id(a)] != "unchecked")
    return (f"Edits during the calls: {dict(kinds)}. Whole-token answers checked for a Private "
            f"marker written {GRACE:.0f} s before: {dict(marked)} (the others for errors "
            f"only). Looked for in folder-token answers: "
            f"{len(found.names.strings):,} ids and titles, {len(found.lines.strings):,} lines, "
            f"{len(found.words):,} marker words.")


def leak_lines(answers: list[Answer], leaks: dict[int, list[str]]) -> list[str]:
    """Every leaking answer: the call and what it showed, in context."""
    rows = []
    for answer in answers:
        for shown in leaks.get(id(answer), [])[:5]:
            text = plain(answer.text)
            at = text.find(shown)
            rows.append(f"- {answer.call.tool} {json.dumps(answer.call.args)[:200]} showed "
                        f"{shown!r} in: ...{text[max(0, at - 80):at + len(shown) + 80]}...")
    return rows


# -- 2. the bounded-call trial ----------------------------------------------------------------


def common_words(root: Path) -> list[str]:
    """The vault's distinct words (3+ letters, no stopword), most notes holding them first."""
    counts: Counter[str] = Counter()
    for note in root.rglob("*.md"):
        text = note.read_text(encoding="utf-8").casefold()
        counts.update(set(re.findall(r"[a-z]{3,}", text)) - STOPWORDS)
    return [word for word, _ in counts.most_common()]


def linked_titles(root: Path) -> list[str]:
    """Note titles, the most linked first."""
    titles = {p.stem.casefold(): p.stem for p in root.rglob("*.md")}
    counts: Counter[str] = Counter()
    for note in root.rglob("*.md"):
        for target in re.findall(r"\[\[([^\]|#^]+)", note.read_text(encoding="utf-8")):
            counts[target.split("/")[-1].removesuffix(".md").casefold()] += 1
    return [titles[key] for key, _ in counts.most_common() if key in titles]


def filled(words: Iterable[str]) -> str:
    """``words`` joined by spaces, as many as fit in the longest query allowed."""
    query = ""
    for word in words:
        if len(query) + len(word) + 1 > MAX_QUESTION_CHARS:
            break
        query = f"{query} {word}" if query else word
    return query


def worst_queries(root: Path) -> dict[str, str]:
    """The longest queries allowed, of the vault's most common words and most linked titles."""
    titles = linked_titles(root)
    return {"common words": filled(common_words(root)), "linked titles": filled(titles),
            "misspelt linked titles": filled(misspelt(t) for t in titles)}


def bounded_cases(queries: dict[str, str]) -> list[tuple[str, str, dict[str, Any]]]:
    """(label, tool, arguments) of every call measured alone."""
    cases = [("search 'a ' * 20,000 (40,000 chars)", "search", {"query": "a " * 20_000}),
             ("search of 1,000,000 chars", "search", {"query": "OCR " * 250_000}),
             ("search of 1,048,576 chars (1 MiB)", "search", {"query": "OCR " * 262_144})]
    for name, query in queries.items():
        cases.append((f"search, {len(query):,} chars of {name}", "search",
                      {"query": query, "limit": 100, "passages": 5}))
        cases.append((f"context, {len(query):,} chars of {name}", "context",
                      {"query": query, "budget": 20_000}))
    return cases


def outcome(failed: bool, text: str) -> str:
    """What came back, in a few words."""
    if failed:
        return "refused: " + normal(text)[:90].replace("|", "/")
    try:
        results = json.loads(text).get("results", [])
        return f"answered: {len(results)} results, {len(text):,} chars"
    except ValueError:
        return f"answered: {len(text):,} chars"


def request_body(tool: str, args: dict[str, Any]) -> bytes:
    """The call's JSON-RPC request body, as the SDK client sends it."""
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": tool, "arguments": args}}).encode("utf-8")


def http_status(url: str, token: str, body: bytes) -> str:
    """The HTTP status of ``body`` POSTed with ``token`` and no session (what a refusal the
    SDK reports only as "an error response" was: 413 if the body was too large)."""
    import httpx

    answer = httpx.post(url, content=body, timeout=CALL_TIMEOUT, headers={
        "authorization": f"Bearer {token}", "content-type": "application/json",
        "accept": "application/json, text/event-stream"})
    return f"HTTP {answer.status_code} {normal(answer.text)[:60]}"


async def measure_cases(url: str, token: str, cases: list[tuple[str, str, dict[str, Any]]],
                        repeats: int, pids: list[int]) -> list[str]:
    """One table row per case: outcome, body size, median and max ms, peak RSS of the workers
    (``pids[1:]``) and of the server process (``pids[0]``)."""
    rows = []
    async with session(url, token) as opened:
        for label, tool, args in cases:
            ms, workers, server = [], [], []
            for _ in range(repeats):
                reset_peaks(pids)
                failed, text, took = await timed_call(opened, tool, args)
                ms.append(took)
                workers.append(peak_mb(pids[1:]))
                server.append(peak_mb(pids[:1]))
            said = outcome(failed, text)
            if text.startswith("MCPError"):
                said += f" ({http_status(url, token, request_body(tool, args))})"
            rows.append(f"| {label} | {said} | {len(request_body(tool, args)) / 1000:,.1f} | "
                        f"{pct(ms, 0.5):.0f} | {max(ms):.0f} | {max(workers):.0f} | "
                        f"{max(server):.0f} |")
    return rows


@dataclass
class Load:
    """What one side of the attack saw."""

    ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


async def victim(url: str, token: str, words: list[str], seconds: float, load: Load) -> None:
    """An ordinary two-word search once a second for ``seconds``."""
    rng = random.Random(5)
    async with session(url, token) as opened:
        started = time.perf_counter()
        for tick in range(int(seconds)):
            await anyio.sleep(max(0.0, started + tick - time.perf_counter()))
            query = " ".join(rng.sample(words, 2))
            failed, text, ms = await timed_call(opened, "search", {"query": query})
            load.ms.append(ms)
            if failed:
                load.errors[normal(text)[:70]] += 1


async def attacker(url: str, token: str, cases: list[tuple[str, dict[str, Any]]], first: int,
                   deadline: float, load: Load) -> None:
    """The worst calls back to back until ``deadline``, from the ``first`` one on."""
    async with session(url, token) as opened:
        n = first
        while time.perf_counter() < deadline:
            tool, args = cases[n % len(cases)]
            n += 1
            failed, text, ms = await timed_call(opened, tool, args)
            load.ms.append(ms)
            if failed:
                load.errors[normal(text)[:70]] += 1


def attack(url: str, tokens: dict[str, str], cases: list[tuple[str, dict[str, Any]]],
           words: list[str], attackers: int, seconds: float) -> tuple[Load, Load]:
    """The victim's load under ``attackers`` sessions of the worst calls, and theirs."""
    victim_load, attack_load = Load(), Load()

    async def everyone() -> None:
        with anyio.fail_after(TRIAL_TIMEOUT):
            async with anyio.create_task_group() as group:
                deadline = time.perf_counter() + seconds
                for n in range(attackers):
                    group.start_soon(attacker, url, tokens["attacker"], cases, n, deadline,
                                     attack_load)
                group.start_soon(victim, url, tokens["victim"], words, seconds, victim_load)

    anyio.run(everyone)
    return victim_load, attack_load


def alone(url: str, token: str, words: list[str], seconds: float) -> Load:
    """The victim's load with no attack."""
    load = Load()
    anyio.run(victim, url, token, words, seconds, load)
    return load


def bounded_trial(url: str, tokens: dict[str, str], server_pid: int, lay: Layout,
                  args: argparse.Namespace) -> str:
    """The bounded-call trial's tables."""
    pids = worker_pids(server_pid)
    cases = bounded_cases(worst_queries(lay.root))
    rows = [f"Workers: pids {pids}, peak RSS so far {peak_mb(pids):.0f} MB; server process "
            f"{peak_mb([server_pid]):.0f} MB", "",
            "| call | outcome | request KB | p50 ms | max ms | worker peak RSS MB | "
            "server peak RSS MB |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    rows += anyio.run(measure_cases, url, tokens["attacker"], cases, args.repeats,
                      [server_pid, *pids])
    worst = [(tool, call_args) for _, tool, call_args in cases[3:]]
    baseline = alone(url, tokens["victim"], lay.words, args.attack_seconds)
    reset_peaks([server_pid, *pids])
    under, load = attack(url, tokens, worst, lay.words, args.attackers, args.attack_seconds)
    rows += ["", attack_table(baseline, under, load, args), "",
             f"Peak RSS during the attack: workers {peak_mb(pids):.0f} MB, server process "
             f"{peak_mb([server_pid]):.0f} MB; workers now: pids {worker_pids(server_pid)}"]
    return "\n".join(rows)


def attack_table(baseline: Load, under: Load, load: Load, args: argparse.Namespace) -> str:
    """The victim's search times alone and under the attack, and the attack's own calls."""
    rows = ["| who | calls | errors | p50 ms | p95 ms | max ms |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, seen in (("victim search, alone", baseline),
                       ("victim search, under attack", under),
                       (f"attack: {args.attackers} sessions of worst calls", load)):
        rows.append(f"| {name} | {len(seen.ms)} | {sum(seen.errors.values())} | "
                    f"{pct(seen.ms, 0.5):.0f} | {pct(seen.ms, 0.95):.0f} | "
                    f"{max(seen.ms, default=0):.0f} |")
    errors = [f"- {who}: {text} (x{count})" for who, seen in
              (("victim alone", baseline), ("victim under attack", under), ("attack", load))
              for text, count in seen.errors.most_common(5)]
    return "\n".join(rows + (["", "Errors:", *errors] if errors else []))


# -- the run ----------------------------------------------------------------------------------


def make_tokens(path: Path) -> dict[str, str]:
    """A People read token, a whole-vault one, an attacker's and a victim's."""
    return {"people": add_token(path, "people", scope="read", folders=("People",),
                                now=now())[0],
            "whole": add_token(path, "whole", scope="read", now=now())[0],
            "attacker": add_token(path, "attacker", scope="read", now=now())[0],
            "victim": add_token(path, "victim", scope="read", now=now())[0]}


def run(root: Path, work: Path, args: argparse.Namespace) -> None:
    """Plant the Private notes, start the watch and the server, run both trials, print."""
    lay = layout(root, work)
    tokens = make_tokens(work / "tokens.json")
    cache = work / "cache"
    scan = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), "scan"],
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)}, capture_output=True,
                          text=True)
    if scan.returncode:
        raise SystemExit(f"vaultmem scan failed: {scan.stderr}")
    watch = start_watch(root, cache, lay.agents[0])
    server = Server(root, work / "tokens.json", cache, args.workers)
    server.args += ["--calls-per-second", "1000"]
    try:
        server.start()
        started = time.perf_counter()
        pair = {name: tokens[name] for name in ("people", "whole")}
        answers = leak_trial(server.url, pair, args.calls, args.sessions, lay)
        print(f"## 1. Folder-token leak trial ({args.notes:,} notes, {args.workers} workers, "
              f"{time.perf_counter() - started:.0f} s)\n")
        print(leak_report(answers, lay), flush=True)
        stop_process(watch)
        assert server.process is not None
        print("\n## 2. Bounded-call trial\n")
        print(bounded_trial(server.url, tokens, server.process.pid, lay, args), flush=True)
    finally:
        server.stop()
        stop_process(watch)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=500, help="calls per token")
    parser.add_argument("--sessions", type=int, default=2, help="sessions per token")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--attack-seconds", type=float, default=30.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    source = ensure_vault(args.notes)
    work = Path(tempfile.mkdtemp(prefix="vm-attack-"))
    try:
        shutil.copytree(source, work / "vault")
        run(work / "vault", work, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
