"""Bugs found on real vaults written by other people: each one now behaves (none may hang)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from vaultmem.regular_files import NotRegularFile, read_regular

from .conftest import ROOT, hash_tree
from .test_cli import run

AT = ("--date", "2026-11-29", "--time", "14:05")
WAIT = 60.0  # seconds a command may take before it counts as hanging
LATIN1 = "---\ntype: lesson\nstatus: active\n---\n# Caf\xe9\n".encode("latin-1")
NOT_REGULAR = "so vaultmem does not open it; remove it or rename it without .md"


def vaultmem(vault: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in its own process, killed (and the test failed) if it hangs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault), *args],
                          capture_output=True, text=True, timeout=WAIT, cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL)


def odd_files(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A named pipe, a symlink to it, a socket and a symlink to a device, all named .md."""
    (vault / "Good.md").write_text("see [[Other]]\n")
    (vault / "Other.md").write_text("see [[Good]]\n")
    os.mkfifo(vault / "Pipe.md")
    (vault / "People").mkdir()
    (vault / "People" / "Linked.md").symlink_to("../Pipe.md")
    (vault / "Null.md").symlink_to(os.devnull)
    monkeypatch.chdir(vault)  # a socket path must be short: bind it relative to the vault
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("Socket.md")


def test_non_regular_note_files_are_problems_and_never_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    odd_files(tmp_path, monkeypatch)
    done = vaultmem(tmp_path, "lint", "--json", "--kind", "unreadable")
    assert done.returncode == 0, done.stderr
    found = [(f["notes"], f["message"]) for f in json.loads(done.stdout)["findings"]]
    assert found == [
        (["Null"], "Null.md: a symbolic link out of the vault; vaultmem does not follow it "
                   "(move what it points to into the vault, or remove the link)"),
        (["People/Linked"], f"People/Linked.md: not a regular file (a symbolic link to a named "
                            f"pipe), {NOT_REGULAR}"),
        (["Pipe"], f"Pipe.md: not a regular file (a named pipe), {NOT_REGULAR}"),
        (["Socket"], f"Socket.md: not a regular file (a socket), {NOT_REGULAR}"),
    ]
    scan = vaultmem(tmp_path, "scan", "--json")
    assert scan.returncode == 0 and json.loads(scan.stdout)["notes"] == 2


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_writing_to_a_named_pipe_is_refused_without_waiting(sample: Path,
                                                             dry_run: list[str]) -> None:
    os.mkfifo(sample / "Daily" / "2026-11-29.md")
    (sample / "NOW.md").unlink()
    os.mkfifo(sample / "NOW.md")
    before = hash_tree(sample)
    for args, rel in ((["daily", "hello"], "Daily/2026-11-29.md"), (["now", "set", "x"], "NOW.md")):
        done = vaultmem(sample, *args, *dry_run, *AT)
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == (f"Error: {rel} is not a regular file (a named pipe); vaultmem "
                               "reads and writes only regular note files; remove it or rename "
                               "it without .md\n")
    assert (sample / "NOW.md").is_fifo() and (sample / "Daily" / "2026-11-29.md").is_fifo()
    assert hash_tree(sample) == before


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
@pytest.mark.parametrize(("rel", "args"), [
    ("Lessons/Latin.md", ["archive", "Latin"]),
    ("NOW.md", ["now", "set", "Ship it"]),
    ("Daily/2026-11-29.md", ["daily", "hello"]),
])
def test_a_note_that_is_not_utf8_is_refused_clearly(sample: Path, rel: str, args: list[str],
                                                    dry_run: list[str]) -> None:
    (sample / rel).write_bytes(LATIN1)
    before = hash_tree(sample)
    code, out, err = run(sample, *args, *dry_run, *AT)
    assert (code, out) == (1, "")
    assert err == (f"Error: {rel} is not valid UTF-8 (byte 41); vaultmem will not rewrite it; "
                   "re-save it as UTF-8 first\n")
    assert hash_tree(sample) == before


def test_a_template_that_is_not_utf8_is_refused_clearly(sample: Path) -> None:
    (sample / "Templates" / "Daily.md").write_bytes(LATIN1)
    before = hash_tree(sample)
    code, _, err = run(sample, "daily", "hello", *AT)
    assert code == 1
    assert err == ("Error: the daily template Templates/Daily.md is not valid UTF-8 (byte 41); "
                   "vaultmem will not use it; re-save it as UTF-8 first; nothing was written\n")
    assert hash_tree(sample) == before


def test_memory_that_is_not_utf8_is_still_read(sample: Path) -> None:
    (sample / "MEMORY.md").write_bytes(b"# Memory\n\n## Facts\n- caf\xe9\n")
    code, out, _ = run(sample, "read", "--json")
    assert code == 0 and json.loads(out)["categories"]["facts"] == ["caf\ufffd"]


def test_fact_on_invalid_yaml_names_the_line_and_the_fix(sample: Path) -> None:
    (sample / "People" / "Kim.md").write_text("---\ntype: person\nrole: dev: lead\n---\n# Kim\n")
    before = hash_tree(sample)
    for args in (["fact", "Kim", "timezone", "UTC"], ["archive", "Kim"]):
        code, out, err = run(sample, *args, *AT)
        assert (code, out) == (1, "")
        assert err == ("Error: People/Kim.md: its frontmatter is not valid YAML (line 3: mapping "
                       "values are not allowed in this context), so a property written there "
                       "would not read back; fix that line (quote a value holding : or #, close "
                       "a [ or {), then try again; nothing was written\n")
    assert hash_tree(sample) == before


UNCLOSED = "---\ntype: person\nrole: dev\n\n# Kim\nbody\n"


