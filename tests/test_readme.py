"""Every read-only command the README shows prints, today, exactly what the README says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultmem.cli import cli

from .conftest import ROOT

READ_ONLY = {"scan", "show", "lint", "context", "search", "related", "index", "conflicts", "kpi",
             "stale"}
BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, list[str]]]:
    """(command line, expected output lines) of each README example of a read-only command."""
    found = []
    for block in BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8")):
        for part in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if not part.startswith("$ vaultmem --vault sample_vault "):
                continue
            command, *output = part.rstrip("\n").split("\n")
            if shlex.split(command[2:])[3] in READ_ONLY:
                found.append((command[2:], output))
    return found


def normalise(lines: list[str]) -> list[str]:
    """Lines that differ from machine to machine: the vault path and the scan time."""
    out = []
    for line in lines:
        line = re.sub(r"^Vault   .*", "Vault   <path>", line)
        out.append(re.sub(r" in \d+\.\d+ s$", " in <time> s", line))
    return out


@pytest.mark.parametrize(("command", "expected"), examples(), ids=[c for c, _ in examples()])
def test_readme_example(command: str, expected: list[str], sample: Path) -> None:
    args = shlex.split(command)[1:]
    args[1] = str(sample)
    result = CliRunner().invoke(cli, args)
    actual = (result.stdout + result.stderr).rstrip("\n").split("\n") if (
        result.stdout + result.stderr) else []
    if expected and expected[-1] == "...":  # the README shows only the start
        expected, actual = expected[:-1], actual[: len(expected) - 1]
    assert normalise(actual) == normalise(expected)


def test_examples_were_found() -> None:
    assert len(examples()) >= 10


def test_python_api_example_runs(sample: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"## Python API\n.*?```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    monkeypatch.chdir(sample.parent)
    exec(compile(code.group(1).replace('"sample_vault"', repr(sample.name)), "README", "exec"), {})
    out = capsys.readouterr().out
    assert "KPIs/OCR Accuracy" in out and "# Context for Rafael\n" in out
