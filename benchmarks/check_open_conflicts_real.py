"""Open conflicts kept and brought up to date, on the real vaults: equal to those found again in
every note after each change.

    python benchmarks/check_open_conflicts_real.py [--corpora ../shared/corpora] [--changes 24]

Each vault of the corpora folder is copied to a scratch folder, scanned, and its open conflicts
found once (as a server's warm-up does); then ``--changes`` changes drawn at random are made,
one at a time, as people and agents make them: words added, a property's value changed, a
note's status changed, inline fields of another note said here too, a line inserted at the top
(every line below moves), a note created that states a field about a note it links or about a
name no note has, a note copied, deleted or renamed, an attachment added. After each, a fresh
reader brings the kept conflicts up to date and they are compared with those found again in
every note of the files as they are (without the index). Printed: per vault, changes, how
many were brought up to date note by note, mismatches (there should be none), and the median
milliseconds of bringing up to date against finding them all.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from check_take_in_real import vault_copies  # noqa: E402

from vaultmem import clock  # noqa: E402
from vaultmem.check import conflicts  # noqa: E402
from vaultmem.check.open_conflicts import open_conflicts  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

PROPERTY = re.compile(r"(?m)^([A-Za-z_][\w-]*): *([^\n\[{|>]+)$")


def edits(root: Path, rng: random.Random) -> list[Callable[[], str]]:
    """One of each kind of change, on notes picked at random; each says what it did."""
    def notes() -> list[Path]:
        return sorted(p for p in root.rglob("*.md")
                      if not any(part.startswith(".") for part in p.relative_to(root).parts))

    def pick() -> Path:
        return rng.choice(notes())

    def words() -> str:
        note = pick()
        note.write_text(note.read_text(encoding="utf-8") + "\nA few more words.\n",
                        encoding="utf-8")
        return f"words {note.name}"

    def property_value() -> str:
        note = pick()
        text = note.read_text(encoding="utf-8")
        found = PROPERTY.search(text[:2000]) if text.startswith("---") else None
        if found is None:
            return f"no property in {note.name}"
        value = rng.choice(["Lisbon", "approved", "2026-01-02", "42", found.group(2)[::-1]])
        note.write_text(text[:found.start(2)] + value + text[found.end(2):], encoding="utf-8")
        return f"property {found.group(1)} of {note.name}"

    def status() -> str:
        note = pick()
        text = note.read_text(encoding="utf-8")
        new = rng.choice(["approved", "archived", "active", "superseded"])
        note.write_text(f"---\nstatus: {new}\n---\n" + text if not text.startswith("---")
                        else text.replace("---\n", f"---\nstatus: {new}\n", 1),
                        encoding="utf-8")
        return f"status {new} of {note.name}"

    def borrowed_fields() -> str:
        note, other = pick(), pick()
        lines = [line for line in other.read_text(encoding="utf-8").splitlines() if "::" in line]
        note.write_text(note.read_text(encoding="utf-8") + "\n" + "\n".join(lines[:3]) + "\n",
                        encoding="utf-8")
        return f"{len(lines[:3])} fields of {other.name} in {note.name}"

    def line_on_top() -> str:
        note = pick()
        text = note.read_text(encoding="utf-8")
        end = text.find("\n---", 3) + 4 if text.startswith("---") else 0
        note.write_text(text[:end] + "\nA line on top.\n" + text[end:], encoding="utf-8")
        return f"line on top of {note.name}"

    def created() -> str:
        about = pick().stem
        new = root / f"Stated {rng.randrange(10**6)}.md"
        new.write_text(f"- [[{about}]] status:: {rng.choice(['open', 'closed'])}\n",
                       encoding="utf-8")
        return f"created {new.name} about {about}"

    def unwritten() -> str:
        name = rng.choice(["Nobody Yet", "Someone New"])  # a name no note has
        new = root / f"Said {rng.randrange(10**6)}.md"
        new.write_text(f"- [[{name}]] team:: {rng.choice(['red', 'blue', 'green'])}\n",
                       encoding="utf-8")
        return f"{new.name} states a fact about {name}"

    def copied() -> str:
        note = pick()
        shutil.copy(note, note.with_name(f"{note.stem} copy.md"))
        return f"copied {note.name}"

    def deleted() -> str:
        note = pick()
        note.unlink()
        return f"deleted {note.name}"

    def renamed() -> str:
        note = pick()
        os.replace(note, note.with_name(f"{note.stem} renamed.md"))
        return f"renamed {note.name}"

    def attachment() -> str:
        (root / f"figure {rng.randrange(10**6)}.png").write_bytes(b"\x89PNG")
        return "attachment"

    return [words, property_value, status, borrowed_fields, line_on_top, created, unwritten,
            copied, deleted, renamed, attachment]


def check(root: Path, count: int) -> tuple[int, int, list[str], list[float], list[float]]:
    """(changes, brought up to date note by note, mismatches, ms to bring up to date, ms to
    find all) for one vault."""
    today = clock.today()
    rng = random.Random(root.name)
    conflicts.ready_conflicts(Vault(root), today)
    kinds, done, wrong, kept_ms, whole_ms = edits(root, rng), 0, [], [], []
    for _ in range(count):
        what = rng.choice(kinds)()
        vault = Vault(root)
        _ = vault.index
        start = time.perf_counter()
        found = open_conflicts(vault, today, conflicts._local_finder(vault, today))
        if found is not None:
            kept_ms.append((time.perf_counter() - start) * 1000)
            done += 1
        else:  # an alias changed, or too many changes: found in every note
            conflicts.ready_conflicts(Vault(root), today)
            found = open_conflicts(Vault(root), today,
                                   conflicts._local_finder(vault, today)) or []
        fresh = Vault(root, use_cache=False)
        facts = fresh.facts
        start = time.perf_counter()
        whole = conflicts._local_finder(fresh, today)(facts)
        whole_ms.append((time.perf_counter() - start) * 1000)
        if sorted(found, key=conflicts._order) != whole:
            wrong.append(what)
    return count, done, wrong, kept_ms, whole_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=HERE.parent.parent / "shared" / "corpora")
    parser.add_argument("--changes", type=int, default=24)
    args = parser.parse_args()
    print("| vault | changes | note by note | mismatches | brought up to date, ms | all found "
          "again, ms |\n| --- | ---: | ---: | ---: | ---: | ---: |")
    total = 0
    for root in vault_copies(args.corpora):
        done, direct, wrong, kept_ms, whole_ms = check(root, args.changes)
        total += len(wrong)
        kept = f"{statistics.median(kept_ms):.1f}" if kept_ms else "-"
        print(f"| {root.name} | {done} | {direct} | {len(wrong)} | {kept} | "
              f"{statistics.median(whole_ms):.1f} |", flush=True)
        for line in wrong[:5]:
            print(f"  {line}", file=sys.stderr)
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
