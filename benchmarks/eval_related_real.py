r"""``related`` on real vaults by link prediction: hide one link of a note, is its target found?

    python benchmarks/eval_related_real.py [--samples 200] [--seed 11] [--corpora DIR]
        [--vaults kepano-obsidian ...] [--all] [--misses 0]

The six real public vaults of ``/work/shared/corpora`` (written by people outside the project)
are copied to a temporary folder and scanned there (the index in a temporary cache folder).

Sampling: a note is eligible when it links at least two distinct other notes (resolved links;
attachments, missing notes and the note itself do not count). ``--samples`` notes are drawn
over the vaults in proportion to their eligible notes (largest remainder), in each vault with
``random.Random(f"{seed}:{vault}")`` from the sorted eligible notes (``--all``: every eligible
note); of each, one linked note is drawn as the hidden target.

Hiding: every link of the note that resolves to the target (body, embed, Markdown link,
property or inline field; all its spellings) is cut out of the note's file in the copy, the
vault is rescanned, and the note must then link the target no more (a sample where it still
does is counted and left out). The links the other way (target -> note) stay: they are real
evidence. After the three rankings the file is put back and the vault rescanned.

Rankings, each over every other note but those the note still links to (known, not
predicted), top 10:

- ``related``: :func:`vaultmem.recall.related.related_notes`, what the CLI and MCP tool answer
  (graph read from the index around the note, text similarity from the search index), with
  ``today`` the day after the newest date in the vault;
- BM25: the note's file text (the hidden links cut out) as the query over the file texts of
  the other notes, plain Okapi BM25 of ``eval_retrieval.py`` (no graph);
- Adamic-Adar: ``networkx.adamic_adar_index`` on the undirected link graph of the rescanned
  vault (missing notes and attachments are nodes as the graph has them) over every candidate,
  those scoring 0 left unranked (no text).

Metrics: hit@10 = share of samples whose target is in the top 10; MRR = mean of 1 / rank
(0 outside the top 10). Ties count fairly for every method: a target tied with others gets
the hit and reciprocal rank expected when the tie is broken at random (breaking them by id
would favour names that sort first, such as pkmer-math's ``---Topic---`` contents notes).
Printed: a Markdown table per vault and overall (all samples pooled; "mean of vaults"
averages the vaults' figures), the median ``related`` call, and with
``--misses N`` up to N samples per vault where ``related`` missed, with what it ranked first.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from eval_retrieval import BM25, words  # noqa: E402

from vaultmem.recall.related import related_notes  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

CORPORA = HERE.parents[1] / "shared" / "corpora"  # beside the project's repository
VAULTS = ("kepano-obsidian", "dataview-deep-dive", "bramses-vault", "sorobby-starter",
          "zettelkasten-starter", "pkmer-math")
TOP = 10  # hit@10, MRR within the top 10
ROUNDED = 9  # decimals of a score: sums in another order are the same score
MIN_LINKS = 2  # distinct other notes a note must link to be sampled
METHODS = ("related", "BM25", "Adamic-Adar")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")

Scores = dict[str, float]  # candidate note -> score, higher first


@dataclass(frozen=True)
class Sample:
    """A note and the linked note hidden from it."""

    vault: str
    note: str
    target: str


@dataclass
class Tally:
    """One method's hits and reciprocal ranks (0 outside the top 10), sample by sample."""

    hits: list[float] = field(default_factory=list)
    ranks: list[float] = field(default_factory=list)

    def add(self, scored: dict[str, float], target: str) -> None:
        """Score one ranking (note -> score, higher first); a target tied with others gets the
        hit and reciprocal rank expected when the tie is broken at random."""
        scored = {n: round(s, ROUNDED) for n, s in scored.items()}
        if target not in scored:
            self.hits.append(0.0)
            self.ranks.append(0.0)
            return
        above = sum(score > scored[target] for score in scored.values())
        places = range(above + 1, above + 1 + sum(s == scored[target] for s in scored.values()))
        self.hits.append(sum(place <= TOP for place in places) / len(places))
        self.ranks.append(sum(1 / place for place in places if place <= TOP) / len(places))

    def hit(self) -> float:
        """Share of samples with the target in the top 10."""
        return sum(self.hits) / max(1, len(self.hits))

    def mrr(self) -> float:
        """Mean reciprocal rank."""
        return sum(self.ranks) / max(1, len(self.ranks))


@dataclass
class Result:
    """What one vault gave: the tallies, the samples left out, call times and misses."""

    tallies: dict[str, Tally] = field(default_factory=lambda: {m: Tally() for m in METHODS})
    unhidden: int = 0
    seconds: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


# --- sampling -----------------------------------------------------------------------------------


