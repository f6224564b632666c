"""What a one-note command loads: not the Markdown parser when nothing changed, never networkx."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vaultmem.vault import Vault

PROBE = """
import runpy, sys
sys.argv = ["vaultmem", "--vault", sys.argv[1], *sys.argv[2:]]
code = 0
try:
    runpy.run_module("vaultmem", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print("loaded:", *[m for m in ("markdown_it", "networkx") if m in sys.modules], file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize(("command", "heavy"), [
    (["show", "Lucy Tan"], ""), (["scan"], ""), (["lint"], ""),
    (["search", "pricing"], ""), (["related", "Lucy Tan"], "networkx")])
def test_a_warm_command_loads_only_what_it_uses(sample: Path, command: list[str],
                                                heavy: str) -> None:
    assert Vault(sample).index.stats.parsed > 0  # the index is warm for the command
    done = subprocess.run([sys.executable, "-c", PROBE, str(sample), *command],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode in (0, 1) and done.stdout, done.stderr  # 1: lint's findings
    assert done.stderr.strip().splitlines()[-1] == f"loaded: {heavy}".strip()
