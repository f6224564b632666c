"""Writes that must not make a second entity or link the wrong note, on the shared vaults.

    python benchmarks/eval_writes.py [--per-vault 25] [--seed 7]

For notes drawn at random from every vault in ``../shared/corpora`` (read in place; the index
goes to a temporary cache), each note's name is written the ways people and agents write it
(lower case, accents dropped or added, a slug, other spacing and punctuation, a folder note by
its folder) and two writes are tried with each, as dry runs through the library:

- ``new``: :func:`vaultmem.write.entries.find_duplicate` must name that note first (refusing a
  second entity); "missed" means a duplicate would be created, "wrong" another note is named.
- a link ``[[written]]`` in a new note's text, through the link review every write makes
  (:func:`vaultmem.write.link_review.review.review_links`): the link must reach that note after
  the review; "wrong" means it reaches another note, "refused" that the write is refused with
  the note among the candidates (safe: nothing is written), "missed" that it reaches nothing.

A control checks the other side: names of notes from the other vaults, which this vault does
not hold, must be neither refused by ``new`` nor linked to a note. Written forms that name
several notes of the vault alike (two notes named ``index``) are skipped and counted.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import unicodedata
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from vaultmem.similar_names import names_of_note, same_name  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402
from vaultmem.write.entries import find_duplicate  # noqa: E402
from vaultmem.write.link_review.review import review_links  # noqa: E402

CORPORA = HERE.parent.parent / "shared" / "corpora"
FOLDER_NOTES = ("index", "readme", "_index")
ACCENTED = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "n": "ñ", "c": "ç"}
SOURCE = "Inbox/eval write"


def written_forms(note_id: str) -> dict[str, str]:
    """The ways a note's name gets written, by what was done to it (the name itself aside)."""
    folder, _, title = note_id.rpartition("/")
    name = folder.rpartition("/")[2] if title.casefold() in FOLDER_NOTES and folder else title
    plain = "".join(c for c in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(c))
    forms = {"lower case": name.casefold(), "accents dropped": plain,
             "slug": re.sub(r"[^\w]+", "-", plain.casefold()).strip("-"),
             "spacing": re.sub(r"[\s_-]+", " ", name).upper() if name.isascii() else "",
             "accent added": _accented(name)}
    if title.casefold() in FOLDER_NOTES and folder:
        forms["folder note by its folder"] = name
    return {how: form for how, form in forms.items() if form and form != title}


def _accented(name: str) -> str:
    """``name`` with its first plain vowel or n/c accented ("" when it has none)."""
    for at, char in enumerate(name):
        if char.lower() in ACCENTED and char.islower():
            return name[:at] + ACCENTED[char] + name[at + 1:]
    return ""


def reached(vault: Vault, text: str) -> str | None:
    """The note the one link of ``text`` reaches, as the vault resolves it."""
    target = text.split("[[", 1)[1].split("]]", 1)[0].split("|", 1)[0].split("#", 1)[0]
    return vault.index.resolver.resolve(target, SOURCE)[0]


def try_writes(vault: Vault, note_id: str, form: str) -> tuple[str, str]:
    """The outcomes of ``new`` and of a link written with ``form`` for the note ``note_id``."""
    duplicate = find_duplicate(vault, vault.notes[note_id].type, form)
    new = ("refused right" if duplicate is not None and duplicate.id == note_id
           else "missed" if duplicate is None else "wrong")
    review = review_links(vault, f"See [[{form}]].\n", source=SOURCE)
    if review.problems:
        link = ("refused right" if note_id in review.problems[0].candidates
                else "refused wrong")
    else:
        to = reached(vault, review.text)
        link = "right" if to == note_id else "missed" if to is None else "wrong"
    return new, link


def control(vault: Vault, name: str) -> tuple[str, str]:
    """The outcomes of ``new`` and of a link for a name the vault holds no note of."""
    new = "refused" if find_duplicate(vault, "note", name) is not None else "ok"
    review = review_links(vault, f"See [[{name}]].\n", source=SOURCE)
    to = None if review.problems else reached(vault, review.text)
    return new, "ok" if to is None else f"linked {to}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--per-vault", type=int, default=25, help="notes drawn per vault")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not args.corpora.is_dir():
        print(f"{args.corpora} is not here (it comes with the project's workspace)")
        return 0
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="vm-writes-")
    chance = random.Random(args.seed)
    vaults = sorted(p for p in args.corpora.iterdir() if p.is_dir() and not p.name.startswith("."))
    opened = {path.name: Vault(path) for path in vaults}
    titles = {name: sorted(vault.notes) for name, vault in opened.items()}
    rows, totals, controls, skipped = [], Counter(), Counter(), 0
    for name, vault in opened.items():
        names = {i: names_of_note(i, [i.rsplit("/", 1)[-1], *vault.notes[i].aliases])
                 for i in titles[name]}
        mine: Counter[str] = Counter()
        for note_id in chance.sample(titles[name], min(args.per_vault, len(titles[name]))):
            for how, form in written_forms(note_id).items():
                if same_name(form, names) != [note_id]:
                    skipped += 1  # the form names several notes alike, or none
                    continue
                new, link = try_writes(vault, note_id, form)
                mine.update([f"new {new}", f"link {link}"])
                totals.update([f"new {new}", f"link {link}", "writes"])
                if new != "refused right" or link not in ("right", "refused right"):
                    rows.append(f"| {name} | {note_id} | {how}: `{form}` | {new} | {link} |")
        others = [t.rsplit("/", 1)[-1] for other, ids in titles.items() if other != name
                  for t in ids]
        for other in chance.sample(others, min(10, len(others))):
            if same_name(other, names) or vault.store is None:
                continue
            new, link = control(vault, other)
            controls.update([f"new {new}", "link ok" if link == "ok" else "link wrong"])
        print(f"{name}: {dict(sorted(mine.items()))}", file=sys.stderr)
    print(f"Writes tried: {totals['writes']} (forms naming several notes alike skipped: "
          f"{skipped})\n")
    print("| write | outcome | count |\n| --- | --- | ---: |")
    for key in sorted(k for k in totals if k != "writes"):
        kind, _, outcome = key.partition(" ")
        print(f"| {kind} | {outcome} | {totals[key]} |")
    print("\nControls (names the vault holds no note of): " + ", ".join(
        f"{key} {count}" for key, count in sorted(controls.items())))
    if rows:
        print("\n| vault | note | written | new | link |\n| --- | --- | --- | --- | --- |")
        print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
