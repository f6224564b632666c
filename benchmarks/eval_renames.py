"""Renames and merges on copies of the shared vaults: no link broken, no shown text changed,
aliases and tags joined, undo exact.

    python benchmarks/eval_renames.py [--renames 8] [--merges 4] [--seed 1] [--vault NAME ...]

Each vault of ``shared/corpora`` beside the checkout is copied to a temporary folder twice, once
with Obsidian's ``newLinkFormat`` "shortest" (the default) and once "absolute"
(``.obsidian/app.json``). On each copy, ``--renames`` notes with backlinks, drawn at random
(``--seed``), are renamed one after another, in turn: moved to another folder of the vault,
renamed in their folder, renamed with accents (``Café …``); and ``--merges`` duplicates are
planted and merged: for a note with backlinks, a note of its title written another way
(accents, case, `` (copy)``) in another folder, or its folder note (``A/B.md`` and
``A/B/B.md``), with an alias, a tag and a paragraph, linked by a planted note (``[[dup]]``,
``[[dup|shown]]``, ``[[dup#Heading]]``), then merged into the note.

After each change the vault is read afresh and compared with before, link by link in every
note: the note it reaches (the renamed or merged note's new id for the old one) and the text it
shows (its alias, else its target as written and its anchor after ``>``; embeds show no text);
for a merge, the kept note's aliases and tags are the union of both notes' plus the old title.
Then ``undo`` runs and every file of the vault (``.vaultmem*`` aside) must hold its bytes of
before. Printed: a row per vault and format (changes, links checked, links broken, shown texts
changed, unions wrong, undo not exact, refusals) and the totals. Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[1] / "shared" / "corpora"

from vaultmem.errors import VaultmemError  # noqa: E402
from vaultmem.model import Link  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402
from vaultmem.write.merge import merge  # noqa: E402
from vaultmem.write.rename import rename  # noqa: E402
from vaultmem.write.transaction import undo  # noqa: E402

T = TypeVar("T")
SHOW = bool(os.environ.get("EVAL_RENAMES_SHOW"))  # each broken link or changed text, on stderr
COLUMNS = ("changes", "links", "broken", "shown", "unions", "undo", "refused")


def shown(link: Link) -> str | None:
    """What a link shows a reader (None for an embed)."""
    if link.embed:
        return None
    if link.alias is not None:
        return link.alias
    if link.kind == "markdown":
        return link.raw[link.raw.index("[") + 1 : link.raw.rindex("](")]
    inner = link.raw.lstrip("!")[2:-2].replace("\\|", "|").split("|")[0]
    target, hashed, anchor = inner.partition("#")
    return f"{target} > {anchor}" if hashed and target else (anchor if hashed else target)


def reached(root: Path) -> dict[str, list[tuple[str | None, str | None]]]:
    """Every note's links as (the note it reaches, what it shows), the vault read afresh."""
    vault = Vault(root)
    return {note_id: [(link.resolved, shown(link)) for link in note.links]
            for note_id, note in vault.notes.items()}


