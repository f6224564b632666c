"""The writer's guarantees: byte-exact edits, locks, compare-and-swap, atomic failure."""

from __future__ import annotations

import datetime as dt
import errno
import multiprocessing
import os
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from vaultmem.read.frontmatter import parse as parse_frontmatter
from vaultmem.vault import Vault
from vaultmem.write import files
from vaultmem.write.journal import append_daily
from vaultmem.write.locks import LockTimeout, file_lock
from vaultmem.write.props import set_property

from .conftest import CORPUS, NO_CORPORA

CORPUS_NOTES = sorted(CORPUS.rglob("*.md")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS_NOTES, reason=NO_CORPORA)
def test_adding_a_property_changes_only_that_line_in_every_corpus_note() -> None:
    checked = 0
    for path in CORPUS_NOTES:
        original = path.read_text(encoding="utf-8")
        edited = set_property(original, "vaultmem_check", "yes please")
        added = [line for line in edited.splitlines(keepends=True)
                 if line.startswith("vaultmem_check:")]
        assert added == ['vaultmem_check: "yes please"\n'] or \
            added == ["vaultmem_check: yes please\n"], path
        assert edited.replace(added[0], "", 1) == original or not original.startswith("---"), path
        if not parse_frontmatter(str(path), original).problems:
            assert parse_frontmatter(str(path), edited).data["vaultmem_check"] == "yes please"
            checked += 1
    assert checked > 50


@pytest.mark.skipif(not CORPUS_NOTES, reason=NO_CORPORA)
def test_changing_an_existing_property_keeps_every_other_byte() -> None:
    changed = 0
    for path in CORPUS_NOTES:
        original = path.read_text(encoding="utf-8")
        data = parse_frontmatter(str(path), original).data
        if not isinstance(data.get("created"), str):
            continue
        edited = set_property(original, "created", "2030-01-02")
        before, after = original.splitlines(keepends=True), edited.splitlines(keepends=True)
        assert len(before) == len(after)
        differing = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(differing) == 1 and after[differing[0]] == "created: 2030-01-02\n", path
        changed += 1
    assert changed > 10


def test_edit_keeps_bom_crlf_comments_and_missing_final_newline() -> None:
    text = "\ufeff---\r\n# a comment\r\nb: 'quoted'\r\nlist:\r\n  - x\r\n---\r\nbody without end"
    edited = set_property(text, "list", ["y", "[[Z]]"])
    assert edited == ("\ufeff---\r\n# a comment\r\nb: 'quoted'\r\nlist:\r\n  - y\r\n"
                      '  - "[[Z]]"\r\n---\r\nbody without end')


def test_external_edit_between_read_and_write_survives(tmp_path: Path) -> None:
    note = tmp_path / "Note.md"
    note.write_text("line one\n")
    calls = []

    def change(text: str | None) -> str:
        calls.append(text)
        if len(calls) == 1:  # Obsidian saves while vaultmem is working
            note.write_text("line one\nexternal line\n")
        return (text or "") + "vaultmem line\n"

    done = files.update(tmp_path, "Note.md", change)
    assert note.read_text() == "line one\nexternal line\nvaultmem line\n"
    assert calls == ["line one\n", "line one\nexternal line\n"] and done.changed


def test_a_file_that_never_settles_is_not_overwritten(tmp_path: Path) -> None:
    note = tmp_path / "Note.md"
    note.write_text("v0\n")
    counter = iter(range(100))

    def change(text: str | None) -> str:
        note.write_text(f"external {next(counter)}\n")
        return "vaultmem\n"

    with pytest.raises(files.WriteConflict, match="nothing was written"):
        files.update(tmp_path, "Note.md", change)
    assert note.read_text().startswith("external")


def test_failed_write_leaves_original_and_no_temp_file(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "Note.md"
    note.write_text("original\n")

    def full_disk(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        files.update(tmp_path, "Note.md", lambda text: "new\n")
    assert note.read_text() == "original\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Note.md"]


def test_create_never_replaces_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "A.md").write_text("mine\n")
    with pytest.raises(FileExistsError):
        files.create_new(tmp_path / "A.md", b"theirs\n")
    assert (tmp_path / "A.md").read_text() == "mine\n"


def test_edits_keep_permission_bits(tmp_path: Path) -> None:
    note = tmp_path / "Note.md"
    note.write_text("x\n")
    note.chmod(0o640)
    files.update(tmp_path, "Note.md", lambda text: "y\n")
    assert (note.stat().st_mode & 0o777, note.read_text()) == (0o640, "y\n")


