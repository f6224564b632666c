"""What trips a new user connecting vaultmem: global options after the command, the MCP
client's configuration, a missing agent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from vaultmem.cli import cli

from .test_cli import run


def test_global_options_after_the_command(sample: Path) -> None:
    before = CliRunner().invoke(cli, ["--vault", str(sample), "search", "deskew", "--limit", "1"])
    after = CliRunner().invoke(cli, ["search", "deskew", "--vault", str(sample), "--limit", "1",
                                     "--no-cache"])
    assert (after.exit_code, after.stdout) == (0, before.stdout) and before.stdout
    text = CliRunner().invoke(cli, ["--vault", str(sample), "daily", "--dry-run", "--",
                                    "--vault is text"])
    assert text.exit_code == 0 and "+### 10:00 — --vault is text" in text.stdout


def test_mcp_print_config_names_absolute_paths(sample: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "vaultmem", "mcp", "--print-config",
                           "--read-only", "--vault", str(sample)],
                          capture_output=True, text=True, check=False, cwd="/")
    assert done.returncode == 0, done.stderr
    config = json.loads(done.stdout[done.stdout.index("{"):])
    server = config["mcpServers"]["vaultmem"]
    assert Path(server["command"]).is_absolute() and Path(server["command"]).exists()
    assert server["args"][-4:] == ["--vault", str(sample.resolve()), "mcp", "--read-only"]
    assert f"claude mcp add vaultmem -- {server['command']}" in done.stdout


def test_a_missing_agent_says_how_to_create_it(sample: Path) -> None:
    code, _, err = run(sample, "context", "--agent", "Zed", "--query", "ocr")
    assert code == 1
    assert err.strip() == "Error: no agent named 'Zed'; to create it: vaultmem new agent Zed"
    code, _, err = run(sample, "context", "--agent", "Rafel")
    assert code == 1 and err.strip() == ("Error: no agent named 'Rafel'; did you mean "
                                         "[[Agents/Rafael]]? (to create it: vaultmem new agent "
                                         "Rafel)")


def test_workers_without_http_is_a_usage_error(sample: Path) -> None:
    code, out, err = run(sample, "mcp", "--workers", "2")
    assert (code, out) == (2, "")
    assert err.strip() == ("Error: --workers is for a server over HTTP (stdio has one client); "
                           "add --http HOST:PORT, or leave --workers out")
