"""The index database under many processes: readers beside a writer, a writer killed mid-update."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from vaultmem.errors import IndexBusy
from vaultmem.index import store as store_module
from vaultmem.index.parsing import parse_files
from vaultmem.read.walk import list_vault
from vaultmem.vault import Vault

ROUNDS = 40


def _edit_and_scan(root: str, rounds: int) -> None:
    """Add a line linking Lucy to a daily note, ``rounds`` times, each time reading the vault
    again (it or a reader stores the changed note in the index): the new line is always seen."""
    note = Path(root) / "Daily" / "2026-11-25.md"
    for i in range(rounds):
        with note.open("a", encoding="utf-8") as handle:
            handle.write(f"\n- round {i} with [[Lucy Tan]]\n")
        assert f"round {i} with" in Vault(root).note_text("Daily/2026-11-25")


def _read(root: str, rounds: int, out: Connection) -> None:
    """Open the vault afresh and ask for Lucy's backlinks, ``rounds`` times."""
    counts = []
    for _ in range(rounds):
        vault = Vault(root)
        counts.append(len(vault.backlinks("People/Lucy Tan")))
    out.send(counts)


def test_readers_and_a_writer_at_once(sample: Path) -> None:
    before = len(Vault(sample).backlinks("People/Lucy Tan"))
    ours, theirs = multiprocessing.Pipe()
    writer = multiprocessing.Process(target=_edit_and_scan, args=(str(sample), ROUNDS))
    readers = [multiprocessing.Process(target=_read, args=(str(sample), ROUNDS, theirs))
               for _ in range(2)]
    for proc in [writer, *readers]:
        proc.start()
    counts = [ours.recv() for _ in readers if ours.poll(120)]
    for proc in [writer, *readers]:
        proc.join(120)
        assert proc.exitcode == 0
    assert len(counts) == 2 and all(c == sorted(c) for c in counts), counts  # never older
    final = Vault(sample)
    assert len(final.backlinks("People/Lucy Tan")) == before + ROUNDS
    assert final.index.stats.parsed == 0


def _replace_forever(root: str, started: Connection) -> None:
    """Store the same parsed notes again and again, as fast as it can."""
    vault = Vault(root)
    index = vault.index
    sources = [info for info in list_vault(vault.config).notes if info.role == "source"]
    entries = dict(parse_files(vault.config, sources, index.resolver))  # with their rows
    vault.store.replace(entries, [], files=index.files, resolver=index.resolver)
    started.send("go")  # only once a whole update went through
    while True:
        vault.store.replace(entries, [], files=index.files, resolver=index.resolver)


def test_a_writer_killed_mid_update_leaves_a_consistent_index(sample: Path) -> None:
    vault = Vault(sample)
    links = len(vault.backlinks("People/Lucy Tan"))
    ours, theirs = multiprocessing.Pipe()
    for delay in (0.05, 0.2, 0.5):
        writer = multiprocessing.Process(target=_replace_forever, args=(str(sample), theirs))
        writer.start()
        assert ours.poll(60) and ours.recv() == "go"
        time.sleep(delay)  # a moment somewhere inside a transaction, most likely
        os.kill(writer.pid or 0, signal.SIGKILL)
        writer.join(30)
        with sqlite3.connect(vault.store.path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert db.execute("SELECT count(*) FROM notes").fetchone() == (30,)
        again = Vault(sample)
        assert again.index.stats.parsed == 0
        assert len(again.backlinks("People/Lucy Tan")) == links


def test_a_slow_scan_never_puts_back_an_older_note(sample: Path) -> None:
    vault = Vault(sample)
    older = vault.index.entries(["NOW.md"])["NOW.md"]
    (sample / "NOW.md").write_text("# Now\n\n- newer [[Lucy Tan]]\n")
    newer = Vault(sample)
    assert "newer" in newer.note_text("NOW")
    stored = vault.store.entries(["NOW.md"])
    index = vault.index  # the first scan's result, stored last:
    vault.store.replace({"NOW.md": older}, files=index.files, resolver=index.resolver)
    assert vault.store.entries(["NOW.md"]) == stored
    assert "NOW" in vault.store.linking("People/Lucy Tan")


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(child) for child in task.read_text().split()]
    return found


