"""What a command loads: not the Markdown parser when nothing changed, never networkx for a
one-note command (``related`` reads a part of the graph from the index), nothing of the other
commands, and no parser for settings a vault lacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vaultmem.cli import COMMANDS
from vaultmem.vault import Vault

PROBE = """
import runpy, sys
sys.argv = ["vaultmem", "--vault", sys.argv[1], *sys.argv[2:]]
code = 0
try:
    runpy.run_module("vaultmem", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print("loaded:", *sorted(sys.modules), file=sys.stderr)
sys.exit(code)
"""
OPENED = """
import sys
from vaultmem.vault import Vault
vault = Vault(sys.argv[1])
print(vault.note("Lucy Tan").id)
print(*sorted(sys.modules))
"""
# Loaded only by the commands that write, generate, curate or serve.
OTHER_LAYERS = ("vaultmem.write", "vaultmem.generate", "vaultmem.curate", "vaultmem.live")


def loaded(sample: Path, command: list[str]) -> set[str]:
    """The modules a fresh ``vaultmem --vault SAMPLE COMMAND`` process has loaded at its end."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(sample), *command],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode in (0, 1) and done.stdout, done.stderr  # 1: lint's findings
    last = done.stderr.strip().splitlines()[-1].split()
    assert last[0] == "loaded:", done.stderr
    return set(last[1:])


@pytest.mark.parametrize(("command", "heavy"), [
    (["show", "Lucy Tan"], ""), (["scan"], ""), (["lint"], "rapidfuzz"),
    (["search", "pricing"], "rapidfuzz"), (["related", "Lucy Tan"], ""),
    (["related", "Lucy Tan", "--depth", "3"], "networkx"), (["context", "--query", "pricing"], "")])
def test_a_warm_command_loads_only_what_it_uses(sample: Path, command: list[str],
                                                heavy: str) -> None:
    assert Vault(sample).index.stats.parsed > 0  # the index is warm for the command
    loaded(sample, ["conflicts"])  # and the findings a context warns of are stored
    found = loaded(sample, command) & {"markdown_it", "networkx", "rapidfuzz", "ctypes"}
    assert " ".join(sorted(found)) == heavy  # lint: "did you mean", search: names; a context
    # reads stored findings (no duplicate check, no supersede cycles)


@pytest.mark.parametrize("command", [
    ["show", "Lucy Tan"], ["scan"], ["lint"], ["search", "pricing"], ["related", "Lucy Tan"],
    ["context", "--query", "pricing"]])
def test_a_read_command_loads_no_other_command_and_no_settings_parser(
        sample: Path, command: list[str]) -> None:
    assert not (sample / ".vaultmem" / "config.toml").exists()
    modules = loaded(sample, command)
    own = f"vaultmem.cli.{COMMANDS[command[0]]}"
    assert sorted(m for m in modules if m.startswith("vaultmem.cli.")) == [own]
    assert not [m for m in modules if m.startswith(OTHER_LAYERS)]
    assert "tomllib" not in modules  # the vault has no .vaultmem/config.toml


def test_opening_a_vault_loads_no_fuzzy_matcher_and_no_settings_parser(sample: Path) -> None:
    done = subprocess.run([sys.executable, "-c", OPENED, str(sample)], capture_output=True,
                          text=True, timeout=120, check=True)
    note_id, names = done.stdout.splitlines()
    modules = names.split()
    assert note_id == "People/Lucy Tan" and "vaultmem.similar_names" in modules
    assert "rapidfuzz" not in modules and "tomllib" not in modules


def test_version_opens_no_vault(sample: Path) -> None:
    modules = loaded(sample, ["--version"])
    assert "vaultmem.cli" in modules and "vaultmem.vault" not in modules
