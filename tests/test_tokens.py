"""Access tokens: stored hashed and private, added, listed and revoked from the CLI; the HTTP
server's gate and limits without a network."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner

from vaultmem.access_tokens import digest_of, matching_grant, read_tokens
from vaultmem.cli import cli
from vaultmem.errors import ConfigError, UsageError
from vaultmem.vault import Vault
from vaultmem.write.token_file import add_token, revoke_token

from .conftest import NOW


def token_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["token", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_token_is_shown_once_and_stored_only_as_its_hash(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "tokens.json"
    code, out, err = token_cli("add", "laptop", "--scope", "write", "--tokens", str(path))
    token = out.strip()
    assert code == 0 and token.startswith("vm_") and len(token) > 40
    assert "not shown again" in err
    text = path.read_text(encoding="utf-8")
    assert token not in text and digest_of(token) in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    code, out, _ = token_cli("list", "--tokens", str(path), "--json")
    listed = json.loads(out)["tokens"]
    assert code == 0 and token not in out
    assert listed == [{"name": "laptop", "scope": "write", "folders": [], "agent": None,
                       "created": "2026-11-29T10:00:00Z",
                       "revoked": None}]


def test_a_token_may_write_as_an_agent(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    code, out, err = token_cli("add", "council", "--scope", "write", "--agent", "Rafael",
                               "--tokens", str(path))
    assert code == 0 and "writes as Rafael" in err
    grant = matching_grant(read_tokens(path), out.strip())
    assert grant is not None and grant.agent == "Rafael"
    _, listed, _ = token_cli("list", "--tokens", str(path))
    assert "council  write  as Rafael  added" in listed


def test_revoked_tokens_grant_nothing_and_stay_listed(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    first, _ = add_token(path, "ci", scope="read", now=NOW)
    assert matching_grant(read_tokens(path), first) is not None
    code, out, _ = token_cli("revoke", "ci", "--tokens", str(path))
    assert code == 0 and "revoked" in out
    assert matching_grant(read_tokens(path), first) is None
    second, _ = add_token(path, "ci", scope="write", now=NOW)  # the name is free again
    grant = matching_grant(read_tokens(path), second)
    assert grant is not None and grant.scope == "write"
    code, out, _ = token_cli("list", "--tokens", str(path))
    assert out.count("ci  ") == 2 and "revoked 2026-11-29T10:00:00Z" in out


@pytest.mark.parametrize(("args", "message"), [
    (["add", "has space"], "no spaces"),
    (["add", "x", "--scope", "admin"], "'admin' is not one of 'read', 'write'"),
    (["revoke", "nobody"], "no active token named 'nobody'"),
    (["add", "x", "--agent", "Rafael"], "give it with --scope write"),
    (["add", "x", "--scope", "write", "--agent", "[[Rafael]]"], "the agent note's name"),
])
def test_token_commands_refuse_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = token_cli(*args, "--tokens", str(tmp_path / "tokens.json"))
    assert code == 2 and message in err


def test_an_active_name_is_refused_and_a_broken_file_says_how_to_fix(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    add_token(path, "ci", scope="read", now=NOW)
    with pytest.raises(UsageError, match="revoke it first"):
        add_token(path, "ci", scope="read", now=NOW)
    path.write_text('{"tokens": [{"name": "x"}]}', encoding="utf-8")
    with pytest.raises(ConfigError, match="move it aside"):
        revoke_token(path, "x", now=NOW)
    code, _, err = token_cli("list", "--tokens", str(path))
    assert code == 2 and "not a vaultmem tokens file" in err


def test_serving_off_this_machine_without_a_token_is_refused(sample: Path,
                                                            tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    result = CliRunner().invoke(cli, ["--vault", str(sample), "mcp", "--http", "0.0.0.0:0",
                                      "--tokens", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert "needs a token; add one with `vaultmem token add NAME`" in result.stderr


def test_the_call_rate_refills_over_time() -> None:
    from vaultmem.live.http_gate import CallRate

    rate = CallRate(2.0)
    assert [rate.wait_needed("a", 0.0) for _ in range(3)] == [0.0, 0.0, 0.5]
    assert rate.wait_needed("b", 0.0) == 0.0  # each token has its own
    assert rate.wait_needed("a", 0.5) == 0.0  # one call back after half a second


def test_a_call_that_waited_too_long_for_its_turn_is_refused(sample: Path) -> None:
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from vaultmem.live.mcp_tools import Tools

    tools = Tools(Vault(sample), watch=False, call_wait=0.2)
    with tools.lock, pytest.raises(ToolError, match=r"waited 0\.2 s for its turn"):
        tools.search("OCR")  # while another call runs
    assert json.loads(tools.search("OCR"))["results"]


def test_a_broken_tokens_file_while_serving_is_503_not_a_crash(tmp_path: Path) -> None:
    from vaultmem.live.http_gate import Gate, Limits, TokenBook

    path = tmp_path / "tokens.json"
    add_token(path, "ci", scope="read", now=NOW)
    path.write_text("{", encoding="utf-8")
    sent: list[dict[str, object]] = []

    async def app(*_: object) -> None:
        raise AssertionError("not reached")

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    gate = Gate(app, TokenBook(path), Limits(), loopback=True)
    scope = {"type": "http", "headers": [(b"authorization", b"Bearer vm_x")]}
    anyio.run(gate, scope, None, send)
    assert sent[0]["status"] == 503
    assert b"not a vaultmem tokens file" in sent[1]["body"]  # type: ignore[operator]


def test_a_scope_lists_only_its_folders(tmp_path: Path) -> None:
    import dataclasses

    from vaultmem.config import load_config
    from vaultmem.read.walk import list_vault

    for rel in ("People/A.md", "People2/B.md", "Projects/Pilot/C.md", "Projects/D.md",
                "Root.md", "People/photo.png", "Projects/plan.pdf"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n", encoding="utf-8")
    config = dataclasses.replace(load_config(tmp_path), scope_folders=("People",
                                                                       "Projects/Pilot"))
    listing = list_vault(config)
    assert [info.path for info in listing.notes] == ["People/A.md", "Projects/Pilot/C.md"]
    assert listing.attachments == ["People/photo.png"]


@pytest.mark.parametrize(("text", "message"), [
    ("", "--folders is empty"), ("People,../etc", "folder '../etc'"),
    ("a//b", "folder 'a//b'")])
def test_token_folders_must_be_vault_folders(tmp_path: Path, text: str, message: str) -> None:
    code, _, err = token_cli("add", "x", "--folders", text, "--tokens",
                             str(tmp_path / "tokens.json"))
    assert code == 2 and message in err
    assert not (tmp_path / "tokens.json").exists()


def test_a_call_waiting_for_a_free_worker_too_long_is_refused(sample: Path) -> None:
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from vaultmem.live.tool_pool import ToolPool

    pool = ToolPool(Vault(sample), workers=1, watch=False, call_wait=0.5)
    try:
        assert json.loads(pool.call("search", {"query": "OCR"}))["results"]
        running = pool._free.get()  # as a call running holds its worker
        with pytest.raises(ToolError, match=r"waited 0\.5 s for its turn"):
            pool.call("search", {"query": "OCR"})
        pool._free.put(running)
        assert json.loads(pool.call("search", {"query": "OCR"}))["results"]
    finally:
        pool.close()
