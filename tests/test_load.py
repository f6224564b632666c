"""Parallel writers and an editor that saves in place, without vaultmem's lock: nothing is lost."""

from __future__ import annotations

import fcntl
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from vaultmem.write import files, watched

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_load import run


def test_writers_and_an_in_place_editor_lose_nothing(tmp_path: Path) -> None:
    # an editor saving every 10 ms; 2 ms lost no line in 60 longer runs once waiting for a lease
    # let go of the lease the save waited on (docs/reliability.md, "What remains")
    report = run(tmp_path / "vault", workers=4, writes=30, gap=0.01, mode="fixed", seed=5)
    assert report.acked > 40 and report.edits > 20
    # a stale editor save (it read the note before vaultmem's rename and wrote after it) may
    # overwrite an entry: the editor's own lost update; anything else is vaultmem's fault
    assert not report.failed(editor_losses=False), report


def _save_in_place(path: Path, text: str) -> None:
    """Save like Obsidian: truncate the file and write it anew (no rename)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _leased(path: Path) -> list[int]:
    """This process's descriptors of ``path`` that hold a read lease."""
    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") == str(path) and \
                    fcntl.fcntl(int(name), fcntl.F_GETLEASE) == fcntl.F_RDLCK:
                found.append(int(name))
        except OSError:
            continue
    return found


def _save_before_rename(monkeypatch: pytest.MonkeyPatch, note: Path, text: str) -> None:
    """Make the first rename onto ``note`` wait until an in-place save of ``text`` has begun
    (held back by a lease) or ended (no lease): the window after the last check."""
    real, started = os.replace, list[threading.Thread]()

    def replace(source: str, target: str | Path) -> None:
        if Path(target) == note and not started:
            leased = _leased(note)
            started.append(threading.Thread(target=_save_in_place, args=(note, text)))
            started[0].start()
            while started[0].is_alive() and all(fcntl.fcntl(fd, fcntl.F_GETLEASE) ==
                                                fcntl.F_RDLCK for fd in leased):
                time.sleep(0.001)
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)


@pytest.mark.skipif(sys.platform != "linux", reason="uses /proc and Linux file leases")
@pytest.mark.parametrize("leases", [True, False])
def test_a_save_between_the_last_check_and_the_rename_survives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leases: bool) -> None:
    if not leases:  # as on file systems without leases: the bytes are compared instead
        monkeypatch.setattr(files, "lease", lambda fd, wait=0.0: False)
    note = tmp_path / "Note.md"
    note.write_text("line one\n")
    _save_before_rename(monkeypatch, note, "line one\nexternal line\n")
    calls: list[str | None] = []

    def change(text: str | None) -> str:
        calls.append(text)
        return (text or "") + "vaultmem line\n"

    files.update(tmp_path, "Note.md", change)
    assert note.read_text() == "line one\nexternal line\nvaultmem line\n"
    assert calls == ["line one\n", "line one\nexternal line\n"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Note.md"]


def _leases_work(path: Path) -> bool:
    """True when this file system grants read leases."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGURG)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
        return True
    except (OSError, AttributeError):  # no leases here, or not Linux
        return False
    finally:
        os.close(fd)


def _half_saved(note: Path, start: str, rest: str) -> threading.Timer:
    """Truncate ``note`` and write ``start`` in place, keeping it open; ``rest`` follows 0.3 s
    later (the timer returned is running)."""
    handle = open(note, "w", encoding="utf-8")  # noqa: SIM115 (closed by the timer)
    handle.write(start)
    handle.flush()

    def finish() -> None:
        handle.write(rest)
        handle.close()

    timer = threading.Timer(0.3, finish)
    timer.start()
    return timer


def test_a_half_written_save_is_read_only_once_finished(tmp_path: Path) -> None:
    note = tmp_path / "Note.md"
    note.write_text("line one\n")
    if not _leases_work(note):
        pytest.skip("this file system has no leases")
    timer = _half_saved(note, "line one\nexter", "nal line\n")
    files.update(tmp_path, "Note.md", lambda text: (text or "") + "vaultmem line\n")
    timer.join()
    assert note.read_text() == "line one\nexternal line\nvaultmem line\n"


def test_without_leases_an_emptied_note_is_given_time_to_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "lease", lambda fd, wait=0.0: False)
    note = tmp_path / "Note.md"
    note.write_text("line one\n")
    timer = _half_saved(note, "", "line one\nexternal line\n")
    files.update(tmp_path, "Note.md", lambda text: (text or "") + "vaultmem line\n")
    timer.join()
    assert note.read_text() == "line one\nexternal line\nvaultmem line\n"


def test_waiting_for_a_lease_never_holds_back_the_save_it_waits_for(tmp_path: Path) -> None:
    note = tmp_path / "Note.md"
    note.write_text("line one\n")
    if not _leases_work(note):
        pytest.skip("this file system has no leases")
    fd = os.open(note, os.O_RDONLY)
    try:
        assert watched.lease(fd)  # held: a save opening the note now waits for it
        saving = threading.Thread(target=_save_in_place, args=(note, "line one\nsaved\n"))
        saving.start()
        while fcntl.fcntl(fd, fcntl.F_GETLEASE) == fcntl.F_RDLCK:  # the save is held back
            time.sleep(0.001)
        started = time.monotonic()
        assert watched.lease(fd, wait=30.0)  # not taken until the save is done and closed
        waited = time.monotonic() - started
        saving.join(10)
        assert not saving.is_alive() and waited < 10  # before: both waited the whole 30 s
        assert watched.read_all(fd) == b"line one\nsaved\n"
    finally:
        os.close(fd)