def linked_notes(vault: Vault, note_id: str) -> list[str]:
    """The other notes ``note_id`` links to, sorted."""
    return sorted({link.resolved for link in vault.notes[note_id].links
                   if link.resolved in vault.notes and link.resolved != note_id})


def eligible(vault: Vault) -> list[str]:
    """The notes linking at least ``MIN_LINKS`` other notes, sorted."""
    return [note_id for note_id in vault.notes if len(linked_notes(vault, note_id)) >= MIN_LINKS]


def allocate(sizes: dict[str, int], total: int) -> dict[str, int]:
    """``total`` split over the vaults in proportion to ``sizes`` (largest remainder)."""
    whole = sum(sizes.values())
    if whole <= total:
        return dict(sizes)
    shares = {name: size * total / whole for name, size in sizes.items()}
    counts = {name: int(share) for name, share in shares.items()}
    left = total - sum(counts.values())
    for name in sorted(shares, key=lambda n: (counts[n] - shares[n], n))[:left]:
        counts[name] += 1
    return counts


def draw(vault: Vault, name: str, notes: list[str], count: int, seed: int) -> list[Sample]:
    """``count`` of ``notes`` and a hidden target for each, seeded by vault."""
    rng = random.Random(f"{seed}:{name}")
    chosen = sorted(rng.sample(notes, count))
    return [Sample(name, note_id, rng.choice(linked_notes(vault, note_id))) for note_id in chosen]


# --- hiding a link ------------------------------------------------------------------------------


def cut_links(vault: Vault, sample: Sample, text: str) -> str:
    """``text`` of the sample's note with every link to its target cut out."""
    lines = text.splitlines(keepends=True)
    for link in vault.notes[sample.note].links:
        if link.resolved != sample.target:
            continue
        forms = (link.raw, link.raw.replace("|", "\\|"))  # table cells escape the pipe
        row = link.line - 1
        form = next((f for f in forms if 0 <= row < len(lines) and f in lines[row]), None)
        if form is not None:
            lines[row] = lines[row].replace(form, "", 1)
        else:  # a link spread over lines, or a line number off by the frontmatter
            text = "".join(lines)
            for raw in forms:
                text = text.replace(raw, "")
            lines = text.splitlines(keepends=True)
    return "".join(lines)


@contextmanager
def hidden(vault: Vault, sample: Sample) -> Iterator[str | None]:
    """The note's file with the target's links cut out (rescanned) while inside; yields the
    text cut, or None when the note still links the target."""
    path = vault.root / vault.notes[sample.note].path
    original = path.read_bytes()
    text = cut_links(vault, sample, original.decode("utf-8"))
    path.write_bytes(text.encode("utf-8"))
    vault.refresh()
    try:
        still = sample.target in linked_notes(vault, sample.note)
        yield None if still else text
    finally:
        path.write_bytes(original)
        vault.refresh()


# --- rankings -----------------------------------------------------------------------------------


def by_related(vault: Vault, note_id: str, today: dt.date, visible: set[str]) -> Scores:
    """``related`` as the CLI answers, the still-linked notes left out."""
    _, found = related_notes(vault, note_id, limit=len(vault.notes), today=today)
    return {r.id: r.score for r in found if r.id not in visible}


def by_bm25(bm25: BM25, note_id: str, query: str, visible: set[str]) -> Scores:
    """BM25 with the note's text as the query (each distinct word once)."""
    scores: dict[str, float] = defaultdict(float)
    for term in dict.fromkeys(words(query)):
        numbers, weights = bm25.weights.get(term, ((), ()))
        for number, weight in zip(numbers, weights, strict=True):
            scores[bm25.ids[number]] += weight
    return {n: s for n, s in scores.items() if n != note_id and n not in visible}


def by_adamic_adar(vault: Vault, note_id: str, visible: set[str]) -> Scores:
    """Adamic-Adar on the undirected graph, every other note a candidate (0 scores unranked)."""
    graph = nx.Graph(vault.graph)
    pairs = [(note_id, other) for other in vault.notes
             if other != note_id and other not in visible and other in graph]
    return {other: score for _, other, score in nx.adamic_adar_index(graph, pairs) if score > 0}


def top(scores: Scores) -> list[str]:
    """The best ten, ties by id."""
    return [n for _, n in sorted((-s, n) for n, s in scores.items())[:TOP]]


def today_of(vault: Vault) -> dt.date:
    """The day after the newest date of the vault's notes."""
    dates = [str(data.get("date") or "")[:10] for _, data in vault.graph.nodes(data=True)]
    newest = max((d for d in dates if DAY.fullmatch(d)), default="2026-01-01")
    return dt.date.fromisoformat(newest) + dt.timedelta(days=1)