def _wait_until_gone(pids: list[int]) -> None:
    """Fail unless every one of ``pids`` has exited within 10 seconds."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = [pid for pid in pids if Path(f"/proc/{pid}").exists()
                 and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]]
        if not alive:
            return
        time.sleep(0.05)
    raise AssertionError(f"parse workers {alive} outlived their killed scan")


def _scan_slowly(root: str) -> None:
    """A first scan that stores its notes 20 at a time (then killed somewhere in it)."""
    from vaultmem.index import scan as scan_module

    scan_module.STORE_EVERY = 20
    Vault(root).index  # noqa: B018


def test_a_scan_killed_between_batches_is_completed_by_the_next(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    (root / "Notes").mkdir(parents=True)
    for i in range(1000):  # enough for worker processes; each links a note made later
        (root / "Notes" / f"N{i}.md").write_text(
            f"# N{i}\n\n- see [[N{i + 1}]] and [[Gone]] ^b{i}\n- #topic{i % 7}\n")
    killed = False
    for delay in (0.2, 0.5, 1.0):
        (root / "Notes" / "Gone.md").unlink(missing_ok=True)
        writer = multiprocessing.Process(target=_scan_slowly, args=(str(root),))
        writer.start()
        time.sleep(delay)
        if writer.is_alive():
            killed = True
            workers = _children(writer.pid or 0)
            os.kill(writer.pid or 0, signal.SIGKILL)
            _wait_until_gone(workers)  # parse workers die with their scan
        writer.join(30)
        (root / "Notes" / "Gone.md").write_text("# Gone\n")  # a file appears meanwhile
    assert killed, "no scan was still running when killed"
    again = Vault(root)
    assert again.index.stats.reused > 0  # what the killed scans stored is kept
    fresh = tmp_path / "fresh"
    (fresh / "Notes").mkdir(parents=True)
    for path in (root / "Notes").iterdir():
        (fresh / "Notes" / path.name).write_bytes(path.read_bytes())
    rows = "SELECT source, target, node, missing FROM links ORDER BY 1, 2"
    texts = "SELECT path, number, text FROM passages ORDER BY 1, 2"
    other = Vault(fresh)
    assert other.index.stats.parsed == 1001
    for query in (rows, texts):
        assert again.store.query(query) == other.store.query(query), query


def test_a_storing_scan_waits_for_another_and_stores_the_latest_listing(sample: Path) -> None:
    import fcntl
    import subprocess
    import sys

    vault = Vault(sample)
    assert vault.index.stats.parsed > 0
    (sample / "First.md").write_text("one\n")
    fd = os.open(vault.store.folder / "scan.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another scan is storing
    scan = subprocess.Popen([sys.executable, "-m", "vaultmem", "--vault", str(sample), "scan"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # it lists the vault, sees First, and waits for the lock
    assert scan.poll() is None
    (sample / "Second.md").write_text("two\n")
    os.remove(sample / "First.md")
    vault.store.stored()  # the other scan finishes, as a storing scan does
    os.close(fd)
    assert scan.wait(timeout=60) == 0, scan.stderr.read() if scan.stderr else ""
    with sqlite3.connect(vault.store.path) as db:  # what it stored, read without a scan
        stored = {row[0] for row in db.execute("SELECT path FROM notes")}
    assert "Second.md" in stored and "First.md" not in stored


def test_an_index_another_vaultmem_rebuilt_is_opened_again(sample: Path) -> None:
    vault = Vault(sample)
    assert "People/Lucy Tan" in vault.notes
    with sqlite3.connect(vault.store.path) as db:
        db.execute("UPDATE meta SET value = 'another vaultmem' WHERE key = 'stamp'")
    vault.refresh()
    assert vault.index.stats.parsed == len(vault.notes)  # never trusted: read again
    with sqlite3.connect(vault.store.path) as db:
        stamp = db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()[0]
    assert stamp == vault.store.stamp


def test_two_connections_in_one_process_keep_their_write_ahead_log(sample: Path) -> None:
    first = Vault(sample)
    _ = first.index
    second = Vault(sample)  # a second connection of this process (as the MCP server's threads)
    _ = second.index
    subprocess.run([sys.executable, "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1])"
                    ".execute('SELECT count(*) FROM notes').fetchone()", str(first.store.path)],
                   check=True)  # another process's connection, opened and closed
    first.store.save_result("probe", "key", [1, 2])
    assert Path(f"{first.store.path}-wal").exists()
    assert Vault(sample).store.load_result("probe", "key") == [1, 2]


def test_an_index_locked_too_long_is_an_error_not_a_rebuild(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = Vault(sample)
    _ = vault.index
    vault.store.close()
    with sqlite3.connect(vault.store.path) as db:
        db.execute("UPDATE meta SET value = 'another vaultmem' WHERE key = 'stamp'")
    monkeypatch.setattr(store_module, "BUSY_MS", 200)
    holder = sqlite3.connect(vault.store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another vaultmem rebuilding it
    try:
        with pytest.raises(IndexBusy, match="stayed locked by another vaultmem for 0 s"):
            Vault(sample).store.generation()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert Vault(sample).store.generation() == 0  # nothing was deleted: it opens and rebuilds


def _open_at_once(root: str, start: Any, out: Connection) -> None:
    """Open the vault's index as soon as every process is ready; send what happened."""
    start.wait()
    try:
        out.send(Vault(Path(root)).store.generation())
    except Exception as exc:  # the failure is the test's finding
        out.send(repr(exc))


