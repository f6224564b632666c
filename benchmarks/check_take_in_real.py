"""Taking in only the changed files, on the real vaults: equal to a whole scan after each change.

    python benchmarks/check_take_in_real.py [--corpora ../shared/corpora] [--rounds 2]

Each vault of the corpora folder is copied to a scratch folder and scanned; then, ``--rounds``
times, one change a user or a sync tool makes (append a line linking another note, create a
note linking one, delete a note, rename one, add an attachment, touch a note) is made and taken
in from its paths alone (as a running server does with what the system reports), and what
readers see (notes, where links go, file roles, stored link rows, names, tags) is compared
with a whole scan of the same files in memory. Printed: per vault, changes checked, how many
were taken in without listing the vault, and mismatches (there should be none).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from vaultmem.index import scan as scan_module  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402


def seen(vault: Vault) -> dict[str, Any]:
    """What readers of the index see."""
    index, store = vault.index, vault.store
    return {
        "notes": {i: sorted((link.target, link.resolved or "", link.ambiguous)
                            for link in n.links) for i, n in index.notes.items()},
        "files": index.files, "attachments": index.attachments,
        "links": store.query("SELECT source, target, node, missing, ambiguous, line FROM links "
                             "ORDER BY source, line, target, node"),
        "names": store.query("SELECT note, name, alias FROM names ORDER BY note, name, alias"),
        "tags": store.query("SELECT tag, note FROM tags ORDER BY tag, note"),
    }


def changes(root: Path, rng: random.Random) -> list[Callable[[], list[str]]]:
    """One of each kind of change, on notes picked at random."""
    notes = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md")
                   if not any(part.startswith(".") for part in p.relative_to(root).parts))
    pick = lambda: rng.choice(notes)  # noqa: E731

    def append() -> list[str]:
        rel, other = pick(), pick()
        with (root / rel).open("a", encoding="utf-8") as handle:
            handle.write(f"\nSee [[{Path(other).stem}]].\n")
        return [rel]

    def create() -> list[str]:
        rel = f"{Path(pick()).parent.as_posix()}/New note {rng.randrange(10**6)}.md"
        rel = rel.removeprefix("./")
        (root / rel).write_text(f"# New\n\nAbout [[{Path(pick()).stem}]].\n", encoding="utf-8")
        return [rel]

    def delete() -> list[str]:
        rel = pick()
        (root / rel).unlink(missing_ok=True)
        notes.remove(rel)
        return [rel]

    def rename() -> list[str]:
        rel = pick()
        new = f"{rel[:-3]} renamed.md"
        if (root / rel).exists():
            os.replace(root / rel, root / new)
        notes.remove(rel)
        return [rel, new]

    def attachment() -> list[str]:
        rel = f"{Path(pick()).parent.as_posix()}/figure {rng.randrange(10**6)}.png"
        rel = rel.removeprefix("./")
        (root / rel).write_bytes(b"\x89PNG")
        return [rel]

    def touch() -> list[str]:
        rel = pick()
        if (root / rel).exists():
            os.utime(root / rel)
        return [rel]

    return [append, create, delete, rename, attachment, touch]


def check(vault_root: Path, rounds: int) -> tuple[int, int, list[str]]:
    """(changes checked, taken in without listing, mismatches) for one vault."""
    rng = random.Random(vault_root.name)
    listed: list[int] = []
    real = scan_module.list_vault
    scan_module.list_vault = lambda c: listed.append(1) or real(c)  # type: ignore[assignment]
    try:
        vault = Vault(vault_root)
        _ = vault.index
        done, direct, wrong = 0, 0, []
        for round_ in range(rounds):
            for change in changes(vault_root, rng):
                before = len(listed)
                paths = change()
                vault.refresh(paths)
                mine = seen(vault)
                direct += len(listed) == before
                whole = seen(Vault(vault_root, use_cache=False))
                if mine != whole:
                    wrong.append(f"round {round_} {change.__name__} {paths}: " + ", ".join(
                        key for key in mine if mine[key] != whole[key]))
                done += 1
        return done, direct, wrong
    finally:
        scan_module.list_vault = real  # type: ignore[assignment]


def vault_copies(corpora: Path) -> Iterator[Path]:
    """A scratch copy of each vault of ``corpora`` in turn, with a cache of its own (gone
    once the next is asked for)."""
    for source in sorted(p for p in corpora.iterdir() if p.is_dir()):
        with tempfile.TemporaryDirectory() as scratch:
            os.environ["XDG_CACHE_HOME"] = str(Path(scratch) / "cache")
            root = Path(scratch) / source.name
            shutil.copytree(source, root, symlinks=True)
            yield root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=HERE.parent.parent / "shared" / "corpora")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print("| vault | changes | taken in without listing | mismatches |")
    print("| --- | ---: | ---: | ---: |")
    total = 0
    for root in vault_copies(args.corpora):
        done, direct, wrong = check(root, args.rounds)
        total += len(wrong)
        print(f"| {root.name} | {done} | {direct} | {len(wrong)} |", flush=True)
        for line in wrong[:5]:
            print(f"  {line}", file=sys.stderr)
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
