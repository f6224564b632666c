"""Security: writes stay inside the vault, planted secrets never reach any output, private cache."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from vaultmem.vault import Vault
from vaultmem.write.files import move, remove, update
from vaultmem.write.paths import OutsideVault, inside

from .conftest import hash_tree
from .test_cli import run
from .test_secrets import POSITIVE

AT = ("--date", "2026-11-29", "--time", "10:00")
EXTRA = ["password:: Tr0ub4dor&3y", "api_key:: k9Zq7wX2Lp"]  # inline fields, key = context
LUCY = ["password:: Tr0ub4dor&3y"]
DAILY = ["- [[Lucy Tan]] password:: Tr0ub4dor&3z"]  # with LUCY: a fact conflict of two secrets


def plant(vault: Path) -> list[str]:
    """Put one credential of every kind into notes that every command reads; return what must
    never be shown (each secret line longer than 8 characters)."""
    lines = [f"- OCR accuracy note {i} for [[Rafael]]: {before}{secret}{after}"
             for i, (_, before, secret, after) in enumerate(POSITIVE)]
    block = "\n".join(lines)
    for rel in ("Projects/DataFlow.md", "MEMORY.md", "NOW.md", "Agents/Rafael.md"):
        _append(vault / rel, f"\n## Credentials\n{block}\n" + "\n".join(EXTRA))
    _append(vault / "Daily/2026-11-28.md", f"\n### 16:00 — OCR accuracy secrets\n{block}")
    _append(vault / "Daily/2026-11-26.md", "\n".join(DAILY))
    single = [(b, s, a) for _, b, s, a in POSITIVE if "\n" not in s]
    props = "".join(f'secret_{i}: "{b}{s}{a}"\n' for i, (b, s, a) in enumerate(single))
    lucy = vault / "People/Lucy Tan.md"
    lucy.write_text(lucy.read_text().replace("---\n", "---\npassword: Tr0ub4dor&3x\n" + props, 1)
                    + "\n" + "\n".join(LUCY) + "\n")
    secrets = [s for _, _, s, _ in POSITIVE] + ["Tr0ub4dor&3x", "Tr0ub4dor&3y", "Tr0ub4dor&3z",
                                                 "k9Zq7wX2Lp"]
    return sorted({line for s in secrets for line in s.split("\n") if len(line) > 8})


def _new_lines(old: str, new: str) -> str:
    """The lines of ``new`` that ``old`` did not have."""
    kept = set(old.splitlines())
    return "\n".join(line for line in new.splitlines() if line not in kept)


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n" + text + "\n")


READS = [
    ["scan", "--json"], ["show", "DataFlow", "--text"], ["show", "Lucy Tan", "--json"],
    ["show", "Lucy Tan", "--text"], ["show", "DataFlow - free beta", "--json"],
    ["graph", "--json"], ["graph", "--format", "mermaid"], ["graph", "--format", "graphml"],
    ["lint"], ["lint", "--json"], ["search", "OCR accuracy note", "--explain"],
    ["search", "password", "--json"], ["related", "DataFlow", "--explain"],
    ["related", "Lucy Tan", "--json"], ["index"], ["index", "--json"],
    ["context", "--agent", "Rafael", "--query", "OCR accuracy note", "--budget", "8000"],
    ["context", "--note", "Lucy Tan", "--json", "--budget", "8000"], ["conflicts"],
    ["conflicts", "--json"], ["kpi", "--json"], ["stale", "--json"], ["trash", "--json"],
    ["export", "--format", "council-json"], ["read"], ["read", "--json"],
    ["reflect", "--dry-run"],
]
WRITES = [
    ["sync", "--budget", "8000"], ["conflicts", "--write"], ["index", "--write"],
    ["context", "--agent", "Rafael", "--query", "OCR accuracy note", "--write"],
    ["reflect"], ["export", "--format", "council-json", "-o", "{out}"],
]


def test_planted_secrets_never_reach_any_output_or_written_file(sample: Path,
                                                                 tmp_path: Path) -> None:
    secrets = plant(sample)
    before = hash_tree(sample)
    originals = {rel: (sample / rel).read_text() for rel in before if rel.endswith(".md")}
    shown: dict[str, str] = {}
    for args in READS + WRITES:
        args = [a.replace("{out}", str(tmp_path / "export.json")) for a in args]
        code, out, err = run(sample, *args)
        assert code in (0, 1), (args, err)
        shown[" ".join(args)] = out + err
    changed = {rel for rel, digest in hash_tree(sample).items() if before.get(rel) != digest}
    assert {"_vaultmem/Conflicts.md", "_vaultmem/context/Rafael.md"} <= changed
    for rel in changed:  # a secret the user's own note already held is not a leak
        shown[rel] = _new_lines(originals.get(rel, ""), (sample / rel).read_text())
    shown["export.json"] = (tmp_path / "export.json").read_text()
    leaks = {(where, s[:12]) for where, text in shown.items() for s in secrets if s in text}
    assert not leaks
    assert "[REDACTED:password assignment]" in shown["conflicts"]


def test_mcp_tools_never_show_a_planted_secret(sample: Path) -> None:
    pytest.importorskip("mcp")
    from vaultmem.live.mcp_write import WriteTools

    secrets = plant(sample)
    tools = WriteTools(Vault(sample))
    answers = [tools.context(agent="Rafael", query="OCR accuracy note", budget=8000),
               tools.search(query="password"), tools.show(note="Lucy Tan"),
               tools.show(note="Lucy Tan", content=False), tools.show(note="DataFlow - free beta"),
               tools.related(note="Lucy Tan"), tools.conflicts()]
    assert not [s[:12] for s in secrets for text in answers if s in text]
    assert "[REDACTED:password assignment]" in answers[-1]


@pytest.mark.parametrize("rel", [
    "/etc/passwd", "../outside.md", "Daily/../../outside.md", "Daily/..", "", ".obsidian/x.md",
    "bad\x00name.md", "CON.md", "People/aux.md", "Com1.txt/x.md", "lpt9.md", "x:y.md",
    "why?.md", "a|b.md", "Daily./x.md", "trailing /x.md", "back\\slash.md",
])
def test_a_write_never_leaves_the_vault_or_makes_an_unportable_name(sample: Path, rel: str,
                                                                     tmp_path: Path) -> None:
    before = hash_tree(tmp_path)
    with pytest.raises(OutsideVault):
        update(sample, rel, lambda text: "written\n")
    assert hash_tree(tmp_path) == before


def test_symlinked_folders_and_files_are_never_written_through(sample: Path,
                                                               tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    shutil.move(sample / "People", outside)  # People/ now lives outside, linked in
    os.symlink(outside, sample / "People")
    os.symlink(outside / "Lucy Tan.md", sample / "Lucy.md")
    before = hash_tree(outside)
    for rel in ("People/Lucy Tan.md", "People/New.md", "Lucy.md"):
        with pytest.raises(OutsideVault):
            inside(sample, rel)
    for args in (["new", "person", "Zed Young"], ["fact", "Lucy Tan", "role", "ceo"],
                 ["fact", "Lucy", "role", "ceo"]):
        code, _, err = run(sample, *args, *AT)
        assert code == 1 and ("outside the vault" in err or "symbolic link" in err
                              or "no note named" in err), err  # links out are not followed
    assert hash_tree(outside) == before


def test_trash_through_a_symlink_is_refused(sample: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, sample / ".trash")
    with pytest.raises(OutsideVault):
        move(sample, "Archive/Old pricing notes.md", ".trash/Old pricing notes.md")
    (outside / "keep.md").write_text("mine\n")
    with pytest.raises(OutsideVault):
        remove(sample, ".trash/keep.md")
    code, _, err = run(sample, "forget", "Henrik Olsen", "--force")
    assert code == 1 and "outside the vault" in err
    assert sorted(p.name for p in outside.iterdir()) == ["keep.md"]
    assert (sample / "People/Henrik Olsen.md").exists()


@pytest.mark.parametrize("args", [
    ["new", "person", "../../escaped"], ["new", "person", "/tmp/escaped"],
    ["new", "person", "CON"], ["decide", "../escaped", "--topic", "x"],
    ["lesson", "nul", "--agent", "Rafael"], ["fact", "../escaped", "role", "x"],
])
def test_cli_titles_that_would_leave_the_vault_are_refused(sample: Path, tmp_path: Path,
                                                           args: list[str]) -> None:
    before = hash_tree(tmp_path)
    code, out, err = run(sample, *args, *AT)
    assert code == 1 and out == "" and "Traceback" not in err
    assert hash_tree(tmp_path) == before


def test_mcp_tools_refuse_paths_outside_the_vault(sample: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from vaultmem.live.mcp_tools import ToolError
    from vaultmem.live.mcp_write import WriteTools

    (tmp_path / "secret.md").write_text("outside\n")
    tools = WriteTools(Vault(sample))
    before = hash_tree(tmp_path)
    calls = [lambda: tools.show(note=str(tmp_path / "secret.md")),
             lambda: tools.show(note="../secret"), lambda: tools.related(note="/etc/passwd"),
             lambda: tools.context(note="../../secret"),
             lambda: tools.decide(title="../escaped", topic="x"),
             lambda: tools.lesson(title="/tmp/escaped", agent="Rafael"),
             lambda: tools.fact(note="../secret", attribute="role", value="x"),
             lambda: tools.learn(kind="error", text="x", pattern_key="a.b", area="../../up")]
    for call in calls:
        with pytest.raises(ToolError):
            call()
    assert hash_tree(tmp_path) == before


def test_cache_folders_are_private_whatever_the_umask(sample: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    old = os.umask(0)
    try:
        Vault(sample).index  # noqa: B018 (building the index writes the cache)
    finally:
        os.umask(old)
    folders = [p for p in (tmp_path / "xdg").rglob("*") if p.is_dir()]
    assert folders and all(stat.S_IMODE(p.stat().st_mode) == 0o700 for p in folders)