def evaluate(vault: Vault, samples: list[Sample], misses: int) -> Result:
    """The three rankings for each sample of one vault."""
    result, today = Result(), today_of(vault)
    bm25 = BM25({n: (vault.root / note.path).read_text(encoding="utf-8")
                 for n, note in vault.notes.items()})
    for sample in samples:
        with hidden(vault, sample) as query:
            if query is None:
                result.unhidden += 1
                continue
            visible = set(linked_notes(vault, sample.note))
            start = time.perf_counter()
            related_notes(vault, sample.note, limit=TOP + len(visible), today=today)
            result.seconds.append(time.perf_counter() - start)
            found = by_related(vault, sample.note, today, visible)
            result.tallies["related"].add(found, sample.target)
            result.tallies["BM25"].add(by_bm25(bm25, sample.note, query, visible), sample.target)
            result.tallies["Adamic-Adar"].add(by_adamic_adar(vault, sample.note, visible),
                                              sample.target)
            if sample.target not in top(found) and len(result.misses) < misses:
                result.misses.append(f"- [[{sample.note}]] -> [[{sample.target}]]: first "
                                     + ", ".join(f"[[{f}]]" for f in top(found)[:3]))
    return result


# --- running and reporting ----------------------------------------------------------------------


def copy_vault(source: Path, folder: Path) -> Vault:
    """A scanned copy of the vault at ``source`` inside ``folder``."""
    copy = folder / source.name
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".git"))
    vault = Vault(copy)
    _ = vault.notes
    return vault


def row(name: str, count: int, tallies: dict[str, Tally]) -> str:
    """One table row: samples, then hit@10 and MRR of each method."""
    cells = [f"{tallies[m].hit():.3f} | {tallies[m].mrr():.3f}" for m in METHODS]
    return f"| {name} | {count} | " + " | ".join(cells) + " |"


def pooled(results: dict[str, Result]) -> dict[str, Tally]:
    """Every vault's samples together."""
    return {m: Tally([h for res in results.values() for h in res.tallies[m].hits],
                     [r for res in results.values() for r in res.tallies[m].ranks])
            for m in METHODS}


def mean_of_vaults(results: dict[str, Result]) -> str:
    """The row averaging the vaults' figures (each vault weighs the same)."""
    kept = [res for res in results.values() if res.tallies["related"].ranks]
    cells = [f"{statistics.fmean(r.tallies[m].hit() for r in kept):.3f} | "
             f"{statistics.fmean(r.tallies[m].mrr() for r in kept):.3f}" for m in METHODS]
    return "| mean of vaults | " + str(len(kept)) + " | " + " | ".join(cells) + " |"


def report(results: dict[str, Result], args: argparse.Namespace, seconds: float) -> None:
    """Print the tables and notes."""
    head = " | ".join(f"{m} hit@10 | {m} MRR" for m in METHODS)
    print(f"## related on real vaults: one hidden link per note (seed {args.seed})\n")
    print(f"| vault | samples | {head} |\n|---|---:|" + "---:|" * 2 * len(METHODS))
    for name, res in results.items():
        print(row(name, len(res.tallies["related"].ranks), res.tallies))
    overall = pooled(results)
    print(row("**overall**", len(overall["related"].ranks), overall))
    print(mean_of_vaults(results))
    gap = {m: overall["related"].hit() - overall[m].hit() for m in METHODS[1:]}
    times = [s for res in results.values() for s in res.seconds]
    print(f"\nrelated - BM25 = {gap['BM25']:+.3f} hit@10 (target +0.1); related - Adamic-Adar = "
          f"{gap['Adamic-Adar']:+.3f} (target >= 0); related median "
          f"{1000 * statistics.median(times or [0]):.1f} ms per call; samples left out "
          f"(target still linked): {sum(r.unhidden for r in results.values())}; "
          f"{seconds:.0f} s in all")
    for name, res in results.items():
        if res.misses:
            print(f"\n### {name}: missed by related\n" + "\n".join(res.misses))


def main() -> int:
    """Run the evaluation and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--vaults", nargs="+", default=list(VAULTS))
    parser.add_argument("--all", action="store_true", help="every eligible note")
    parser.add_argument("--misses", type=int, default=0, help="misses shown per vault")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="eval-related-") as folder:
        os.environ["XDG_CACHE_HOME"] = str(Path(folder) / "cache")
        vaults = {name: copy_vault(args.corpora / name, Path(folder)) for name in args.vaults
                  if (args.corpora / name).is_dir()}
        if not vaults:
            print(f"no vaults under {args.corpora}", file=sys.stderr)
            return 2
        notes = {name: eligible(vault) for name, vault in vaults.items()}
        counts = ({n: len(v) for n, v in notes.items()} if args.all else
                  allocate({n: len(v) for n, v in notes.items()}, args.samples))
        results = {name: evaluate(vault, draw(vault, name, notes[name], counts[name], args.seed),
                                  args.misses) for name, vault in vaults.items()}
    report(results, args, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