def test_processes_opening_a_new_index_at_once_all_get_it(sample: Path) -> None:
    context = multiprocessing.get_context("fork")
    for _ in range(5):  # a new index each round: the first opening is the race
        shutil.rmtree(Vault(sample).store.folder, ignore_errors=True)
        start, (ours, theirs) = context.Event(), context.Pipe()
        opening = [context.Process(target=_open_at_once, args=(str(sample), start, theirs))
                   for _ in range(8)]
        for process in opening:
            process.start()
        start.set()
        answers = [ours.recv() for _ in opening]
        for process in opening:
            process.join(60)
        assert all(isinstance(answer, int) for answer in answers), answers


def _keys(vault: Vault) -> set[str]:
    with sqlite3.connect(vault.store.path) as db:
        return {row[0] for row in db.execute("SELECT key FROM keys")}


def test_numbers_of_notes_gone_are_swept_and_the_rest_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Kept.md").write_text("Links [[Target]] and [[Nowhere]].\n", encoding="utf-8")
    (tmp_path / "Target.md").write_text("#tag\n", encoding="utf-8")
    (tmp_path / "Gone.md").write_text("Links [[Target]].\n", encoding="utf-8")
    vault = Vault(tmp_path)
    assert "Gone" in vault.notes
    assert {"Gone", "Gone.md", "Kept", "Target"} <= _keys(vault)
    (tmp_path / "Gone.md").unlink()
    monkeypatch.setattr(store_module, "KEYS_SWEPT_EVERY", 1)
    vault.refresh()
    assert "Gone" not in vault.notes
    assert {"Gone", "Gone.md"}.isdisjoint(_keys(vault))
    assert {"Kept", "Kept.md", "Target", "Target.md", "nowhere"} <= _keys(vault)
    assert Vault(tmp_path).store.linking("Target") == ["Kept"]


def test_a_large_first_scan_keeps_only_states_and_reads_notes_from_the_index(
        sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vaultmem.index import scan as scan_module

    kept = Vault(sample)
    expected = {note_id: (note.links, note.frontmatter) for note_id, note in kept.notes.items()}
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-cache"))
    monkeypatch.setattr(scan_module, "KEPT_READ", 0)  # as a first scan of a large vault
    states = Vault(sample)
    assert not any(entry.read for entry in states.index.notes.entries.values())
    assert {note_id: (note.links, note.frontmatter)
            for note_id, note in states.notes.items()} == expected