def _append_many(root: str, worker: int, count: int) -> None:
    vault = Vault(root)
    for index in range(count):
        append_daily(vault, f"entry {worker}-{index}", title=f"w{worker} #{index}",
                     when=dt.datetime(2026, 11, 29, 9, worker))


def test_concurrent_appends_from_processes_keep_every_entry_once(sample: Path) -> None:
    workers, count = 4, 25
    context = multiprocessing.get_context("fork")
    procs = [context.Process(target=_append_many, args=(str(sample), w, count))
             for w in range(workers)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    text = (sample / "Daily" / "2026-11-29.md").read_text()
    for w in range(workers):
        for i in range(count):
            assert text.count(f"\nentry {w}-{i}\n") == 1
    note = Vault(sample).note("Daily/2026-11-29")
    assert len([h for h in note.headings if h.level == 3 and " — w" in h.text]) == 100
    assert note.problems == []


def test_the_same_daily_entry_again_the_same_minute_is_written_once(sample: Path) -> None:
    when = dt.datetime(2026, 11, 29, 10, 30)
    path = sample / "Daily" / "2026-11-29.md"
    first = append_daily(Vault(sample), "Checked the OCR queue.", title="OCR", when=when)
    written = path.read_bytes()
    again = append_daily(Vault(sample), "Checked the OCR queue.", title="OCR", when=when)
    later = append_daily(Vault(sample), "Checked the OCR queue.", title="OCR",
                         when=when.replace(minute=31))
    assert (first.action, again.action, later.action) == ("appended", "unchanged", "appended")
    assert path.read_bytes().startswith(written)
    assert path.read_text().count("\nChecked the OCR queue.\n") == 2
    assert Vault(sample).note("Daily/2026-11-29").problems == []


def test_writes_leave_nothing_of_vaultmem_in_the_vault(sample: Path) -> None:
    before = set(sample.rglob("*"))
    vault = Vault(sample)
    for i in range(3):
        append_daily(vault, f"hello {i}", when=dt.datetime(2026, 11, 29, 8, i))
    files.update(sample, "People/Lucy Tan.md", lambda text: f"{text}\nmore\n")
    assert set(sample.rglob("*")) - before == {sample / "Daily" / "2026-11-29.md"}


def test_a_users_vaultmem_folder_stays_and_old_lock_files_are_cleared(sample: Path) -> None:
    locks = sample / ".vaultmem" / "locks"
    locks.mkdir(parents=True)
    (sample / ".vaultmem" / "config.toml").write_text("")
    (locks / ("0" * 32 + ".lock")).write_text("")  # left by an older vaultmem or a kill -9
    append_daily(Vault(sample), "hello", when=dt.datetime(2026, 11, 29, 8, 0))
    assert sorted(p.name for p in (sample / ".vaultmem").iterdir()) == ["config.toml"]


def _hold_lock(root: str, talk: Connection) -> None:
    with file_lock(Path(root), "Note.md"):
        talk.send("held")
        talk.poll(60)  # until told to let go (a pipe's wait is on the monotonic clock)


def test_a_held_lock_blocks_another_process_until_released(tmp_path: Path) -> None:
    ours, theirs = multiprocessing.Pipe()
    holder = multiprocessing.Process(target=_hold_lock, args=(str(tmp_path), theirs))
    holder.start()
    try:
        assert ours.poll(60) and ours.recv() == "held"
        with pytest.raises(LockTimeout, match=r"note\.md: another writer held its lock"), \
                file_lock(tmp_path, "note.md", timeout=0.2):  # names differ only in case
            pass
    finally:
        ours.send("go")
        holder.join(60)
    with file_lock(tmp_path, "Note.md"):
        assert len(list((tmp_path / ".vaultmem-locks").iterdir())) == 1
    assert list(tmp_path.iterdir()) == []


def _count_under_lock(root: str, rounds: int) -> None:
    counter = Path(root) / "counter"
    for _ in range(rounds):
        with file_lock(Path(root), "Note.md"):
            value = int(counter.read_text())
            counter.write_text(str(value + 1))


def test_deleting_the_lock_file_never_lets_two_writers_in(tmp_path: Path) -> None:
    (tmp_path / "counter").write_text("0")
    procs = [multiprocessing.Process(target=_count_under_lock, args=(str(tmp_path), 150))
             for _ in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
        assert proc.exitcode == 0
    assert (tmp_path / "counter").read_text() == "600"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter"]
