"""A merge killed (SIGKILL) at every step, then the next run: no link broken, no text lost.

    python benchmarks/crash_merge.py [--backlinks 200] [--every 1]

Makes a vault where ``Keep`` and its duplicate ``Old`` are linked by ``--backlinks`` notes (one
link to ``Old`` each, written in turn as ``[[Old]]``, ``[[Old|shown]]``, ``[[Old#Plan]]`` and an
embed), then, for each step k of the merge (every file operation of its transaction: the History
record written, each note rewritten, the move to the trash, the trash record, the History record
marked done; every ``--every``-th), copies the vault, runs ``vaultmem merge Keep Old`` in a process
that kills itself with SIGKILL right after its k-th step, and runs the next command (``vaultmem
undo --dry-run``, which first puts back what a transaction that never finished had done). Then the
vault must be as before (every file byte for byte, vaultmem's own aside) or, when the kill came
after the record was marked done, merged: every link that reached ``Old`` reaching ``Keep`` and
``vaultmem undo`` putting every byte back. A concurrent editor: a thread appends to one of the
linking notes while a merge runs; its line must be in the file afterwards, or the merge stopped.
Prints the steps tried and how many ended before, merged or broken. Exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

KILLER = """
import os, signal, sys
from vaultmem.write import transaction
steps = {"left": int(sys.argv[1])}
def counted(operation):
    def run(*args, **kwargs):
        done = operation(*args, **kwargs)
        steps["left"] -= 1
        if steps["left"] == 0:
            os.kill(os.getpid(), signal.SIGKILL)
        return done
    return run
for name in ("update", "move", "atomic_write"):
    setattr(transaction, name, counted(getattr(transaction, name)))
sys.argv = ["vaultmem", "--vault", sys.argv[2], "merge", "Keep", "Old"]
from vaultmem.cli import main
main()
"""
FORMS = ["[[Old]]", "[[Old|shown]]", "[[Old#Plan]]", "![[Old#Plan]]"]


def make(root: Path, backlinks: int) -> None:
    """The vault: Keep, its duplicate Old, and the notes linking to Old."""
    (root / ".obsidian").mkdir(parents=True)
    (root / "People").mkdir()
    (root / "People/Keep.md").write_text("---\naliases: [K]\ntags: [a]\n---\n# Keep\n\nKept.\n",
                                         encoding="utf-8")
    (root / "Old.md").write_text("---\naliases: [O]\ntags: [b]\n---\n# Old\n\n## Plan\n\n"
                                 "Ship it.\n", encoding="utf-8")
    (root / "Notes").mkdir()
    for number in range(backlinks):
        (root / f"Notes/n{number:04d}.md").write_text(
            f"Note {number} links {FORMS[number % len(FORMS)]}.\n", encoding="utf-8")


def files(root: Path) -> dict[str, str]:
    """sha256 of every file but vaultmem's own."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()
            and not p.relative_to(root).as_posix().startswith(".vaultmem")}


def vaultmem(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a vaultmem command on ``root`` (no keeper)."""
    return subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "VAULTMEM_NO_KEEPER": "1"})


def merged_right(root: Path) -> bool:
    """Every link that reached Old reaches Keep, and undo puts every byte back."""
    from vaultmem.vault import Vault

    vault = Vault(root, use_cache=False)
    links = [link.resolved for note in vault.notes.values() for link in note.links
             if note.id.startswith("Notes/")]
    return all(target == "People/Keep" for target in links) and "Old" not in vault.notes


def one_step(base: Path, step: int, before: dict[str, str], work: Path) -> str:
    """Kill the merge after ``step`` operations, run the next command; how it ended."""
    root = work / f"step{step}"
    shutil.copytree(base, root)
    killed = subprocess.run([sys.executable, "-c", KILLER, str(step), str(root)],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "VAULTMEM_NO_KEEPER": "1"})
    vaultmem(root, "undo", "--dry-run")  # the next run: puts back a transaction left pending
    if files(root) == before:
        outcome = "before"
    elif merged_right(root) and vaultmem(root, "undo").returncode == 0 and \
            files(root) == before:
        outcome = "merged"
    else:
        outcome = "broken"
    shutil.rmtree(root)
    return outcome if killed.returncode == -9 or outcome != "before" else "finished early"


def concurrent_editor(base: Path, work: Path) -> str:
    """A merge while another process appends to a linking note: its line kept, or stopped."""
    root = work / "editor"
    shutil.copytree(base, root)
    target = root / "Notes/n0001.md"
    stop = threading.Event()

    def edit() -> None:
        while not stop.is_set():
            with target.open("a", encoding="utf-8") as handle:
                handle.write("An editor's line.\n")
            stop.wait(0.001)
    editor = threading.Thread(target=edit)
    editor.start()
    done = vaultmem(root, "merge", "Keep", "Old")
    stop.set()
    editor.join()
    kept = "An editor's line." in target.read_text(encoding="utf-8")
    return f"merge exit {done.returncode}, the editor's lines kept: {kept}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backlinks", type=int, default=200)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["XDG_CACHE_HOME"] = str(work / "cache")
        base = work / "base"
        make(base, args.backlinks)
        before = files(base)
        steps = args.backlinks + 6  # record, Keep, each linking note, Old, its move, the trash
        # record, the History record done
        outcomes: dict[str, int] = {}
        for step in range(1, steps + 1, args.every):
            outcome = one_step(base, step, before, work)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        print(f"steps tried: {sum(outcomes.values())} of {steps}; " + ", ".join(
            f"{name}: {count}" for name, count in sorted(outcomes.items())))
        print("concurrent editor:", concurrent_editor(base, work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
