"""Folder tokens hold however the vault is indexed: a folder token and a whole-vault token
interleaved on a server with two workers and a ``vaultmem watch`` beside it, while notes outside
the folder are written; no answer to the folder token shows them, and the whole token keeps
seeing everything."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from vaultmem.write.token_file import add_token

from .conftest import NOW, ROOT
from .test_mcp import call
from .test_mcp_http import SCOPED_CALLS, TIMEOUT, http_server, outside, seen_outside, session_with

pytest.importorskip("mcp")

SECRET_LINE = "Salary band of Lucy Tan rises to 180k from March"


def private_edit(vault: Path, round_no: int) -> None:
    """Write notes outside People (a new private note, an edited project) during the calls."""
    (vault / "Private").mkdir(exist_ok=True)
    (vault / "Private" / "Salaries.md").write_text(
        f"# Salaries\n\n{SECRET_LINE} ({round_no}). [[Lucy Tan]] OCR pricing DataFlow.\n",
        encoding="utf-8")
    with (vault / "Projects" / "DataFlow.md").open("a", encoding="utf-8") as note:
        note.write(f"\nPrivate roadmap change {round_no} for [[Lucy Tan]] and OCR pricing.\n")


@pytest.fixture
def watching(sample: Path) -> Any:
    """``vaultmem watch`` on the vault (another process writing the whole vault's index)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "vaultmem", "--vault", str(sample), "watch", "--debounce", "50"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    assert "watching" in process.stderr.readline()
    yield process
    process.send_signal(signal.SIGINT)
    process.wait(timeout=TIMEOUT)


def test_folder_and_whole_tokens_interleaved_with_workers_watch_and_edits(
        sample: Path, tmp_path: Path, watching: Any) -> None:
    path = tmp_path / "tokens.json"
    people, _ = add_token(path, "people", scope="read", folders=("People",), now=NOW)
    whole, _ = add_token(path, "all", scope="read", now=NOW)
    leaks: list[str] = []
    missing: list[str] = []
    with http_server(sample, path, "--workers", "2", "--calls-per-second", "1000") as url:
        for round_no in range(3):
            private_edit(sample, round_no)
            ids, lines = outside(sample, "People")

            async def both(session: Any) -> dict[str, tuple[bool, str]]:
                return {tool: await call(session, tool, **arguments)
                        for tool, arguments in SCOPED_CALLS.items()}

            scoped = session_with(url, people, both)
            unscoped = session_with(url, whole, both)
            for tool, (failed, text) in scoped.items():
                assert not failed, text
                leaks += [f"{tool}: {seen}" for seen in seen_outside(text, ids, lines)]
            if not any(SECRET_LINE in text for _, text in unscoped.values()):
                missing.append(f"round {round_no}: no whole-token answer shows Private")
            failed, shown = unscoped["show"]
            assert not failed and "Lucy Tan" in shown, shown
    assert not leaks, leaks[:10]
    assert not missing, missing


def test_symlinks_out_of_the_folder_or_the_vault_are_not_followed(sample: Path,
                                                                   tmp_path: Path) -> None:
    (sample / "Private").mkdir()
    (sample / "Private" / "Salaries.md").write_text(f"# Salaries\n\n{SECRET_LINE}\n")
    (sample / "People" / "private").symlink_to("../Private", target_is_directory=True)
    host = tmp_path / "hostname"
    host.write_text("builder-7 outside the vault\n")
    (sample / "People" / "hostname.md").symlink_to(host)
    (sample / "People" / "Lucy link.md").symlink_to("Lucy Tan.md")  # inside: still a note
    path = tmp_path / "tokens.json"
    people, _ = add_token(path, "people", scope="read", folders=("People",), now=NOW)
    whole, _ = add_token(path, "all", scope="read", now=NOW)

    async def look(session: Any) -> list[tuple[bool, str]]:
        return [await call(session, "search", query="Salary band builder outside", limit=50),
                await call(session, "show", note="People/private/Salaries"),
                await call(session, "show", note="People/hostname"),
                await call(session, "show", note="People/Lucy link")]

    with http_server(sample, path) as url:
        scoped = session_with(url, people, look)
        unscoped = session_with(url, whole, look)
    for _, text in scoped[:3]:
        assert SECRET_LINE not in text and "builder-7" not in text, text
    assert scoped[1][0] and scoped[2][0]  # no such notes for the folder token
    assert not scoped[3][0] and "Lucy" in scoped[3][1]
    assert "Private/Salaries" in unscoped[0][1]  # the whole token finds it where it lives
    assert unscoped[2][0] and "builder-7" not in unscoped[2][1]  # out of the vault for all


def test_a_folder_view_takes_in_reported_changes_and_only_its_own(sample: Path) -> None:
    import json
    import time

    from vaultmem.caller import Caller
    from vaultmem.live.mcp_tools import Tools
    from vaultmem.vault import Vault

    tools = Tools(Vault(sample), watch=True)
    people = Caller("people", may_write=False, folders=("People",))

    def found(word: str) -> list[str]:
        deadline = time.monotonic() + TIMEOUT  # the system reports a change within moments
        while True:
            ids = [hit["id"] for hit in json.loads(tools.search(word, caller=people))["results"]]
            if ids or time.monotonic() > deadline:
                return ids
            time.sleep(0.05)

    assert found("Lucy")
    view = tools.current(people)
    with (sample / "Projects" / "DataFlow.md").open("a", encoding="utf-8") as note:
        note.write("\nzorblax roadmap\n")
    time.sleep(0.3)
    assert tools.current(people) is view  # a change elsewhere: nothing read again
    with (sample / "People" / "Lucy Tan.md").open("a", encoding="utf-8") as note:
        note.write("\nquibbleton salary review\n")
    assert found("quibbleton")[0] == "People/Lucy Tan"
    assert json.loads(tools.search("zorblax", caller=people))["results"] == []
    assert json.loads(tools.search("zorblax"))["results"][0]["id"] == "Projects/DataFlow"
    (sample / "People").rename(sample / "Staff")
    deadline = time.monotonic() + TIMEOUT
    while tools.current(people).notes and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not tools.current(people).notes  # its folder is gone