def files(root: Path) -> dict[str, str]:
    """sha256 of every file of the vault but vaultmem's own."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()
            and not p.relative_to(root).as_posix().startswith(".vaultmem")}


def compare(before: dict[str, list[Any]], after: dict[str, list[Any]], moved: dict[str, str],
            tally: dict[str, int], *, merged: bool = False) -> None:
    """Count the links checked, broken and showing other text (``moved``: old id -> new; with
    ``merged`` the old note's links are the kept note's, after its own, as a multiset)."""
    if merged:
        (gone, kept), = moved.items()
        before = {**{k: v for k, v in before.items() if k != gone},
                  kept: before[kept] + before[gone]}
        mapped = [(moved.get(t, t), text) for t, text in before[kept]]
        now = list(after[kept])
        for pair in mapped:
            if pair in now:
                now.remove(pair)
            else:
                tally["broken"] += 1
        tally["links"] += len(mapped)
        before = {k: v for k, v in before.items() if k != kept}
    for note_id, links in before.items():
        now = after.get(moved.get(note_id, note_id))
        if now is None:
            continue
        tally["links"] += len(links)
        if len(now) != len(links):
            tally["broken"] += abs(len(now) - len(links))
            if SHOW:
                print(f"  {note_id}: {len(links)} links before, {len(now)} after: "
                      f"{sorted(set(map(str, links)) ^ set(map(str, now)))[:4]}", file=sys.stderr)
            continue
        for (target, text), (new_target, new_text) in zip(links, now, strict=True):
            broken = target is not None and moved.get(target, target) != new_target
            tally["broken"] += broken
            tally["shown"] += text != new_text
            if SHOW and (broken or text != new_text):
                print(f"  {note_id}: {target!r} {text!r} -> {new_target!r} {new_text!r}",
                      file=sys.stderr)


def candidates(vault: Vault, rng: random.Random, count: int) -> list[str]:
    """``count`` notes with backlinks, drawn at random."""
    linked = sorted({link.resolved for note in vault.notes.values() for link in note.links
                     if link.resolved in vault.notes and link.resolved != note.id})
    return rng.sample(linked, min(count, len(linked)))


def new_name(vault: Vault, note_id: str, turn: int, rng: random.Random) -> str:
    """Where the ``turn``-th rename takes a note: another folder, a new name, accents."""
    folder, _, name = note_id.rpartition("/")
    if turn % 3 == 0:
        folders = sorted({n.rpartition("/")[0] for n in vault.notes if "/" in n} - {folder})
        return (rng.choice(folders) + "/") if folders else f"Moved/{name}"
    stem = f"{name} renamed" if turn % 3 == 1 else f"Café {name}"
    return f"{folder}/{stem}" if folder else stem


def attempt(change: Callable[[], T], tally: dict[str, int]) -> T | None:
    """Make one change, counted; None (counted as refused) when vaultmem refuses it."""
    try:
        done = change()
    except VaultmemError as exc:
        tally["refused"] += 1
        if SHOW:
            print(f"  refused: {exc}", file=sys.stderr)
        return None
    tally["changes"] += 1
    return done


def one_rename(root: Path, note_id: str, turn: int, rng: random.Random,
               tally: dict[str, int]) -> None:
    """Rename one note, check, undo, check."""
    bytes_before, before = files(root), reached(root)
    vault = Vault(root)
    done = attempt(lambda: rename(vault, note_id, new_name(vault, note_id, turn, rng)), tally)
    if done is None:
        return
    compare(before, reached(root), {done.old: done.new}, tally)
    undo(root)
    tally["undo"] += files(root) != bytes_before


def plant(root: Path, note_id: str, turn: int) -> str:
    """A duplicate of ``note_id`` in another folder, and a note linking to it; its id."""
    folder, _, name = note_id.rpartition("/")
    written = [f"{name} (copy)", name.upper(), f"{name}é", name][turn % 4]
    home = "/".join(filter(None, (folder, name))) if turn % 4 == 3 else "Planted duplicates"
    dup = f"{home}/{written}"
    (root / home).mkdir(parents=True, exist_ok=True)
    (root / f"{dup}.md").write_text(
        f"---\naliases: [{json.dumps(written + ' alias')}]\ntags: [planted]\n---\n"
        f"# {written}\n\nA second note on the same thing.\n\n## Heading\n\nMore. ^p{turn}\n",
        encoding="utf-8")
    (root / f"Planted links {turn}.md").write_text(
        f"[[{dup}]], [[{dup}|shown]], [[{dup}#Heading]] and [[{dup}#^p{turn}]].\n",
        encoding="utf-8")
    return dup


def one_merge(root: Path, note_id: str, turn: int, tally: dict[str, int]) -> None:
    """Plant a duplicate of one note, merge it in, check, undo, check."""
    dup = plant(root, note_id, turn)
    bytes_before, before = files(root), reached(root)
    vault = Vault(root)
    kept, gone = vault.notes[note_id], vault.notes[dup]
    if attempt(lambda: merge(vault, note_id, dup), tally) is None:
        return
    compare(before, reached(root), {dup: note_id}, tally, merged=True)
    now = Vault(root).notes[note_id]
    want_aliases = {*kept.aliases, *gone.aliases, gone.title}
    want_tags = {t.name for t in kept.tags} | {t.name for t in gone.tags}
    wrong = set(now.aliases) != want_aliases or not want_tags <= {t.name for t in now.tags}
    tally["unions"] += wrong
    if SHOW and wrong:
        print(f"  union of {note_id}: aliases {sorted(now.aliases)} want {sorted(want_aliases)}",
              file=sys.stderr)
    undo(root)
    tally["undo"] += files(root) != bytes_before


def run_vault(name: str, style: str, args: argparse.Namespace) -> dict[str, int]:
    """Every rename and merge on a fresh copy of one vault in one link format."""
    tally = dict.fromkeys(COLUMNS, 0)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / name
        shutil.copytree(CORPORA / name, root, symlinks=True)
        app = root / ".obsidian" / "app.json"
        app.parent.mkdir(exist_ok=True)
        settings = json.loads(app.read_text(encoding="utf-8")) if app.is_file() else {}
        app.write_text(json.dumps({**settings, "newLinkFormat": style}), encoding="utf-8")
        rng = random.Random(f"{args.seed}-{name}-{style}")
        vault = Vault(root)
        for turn, note_id in enumerate(candidates(vault, rng, args.renames)):
            one_rename(root, note_id, turn, rng, tally)
        for turn, note_id in enumerate(candidates(Vault(root), rng, args.merges)):
            one_merge(root, note_id, turn, tally)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renames", type=int, default=8)
    parser.add_argument("--merges", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vault", action="append", help="only this vault (repeatable)")
    args = parser.parse_args()
    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="vaultmem-renames-"))
    names = args.vault or sorted(p.name for p in CORPORA.iterdir() if p.is_dir())
    total = dict.fromkeys(COLUMNS, 0)
    print("| vault | format | " + " | ".join(COLUMNS) + " |")
    print("| --- | --- |" + " ---: |" * len(COLUMNS))
    for name in names:
        for style in ("shortest", "absolute"):
            tally = run_vault(name, style, args)
            total = {k: total[k] + tally[k] for k in COLUMNS}
            print(f"| {name} | {style} | " + " | ".join(str(tally[k]) for k in COLUMNS) + " |",
                  flush=True)
    print("| **all** | | " + " | ".join(str(total[k]) for k in COLUMNS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
