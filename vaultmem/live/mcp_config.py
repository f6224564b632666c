"""What an MCP client needs to start this install's server on a vault: the command line with
absolute paths (a client starts it from its own folder and environment, where a bare
``vaultmem`` or a relative vault path is not found)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path


def server_command(root: Path, *, read_only: bool = False,
                   check_files: bool = False) -> list[str]:
    """The absolute command line that serves ``root``: this install's ``vaultmem`` script
    (the one running, else the one beside this Python, else the one on PATH), else this
    Python with ``-m vaultmem``."""
    running = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    on_path = shutil.which("vaultmem")
    scripts = [running if running is not None and running.name == "vaultmem" else None,
               Path(sys.executable).parent / "vaultmem", Path(on_path) if on_path else None]
    script = next((p.resolve() for p in scripts if p is not None and p.is_file()), None)
    start = [str(script)] if script else [str(Path(sys.executable).absolute()), "-m",
                                          "vaultmem"]
    return [*start, "--vault", str(root.resolve()), "mcp",
            *(["--read-only"] * read_only), *(["--check-files"] * check_files)]


def client_config(root: Path, *, read_only: bool = False, check_files: bool = False) -> str:
    """The Claude Code command and the JSON block Claude Desktop and other clients take."""
    command = server_command(root, read_only=read_only, check_files=check_files)
    config = {"mcpServers": {"vaultmem": {"command": command[0], "args": command[1:]}}}
    return ("Claude Code:\n\n    claude mcp add vaultmem -- " + shlex.join(command) + "\n\n"
            "Claude Desktop (claude_desktop_config.json) and other MCP clients:\n\n"
            + json.dumps(config, indent=2) + "\n")


def http_client_config(url: str) -> str:
    """How clients on other machines reach a server at ``url`` (a public https:// one behind a
    proxy, or this one's), with the token they were given in place of ``<token>``."""
    header = "Authorization: Bearer <token>"
    config = {"mcpServers": {"vaultmem": {"type": "http", "url": url,
                                          "headers": {"Authorization": "Bearer <token>"}}}}
    return ("Claude Code:\n\n    claude mcp add --transport http vaultmem " + url
            + " --header " + shlex.quote(header) + "\n\n"
            "Other MCP clients that speak streamable HTTP:\n\n"
            + json.dumps(config, indent=2) + "\n")
