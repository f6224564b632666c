"""Every command the README and the docs pages show prints exactly what they say, on any day."""

from __future__ import annotations

import datetime as dt
import re
import shlex
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from vaultmem.cli import cli

from .conftest import NOW, ROOT, SAMPLE, set_file_times

READ_ONLY = {"scan", "show", "lint", "context", "search", "related", "index", "conflicts", "kpi",
             "stale"}
LONG_RUNNING = {"watch", "mcp"}
BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
COMMAND = re.compile(r"\$ ((?:[A-Z_]+=\S+ )*)(vaultmem --vault sample_vault .*)")
# Days a new user might clone the repository and run the examples: the tests' own day, three
# years on, and a 29 February. What the README shows must not depend on which.
CLONE_DAYS = [NOW, dt.datetime(2029, 12, 3, 18, 30), dt.datetime(2028, 2, 29, 7, 15)]
# The day the writing examples record, as the README says (they record today's date).
WRITE_DAY = "2026-11-29T10:00"


class Example(NamedTuple):
    """One ``$ vaultmem ...`` line of a console block and the output shown under it."""

    env: dict[str, str]
    args: list[str]
    expected: list[str]


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks() -> list[list[Example]]:
    """The console blocks of the README and the docs pages that run vaultmem on sample_vault,
    each in order."""
    found = []
    for block in (b for page in PAGES for b in BLOCK.findall(page.read_text(encoding="utf-8"))):
        examples = []
        for part in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            command, *output = part.rstrip("\n").split("\n")
            match = COMMAND.fullmatch(command)
            if match and shlex.split(match.group(2))[3] not in LONG_RUNNING:
                env = dict(a.split("=", 1) for a in shlex.split(match.group(1)))
                examples.append(Example(env, shlex.split(match.group(2))[1:], output))
        if examples:
            found.append(examples)
    return found


def block_id(block: list[Example]) -> str:
    """The block's first command, as a test id."""
    return " ".join(block[0].args[2:5])


def shown(expected: list[str], actual: list[str]) -> list[str]:
    """``actual`` cut as the README cuts its example: a ``...`` line stands for any lines."""
    if "..." not in expected:
        return actual
    cut = expected.index("...")
    tail = len(expected) - cut - 1
    return [*actual[:cut], "...", *(actual[len(actual) - tail :] if tail else [])]


def normalise(lines: list[str]) -> list[str]:
    """Lines that differ with the machine's speed: the scan time."""
    return [re.sub(r" in \d+\.\d+ s$", " in <time> s", line) for line in lines]


@pytest.fixture
def fresh_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``sample_vault`` as a new clone has it, in the current folder (as the README runs it)."""
    shutil.copytree(SAMPLE, tmp_path / "sample_vault")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "sample_vault"


@pytest.mark.parametrize("day", CLONE_DAYS, ids=lambda d: d.date().isoformat())
@pytest.mark.parametrize("block", blocks(), ids=block_id)
def test_readme_examples(block: list[Example], day: dt.datetime, fresh_clone: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each console block, in order, on a fresh clone made on ``day`` (its file times) and run
    that day; writing commands record WRITE_DAY, as the README says."""
    set_file_times(fresh_clone, day.replace(tzinfo=dt.UTC).timestamp())
    for example in block:
        writes = example.args[2] not in READ_ONLY
        monkeypatch.setenv("VAULTMEM_NOW", WRITE_DAY if writes else day.isoformat())
        for name, value in example.env.items():
            monkeypatch.setenv(name, value)
        result = CliRunner().invoke(cli, example.args)
        text = result.stdout + result.stderr
        actual = text.rstrip("\n").split("\n") if text else []
        if not example.expected:  # the README shows the command, not what it prints
            assert result.exit_code == 0, text
            continue
        assert normalise(shown(example.expected, actual)) == normalise(example.expected)


def test_examples_were_found() -> None:
    examples = [e for block in blocks() for e in block]
    assert len(examples) >= 30 and sum(e.args[2] in READ_ONLY for e in examples) >= 10


def test_python_api_example_runs(sample: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    code = re.search(r"## Python API\n.*?```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    monkeypatch.chdir(sample.parent)
    exec(compile(code.group(1).replace('"sample_vault"', repr(sample.name)), "README", "exec"), {})
    out = capsys.readouterr().out
    assert "KPIs/OCR Accuracy" in out and "# Context for Rafael\n" in out
