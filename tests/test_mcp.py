"""The MCP server, started as a subprocess on a sample vault copy and driven by the SDK client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest

from vaultmem.live.tool_table import READ_TOOLS, TOOLS, WRITE_TOOLS, docs_table, help_line
from vaultmem.vault import Vault
from vaultmem.write.journal import daily_path

from .conftest import NOW, ROOT, hash_tree
from .test_cli import run

mcp = pytest.importorskip("mcp")

T = TypeVar("T")
TIMEOUT = 20.0  # seconds for a whole session; a hang fails the test instead of blocking CI
READERS = set(READ_TOOLS)
WRITERS = set(WRITE_TOOLS)
TOKEN = "ghp_" + "A1b2C3d4" * 5  # looks like a GitHub token; the secret guard must refuse it


PASSED = ("XDG_CACHE_HOME", "VAULTMEM_NOW", "TZ")  # the test's cache and pinned clock


def talk(vault: Path, body: Callable[[Any], Awaitable[T]], *, read_only: bool = False) -> T:
    """Start ``vaultmem --vault VAULT mcp`` and run ``body`` with a session."""
    log = vault.parent / "server.log"
    params = mcp.StdioServerParameters(
        command=sys.executable,
        args=["-m", "vaultmem", "--vault", str(vault), "mcp"] + (["--read-only"] * read_only),
        env={"PYTHONPATH": str(ROOT), **{k: os.environ[k] for k in PASSED if k in os.environ}},
        cwd=str(ROOT))

    async def run() -> T:
        with anyio.fail_after(TIMEOUT), log.open("w") as errlog:
            async with mcp.stdio_client(params, errlog=errlog) as (read, write), \
                    mcp.ClientSession(read, write, read_timeout_seconds=TIMEOUT) as session:
                await session.initialize()
                return await body(session)

    try:
        return anyio.run(run)
    finally:
        sys.stderr.write(log.read_text(encoding="utf-8", errors="replace"))


async def call(session: Any, tool: str, **arguments: Any) -> tuple[bool, str]:
    """(is_error, text) of one tool call."""
    result = await session.call_tool(tool, arguments)
    return bool(result.is_error), "".join(block.text for block in result.content)


async def ok(session: Any, tool: str, **arguments: Any) -> str:
    """The text of a tool call that must succeed."""
    failed, text = await call(session, tool, **arguments)
    assert not failed, f"{tool}: {text}"
    return text


def test_tool_lists(sample: Path) -> None:
    """Every tool is listed with a description; read-only lists (and runs) no writer."""

    async def listing(session: Any) -> tuple[list[Any], tuple[bool, str]]:
        return (await session.list_tools()).tools, await call(session, "daily", text="hello")

    tools, _ = talk(sample, listing)
    assert {t.name: t.description for t in tools} == {n: t.description for n, t in TOOLS.items()}
    assert all(len(t.description) > 80 for t in tools)
    hints = {t.name: t.annotations.read_only_hint for t in tools}
    assert hints == {name: name in READERS for name in READERS | WRITERS}
    search = next(t for t in tools if t.name == "search")
    assert search.input_schema["required"] == ["query"]
    assert "description" in search.input_schema["properties"]["query"]
    before = hash_tree(sample)
    tools, (failed, text) = talk(sample, listing, read_only=True)
    assert {t.name for t in tools} == READERS
    assert failed and "daily" in text
    assert hash_tree(sample) == before


def test_read_tools(sample: Path) -> None:
    """search, related, mentions, context, show and conflicts answer from the vault."""

    async def reads(session: Any) -> dict[str, str]:
        return {
            "search": await ok(session, "search", query="OCR accuracy", limit=3),
            "related": await ok(session, "related", note="Use PaddleOCR", limit=5),
            "context": await ok(session, "context", agent="Rafael",
                                query="what blocks OCR accuracy?", budget=600),
            "show": await ok(session, "show", note="invoice inbox"),
            "bare": await ok(session, "show", note="Invoice Inbox", content=False),
            "conflicts": await ok(session, "conflicts"),
            "typed": await ok(session, "search", query="ocr engine", type="decision"),
            "mentions": await ok(session, "mentions", note="DataFlow"),
            "explained": await ok(session, "context", query="Lucy's timezone", budget=400,
                                  explain=True),
        }

    got = talk(sample, reads)
    hits = json.loads(got["search"])["results"]
    assert hits[0]["id"] == "KPIs/OCR Accuracy" and len(hits) <= 3
    related = json.loads(got["related"])
    assert related["note"] == "Decisions/Use PaddleOCR" and related["results"]
    assert got["context"].startswith("# Context for Rafael")
    assert "[[KPIs/OCR Accuracy]]" in got["context"]
    assert got["show"].startswith("Projects/Invoice Inbox  (project)")
    assert "Backlinks (7):" in got["show"]
    assert "Every customer gets an address" in got["show"]
    assert "Every customer gets an address" not in got["bare"]
    assert isinstance(json.loads(got["conflicts"])["findings"], list)
    assert {h["type"] for h in json.loads(got["typed"])["results"]} == {"decision"}
    assert json.loads(got["mentions"]) == json.loads(run(sample, "mentions", "DataFlow",
                                                         "--json")[1])
    assert got["explained"].rstrip("\n") == run(sample, "context", "--query", "Lucy's timezone",
                                                 "--budget", "400", "--explain")[1].rstrip("\n")


def test_write_tools(sample: Path) -> None:
    """Each writer changes the files the CLI would, and readers see the change at once."""

    async def writes(session: Any) -> dict[str, str]:
        out = {
            "daily": await ok(session, "daily", text="OCR accuracy reached 0.88 on the pilot",
                              title="KPI check"),
            "fact": await ok(session, "fact", note="Lucy Tan", attribute="timezone",
                             value="UTC+7", source="2026-11-26"),
            "decide": await ok(session, "decide", title="Use Surya OCR", topic="ocr-engine",
                               by="Lucy Tan", supersedes="Use PaddleOCR",
                               rationale="Better on skewed phone photos"),
            "lesson": await ok(session, "lesson", title="Rafael - Crop margins", agent="Rafael",
                               pattern_key="ocr.margins", body="**Rule:** crop margins."),
            "learn": await ok(session, "learn", kind="correction",
                              text="Check the currency symbol",
                              pattern_key="ocr.currency-symbol", agent="Rafael"),
            "now": await ok(session, "now", action="add", text="Try Surya on 50 receipts"),
            "dry": await ok(session, "daily", text="not written", dry_run=True),
        }
        (sample / "People" / "Ana Ruiz.md").write_text("# Ana Ruiz\n\nDesigner, joined today.\n")
        with (sample / "People" / "Priya Nair.md").open("a") as priya:  # as if edited in Obsidian
            priya.write("\nPrefers calls on Fridays.\n")
        out["search"] = await ok(session, "search", query="Ana Ruiz designer", limit=1)
        out["show"] = await ok(session, "show", note="Priya Nair")
        return out

    got = talk(sample, writes)
    daily = sample / daily_path(Vault(sample), NOW.date())
    assert "— KPI check\nOCR accuracy reached 0.88 on the pilot" in daily.read_text()
    assert "not written" not in daily.read_text()
    assert json.loads(got["daily"])["results"][0]["action"] in {"appended", "created"}
    assert "would " in json.loads(got["dry"])["results"][0]["action"]
    lucy = (sample / "People" / "Lucy Tan.md").read_text()
    assert "timezone: UTC+7" in lucy and "## History" in lucy
    assert (sample / "Decisions" / "Use Surya OCR.md").exists()
    assert "status: superseded" in (sample / "Decisions" / "Use PaddleOCR.md").read_text()
    assert "ocr.margins" in (sample / "Lessons" / "Rafael - Crop margins.md").read_text()
    assert "promoted" in got["learn"]
    assert "Try Surya on 50 receipts" in (sample / "NOW.md").read_text()
    assert json.loads(got["search"])["results"][0]["id"] == "People/Ana Ruiz"
    assert "Prefers calls on Fridays." in got["show"]


def test_errors_are_tool_results(sample: Path) -> None:
    """Unknown notes, bad arguments and secrets come back as tool errors; the server lives."""
    before = hash_tree(sample)

    async def errors(session: Any) -> list[tuple[bool, str]]:
        return [
            await call(session, "show", note="Lucy Tn"),
            await call(session, "daily", text=f"deploy key {TOKEN}"),
            await call(session, "fact", note="Lucy Tan", attribute="token", value=TOKEN),
            await call(session, "search", query="ocr", limit=0),
            await call(session, "conflicts", kinds=["nonsense"]),
            await call(session, "search", query="ocr", since="last week"),
            await call(session, "search", query="Lucy Tan", limit=1),
            await call(session, "daily", text="Met [[Lucy Tn]]"),
            await call(session, "check_links", text="Met [[Lucy]] and [[Lucy Tn]]"),
        ]

    missing, secret, secret_fact, bad_limit, bad_kind, bad_since, after, link, check = talk(
        sample, errors)
    assert missing[0] and "did you mean [[People/Lucy Tan]]" in missing[1]
    assert secret[0] and "github" in secret[1].lower() and TOKEN not in secret[1]
    assert secret_fact[0] and TOKEN not in secret_fact[1]
    assert bad_limit[0] and "limit" in bad_limit[1]
    assert bad_kind[0] and "fact-conflict" in bad_kind[1]
    assert bad_since[0] and bad_since[1].endswith("since 'last week' is not a date; use YYYY-MM-DD")
    assert not after[0] and "People/Lucy Tan" in after[1]
    assert link[0] and "did you mean [[People/Lucy Tan]]?" in link[1] and "new_link" in link[1]
    checked = json.loads(check[1])
    assert not check[0] and checked["text"] == "Met [[Lucy Tan|Lucy]] and [[Lucy Tn]]"
    assert [r["candidates"] for r in checked["refused"]] == [["People/Lucy Tan"]]
    assert hash_tree(sample) == before


def test_bad_vault_exits_with_message(tmp_path: Path) -> None:
    """A missing vault is one line on stderr and exit 2, nothing on stdout (the transport)."""
    done = subprocess.run([sys.executable, "-m", "vaultmem", "--vault",
                           str(tmp_path / "nowhere"), "mcp"], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("Error: ")


def test_argument_errors_are_plain_and_name_the_valid_values(sample: Path) -> None:
    """An unknown type is an error naming the valid ones (not an empty answer); an argument
    that fails validation says which and why, without pydantic's model, echo or links."""

    async def errors(session: Any) -> list[tuple[bool, str]]:
        return [
            await call(session, "search", query="ocr", type="persn"),
            await call(session, "search", query="ocr", limit=0),
            await call(session, "now", action="bogus", text="x"),
            await call(session, "search", query="Lucy Tan", type="Person", limit=1),
        ]

    bad_type, bad_limit, bad_action, typed = talk(sample, errors)
    assert bad_type == (True, "Error executing tool search: unknown type 'persn'; use one of "
                              "agent, core, daily, decision, fact, kpi, learning, lesson, note, "
                              "now, person, project")
    assert bad_limit == (True, "Error executing tool search: limit: Input should be greater "
                               "than or equal to 1; fix the arguments and call again")
    assert bad_action == (True, "Error executing tool now: action: Input should be 'set', "
                                "'add', 'done', 'block', 'unblock' or 'clear'; fix the arguments "
                                "and call again")
    assert not typed[0] and json.loads(typed[1])["results"][0]["id"] == "People/Lucy Tan"


def test_the_tools_docs_and_help_come_from_one_table(sample: Path) -> None:
    """docs/mcp.md shows the table as it is and ``mcp --help`` names every tool (the server
    offers them: test_tool_lists)."""
    page = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    assert docs_table() in page, "docs/mcp.md's tool table differs from vaultmem/live/tool_table.py"
    code, out, _ = run(sample, "mcp", "--help")
    assert code == 0 and " ".join(help_line().split()) in " ".join(out.split())