@pytest.mark.parametrize("args", [["fact", "Kim", "timezone", "UTC"], ["archive", "Kim"],
                                  ["fact", "Kim", "timezone", "UTC", "--dry-run"]])
def test_an_unclosed_frontmatter_gets_no_second_block(sample: Path, args: list[str]) -> None:
    (sample / "People" / "Kim.md").write_text(UNCLOSED)
    before = hash_tree(sample)
    code, out, err = run(sample, *args, *AT)
    assert (code, out) == (1, "")
    assert err == ("Error: People/Kim.md: its frontmatter opens with --- on line 1 but no line "
                   "--- closes it; add a --- line after the last property (or remove line 1 if "
                   "it opens no properties), then try again; nothing was written\n")
    assert hash_tree(sample) == before


def test_an_unclosed_frontmatter_still_takes_daily_entries(sample: Path) -> None:
    daily = sample / "Daily" / "2026-11-29.md"
    daily.write_text("---\nmood: fine\n\n# Sunday\n")
    assert run(sample, "daily", "Late note", *AT)[:2] == (0, "appended Daily/2026-11-29.md\n")
    assert daily.read_text() == "---\nmood: fine\n\n# Sunday\n\n### 14:05 — Late note\n"


def test_show_prints_no_line_for_a_whole_file_problem(sample: Path) -> None:
    (sample / "Blob.md").write_bytes(b"a\x00b\n")
    assert run(sample, "show", "Blob") == (0, "Blob  (note)  Blob.md\nProblems (1):\n"
                                              "  binary: binary data in a .md file; not indexed\n",
                                           "")


def test_lint_text_has_every_line_the_json_has(sample: Path) -> None:
    (sample / "Bad.md").write_text("---\ntags: [a\n---\nsee [[Home]] and [[Nowhere]]\n")
    kinds = ("--all", "--kind", "frontmatter", "--kind", "unwritten-link")
    code, out, _ = run(sample, "lint", *kinds)
    findings = json.loads(run(sample, "lint", "--json", *kinds)[1])["findings"]
    assert code == 0
    assert [(f["kind"], f["line"]) for f in findings] == [
        ("frontmatter", 2), ("unwritten-link", 4), ("unwritten-link", 10)]
    assert out == (
        "frontmatter     Bad.md:2: invalid YAML frontmatter: did not find expected ',' or ']'; "
        "fix the properties (quote values with : or #)\n"
        "unwritten-link  Bad.md:4: [[Nowhere]] links a note nobody wrote yet\n"
        "                -> create the note or fix the link\n"
        "unwritten-link  Daily/2026-11-28.md:10: [[Invoice Parser v2]] links a note nobody wrote "
        "yet\n"
        "                -> create the note or fix the link\n"
        "3 finding(s): frontmatter 1, unwritten-link 2.\n")


def test_lesson_body_goes_under_rule(sample: Path) -> None:
    code, out, _ = run(sample, "lesson", "Rafael - Crop margins", "--agent", "Rafael",
                       "--body", "Crop 2% margins before OCR.\n\nSeen on photos.", *AT)
    assert (code, out) == (0, "created Lessons/Rafael - Crop margins.md\n")
    text = (sample / "Lessons" / "Rafael - Crop margins.md").read_text()
    assert text.endswith("# Rafael - Crop margins\n\n## Rule\nCrop 2% margins before OCR.\n\n"
                         "Seen on photos.\n\n## Why\n\n## Sources\n")


def test_versions_start_at_one_and_every_one_is_in_the_history(sample: Path) -> None:
    path = sample / "People" / "Priya Nair.md"
    assert run(sample, "fact", "Priya", "languages", "English", *AT)[1] == (
        "updated People/Priya Nair.md (version 1)\n")
    assert run(sample, "fact", "Priya", "languages", "English, Hindi", *AT)[1].startswith(
        "updated People/Priya Nair.md (version 2)\n  conflict detected")
    assert run(sample, "fact", "Priya", "team", "3", *AT)[1] == (
        "updated People/Priya Nair.md (version 3)\n")
    text = path.read_text()
    assert "\nversion: 3\n" in text
    assert text.endswith("\n## History\n- v1 (2026-11-29): languages = English\n"
                         "- v2 (2026-11-29): languages = English, Hindi\n"
                         "- v3 (2026-11-29): team = 3\n")


def test_a_history_without_a_version_property_goes_on_from_its_last_version(
        sample: Path) -> None:
    path = sample / "People" / "Kim.md"
    path.write_text("---\ntype: person\n---\n# Kim\n\n## History\n"
                    "- v1 (2026-11-20): role = dev (kept over lead in [[Home]])\n")
    assert run(sample, "fact", "Kim", "timezone", "UTC", *AT)[1] == (
        "updated People/Kim.md (version 2)\n")
    assert path.read_text().endswith("- v1 (2026-11-20): role = dev (kept over lead in [[Home]])\n"
                                     "- v2 (2026-11-29): timezone = UTC\n")


def test_settings_that_are_named_pipes_are_an_error_not_a_hang(tmp_path: Path) -> None:
    (tmp_path / ".obsidian").mkdir()
    os.mkfifo(tmp_path / ".obsidian" / "app.json")
    (tmp_path / "Templates").mkdir()
    os.mkfifo(tmp_path / "Templates" / "Pipe.md")  # read when looking for placeholders
    done = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(tmp_path), "scan"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "app.json: cannot read settings" in done.stderr
    assert "is not a regular file (a named pipe)" in done.stderr


def test_a_named_pipe_is_never_read_as_a_note(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "Pipe.md")
    with pytest.raises(NotRegularFile, match="a named pipe"):
        read_regular(tmp_path / "Pipe.md")
