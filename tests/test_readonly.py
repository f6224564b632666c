"""Reading never changes a vault: every read command and every dry run over a real vault."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from vaultmem.cli import COMMANDS

from .conftest import CORPUS, NO_CORPORA
from .test_cli import run

AT = ("--date", "2026-11-29", "--time", "10:00")
NOTE = "Evergreen notes turn ideas into objects that you can manipulate"
READS = {
    "scan": [["scan"], ["scan", "--json"]],
    "show": [["show", NOTE, "--text"], ["show", NOTE, "--json"]],
    "graph": [["graph", "--json"], ["graph", "--format", "mermaid", "--around", NOTE]],
    "lint": [["lint"], ["lint", "--json", "--check"]],
    "conventions": [["conventions"], ["conventions", "--json"]],
    "links": [["links", "--check", "Read [[evergreen notes]] and [[Evergren]]"],
              ["links", "--check", "[[Steph]] on [[Kyoto]]", "--note", NOTE, "--json"]],
    "search": [["search", "evergreen notes", "--explain"], ["search", "trip", "--json"]],
    "related": [["related", NOTE, "--explain"], ["related", NOTE, "--json"]],
    "tune-related": [["tune-related"], ["tune-related", "--json"]],  # its weights go to the index
    "mentions": [["mentions", "Evergreen", "--all"], ["mentions", NOTE, "--json"]],
    "lint --suggest-links": [["lint", "--suggest-links", "--all"]],
    "index": [["index"], ["index", "--json"]],
    "context": [["context", "--query", "evergreen notes"], ["context", "--note", NOTE, "--json"]],
    "conflicts": [["conflicts"], ["conflicts", "--json", "--check"]],
    "kpi": [["kpi"], ["kpi", "--json"]],
    "stale": [["stale"], ["stale", "--json"]],
    "trash": [["trash"], ["trash", "--purge", "--dry-run"]],
    "export": [["export", "--format", "council-json"]],
    "read": [["read"], ["read", "--json"]],
    "reflect": [["reflect", "--dry-run"], ["reflect", "--dry-run", "--json"]],
}
DRY_RUNS = {
    "new": ["new", "person", "Ann Bee"], "daily": ["daily", "checked the corpus"],
    "now": ["now", "set", "read the corpus"], "fact": ["fact", NOTE, "status", "done"],
    "decide": ["decide", "Keep notes small", "--topic", "notes"],
    "lesson": ["lesson", "Link often", "--agent", "Reader"],
    "write": ["write", "--fact", "Notes stay small", "--category", "facts"],
    "capture": ["capture", "remember I prefer tea"],
    "learn": ["learn", "error", "the import failed", "--pattern-key", "io.import"],
    "archive": ["archive", NOTE], "forget": ["forget", NOTE, "--force"],
    "resolve": ["resolve", "fact-conflict:00000000", "--auto"], "kpi": ["kpi", "Reading", "3"],
    "ignore": ["ignore", "--kind", "orphan"],
    "rename": ["rename", NOTE, "Evergreen notes"],
    "merge": ["merge", NOTE, "Minimal Theme"], "undo": ["undo"],
}
WRITERS = {"sync", "restore", "import", "watch", "mcp"}  # write only; tested elsewhere
NO_VAULT = {"token"}  # opens no vault: writes the tokens file outside it (tests/test_tokens.py)


def snapshot(root: Path) -> dict[str, tuple[str, int, str]]:
    """Every entry under ``root`` (folders, hidden ones too): kind, mtime and content hash."""
    found = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        kind = "dir" if path.is_dir() else "file"
        found[path.relative_to(root).as_posix()] = (kind, info.st_mtime_ns, digest)
    return found


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the kepano vault with its times kept (a bug must not damage the shared one)."""
    copy = tmp_path_factory.mktemp("ro") / "vault"
    shutil.copytree(CORPUS, copy, symlinks=True)
    return copy


def test_every_command_is_classified() -> None:
    assert set(COMMANDS) == {name.split()[0] for name in READS} | set(DRY_RUNS) | WRITERS | NO_VAULT


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPORA)
@pytest.mark.parametrize("args", [a for runs in READS.values() for a in runs],
                         ids=lambda args: " ".join(args)[:40])
def test_read_commands_leave_the_real_vault_untouched(corpus: Path, args: list[str]) -> None:
    before = snapshot(corpus)
    code, out, err = run(corpus, *args)
    assert code in (0, 1) and out and "Traceback" not in err, err
    if "--json" in args:
        json.loads(out)
    assert snapshot(corpus) == before


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPORA)
@pytest.mark.parametrize("args", list(DRY_RUNS.values()), ids=lambda args: args[0])
def test_dry_runs_leave_the_real_vault_untouched(corpus: Path, args: list[str]) -> None:
    before = snapshot(corpus)
    code, _, err = run(corpus, *args, "--dry-run", *(AT if args[0] not in NO_CLOCK else ()))
    assert code in (0, 1) and "Traceback" not in err, err
    assert snapshot(corpus) == before


NO_CLOCK = {"archive", "forget", "resolve", "capture", "rename", "merge", "undo"}


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPORA)
def test_mcp_read_tools_leave_the_real_vault_untouched(corpus: Path) -> None:
    pytest.importorskip("mcp")
    from vaultmem.live.mcp_tools import Tools
    from vaultmem.vault import Vault

    before = snapshot(corpus)
    tools = Tools(Vault(corpus))
    answers = [tools.context(query="evergreen notes"), tools.search(query="trip"),
               tools.show(note=NOTE), tools.related(note=NOTE), tools.conflicts()]
    assert all(answers)
    assert snapshot(corpus) == before
