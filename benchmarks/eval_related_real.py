r"""``related`` on real vaults by link prediction, its weights chosen leave-one-vault-out.

    python benchmarks/eval_related_real.py [--samples 40] [--seed 11] [--corpora DIR]
        [--vaults NAME ...] [--cache FILE] [--reuse] [--own]

Every vault of ``../shared/corpora`` (real public vaults written outside the project) is
copied to a temporary folder and scanned there (the index in a temporary cache folder).

Pairs: a note and a note it links to that does not link back (so the link cannot be told
from the other side), where the note links at least two other notes. ``--samples`` pairs per
vault are drawn with ``random.Random(f"{seed}:{vault}")`` from the sorted pairs.

Two protocols, each on the copy, the note's file put back after each:

- ``words``: every link of the note to the target is replaced by its words as a reader sees
  them (``[[Lucy Tan|Lucy]]`` -> ``Lucy``, ``[[Projects/DataFlow]]`` -> ``DataFlow``,
  ``[text](x.md)`` -> ``text``): the link is gone, its words stay;
- ``cut``: every such link is cut out with its words.

The vault is rescanned; a pair whose note still links the target is left out. Rankings, over
every other note but those the note still links to (known, not predicted), top 10:

- ``related``: the evidence :func:`vaultmem.recall.related.notes.evidence` gives each candidate,
  read from the index as ``vaultmem related`` reads it, scored with weights chosen on the
  other vaults (see below);
- Adamic-Adar: ``networkx.adamic_adar_index`` on the undirected link graph of the vault as it
  is (missing notes and attachments are nodes, as the graph has them), the pair's link taken
  out, over every candidate; those scoring 0 unranked;
- BM25: the note's changed text as the query over the file texts of the other notes (words,
  and CJK text as its characters and their pairs, as :func:`vaultmem.text.search_terms` splits it).

Mentions (``words`` protocol): whether the words left are the target's title or an alias,
whether ``vaultmem mentions TARGET`` then lists the note, and whether ``lint --suggest-links``
offers the link there (the share of such pairs is reported).

Weights, leave-one-vault-out: for each vault, the weights of :class:`Weights` are chosen by
coordinate ascent (:func:`vaultmem.recall.related.weight_fit.ascended`, from the shipped
weights, as ``tune-related`` fits) to maximise the mean
hit@10 over the other vaults (both protocols, each vault counting once), then scored on the
vault left out. The shipped weights are those chosen on every vault. Metrics: hit@10 (the
target in the top 10; ties broken at random in expectation, as a tie with others gets the
hit it would get on average); vaults with fewer than ``SMALL`` linked notes are reported but
the target (``related`` >= max(Adamic-Adar, BM25) + 0.05 on each protocol) counts on the
others. Tuned: each vault is first tuned as ``vaultmem tune-related`` tunes it (its own hidden
links, the weights it keeps), and those weights are scored on the samples whose pair it did not
hide itself. The samples' evidence is saved to ``--cache`` (``benchmarks/out/related.json``) and
``--reuse`` fits again from it without rescanning. ``--own`` also scores weights fitted on
each vault's own links: its samples split in two halves, each half scored with the weights
fitted (as above) on the other half alone: what tuning on a vault's own links would give.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import networkx as nx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from vaultmem.model import Link  # noqa: E402
from vaultmem.recall.related.evidence import Evidence, evidence  # noqa: E402
from vaultmem.recall.related.link_hiding import (  # noqa: E402
    linked_notes,
    one_way_links,
    shown,
)
from vaultmem.recall.related.notes import WEIGHTS, Weights, related_inputs  # noqa: E402
from vaultmem.recall.related.own_weights import links_to_hide, tune_related  # noqa: E402
from vaultmem.recall.related.weight_fit import ascended  # noqa: E402
from vaultmem.text import search_terms  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

CORPORA = HERE.parents[1] / "shared" / "corpora"
CACHE = HERE / "out" / "related.json"
TOP = 10
SMALL = 200  # linked notes: below this a vault's figure is too noisy to hold it to the target
PROTOCOLS = ("words", "cut")
K1, B = 1.2, 0.75

Sample = dict[str, Any]  # vault, protocol, note, target, candidates {id: evidence}, baselines


# --- pairs and protocols ------------------------------------------------------------------------


def rewritten(vault: Vault, note_id: str, target: str, protocol: str, text: str) -> str:
    """``text`` of the note with its links to ``target`` turned to words or cut out."""
    lines = text.split("\n")
    for link in vault.notes[note_id].links:
        if link.resolved != target:
            continue
        forms = (link.raw, link.raw.replace("|", "\\|"))  # table cells escape the pipe
        words = shown(link) if protocol == "words" else ""
        row = link.line - 1
        form = next((f for f in forms if 0 <= row < len(lines) and f in lines[row]), None)
        if form is not None:
            lines[row] = lines[row].replace(form, words, 1)
        else:
            joined = "\n".join(lines)
            for raw in forms:
                joined = joined.replace(raw, words)
            lines = joined.split("\n")
    return "\n".join(lines)


# --- baselines ----------------------------------------------------------------------------------


class BM25:
    """Okapi BM25 over whole texts, CJK split as :func:`vaultmem.text.search_terms` splits it."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.postings: dict[str, list[tuple[str, float]]] = defaultdict(list)
        lengths = {doc: len(search_terms(text)) for doc, text in texts.items()}
        average = sum(lengths.values()) / max(1, len(lengths))
        counts = {doc: Counter(search_terms(text)) for doc, text in texts.items()}
        frequency = Counter(term for found in counts.values() for term in found)
        for doc, found in counts.items():
            for term, tf in found.items():
                idf = math.log(1 + (len(texts) - frequency[term] + 0.5)
                               / (frequency[term] + 0.5))
                norm = tf + K1 * (1 - B + B * lengths[doc] / average)
                self.postings[term].append((doc, idf * tf * (K1 + 1) / norm))

    def scores(self, query: str) -> dict[str, float]:
        """Each document's score for ``query`` (each distinct term once)."""
        found: dict[str, float] = defaultdict(float)
        for term in set(search_terms(query)):
            for doc, weight in self.postings.get(term, ()):
                found[doc] += weight
        return found


def adamic_adar(graph: nx.Graph, note_id: str, candidates: list[str]) -> dict[str, float]:
    """Adamic-Adar of ``note_id`` with each candidate (0 left out)."""
    present = [c for c in candidates if c in graph]
    return {other: score for _, other, score in nx.adamic_adar_index(
        graph, [(note_id, other) for other in present]) if score > 0}


# --- one vault ----------------------------------------------------------------------------------


def collect(vault: Vault, name: str, count: int, seed: int) -> list[Sample]:
    """The samples of one vault, both protocols."""
    rng = random.Random(f"{seed}:{name}")
    every = one_way_links(vault)
    chosen = sorted(rng.sample(every, min(count, len(every))))
    graph = nx.Graph(vault.graph)
    texts = {i: vault.note_text(i) for i in vault.notes}
    bm25 = BM25(texts)
    today = today_of(vault)
    samples = []
    for (note_id, target), protocol in itertools.product(chosen, PROTOCOLS):
        sample = one(vault, graph, bm25, texts, note_id, target, protocol, today)
        if sample is not None:
            samples.append({"vault": name, **sample})
    return samples


def one(vault: Vault, graph: nx.Graph, bm25: BM25, texts: dict[str, str], note_id: str,
        target: str, protocol: str, today: Any) -> Sample | None:
    """One sample: the note's file changed, the evidence and both baselines, put back."""
    path = vault.root / vault.notes[note_id].path
    original = path.read_bytes()
    changed = rewritten(vault, note_id, target, protocol, original.decode("utf-8"))
    path.write_bytes(changed.encode("utf-8"))
    vault.refresh()
    try:
        visible = linked_notes(vault, note_id)
        if target in visible:
            return None
        part, inputs = related_inputs(vault, note_id, every_word=True)
        found, _ = evidence(part, note_id, today=today, **inputs)
        others = [i for i in vault.notes if i != note_id and i not in visible]
        graph.remove_edge(note_id, target)
        try:
            aa = adamic_adar(graph, note_id, others)
        finally:
            graph.add_edge(note_id, target)
        words = bm25.scores(changed)
        return {"protocol": protocol, "note": note_id, "target": target,
                **(found_by_mentions(vault, note_id, target, original.decode("utf-8"))
                   if protocol == "words" else {}),
                "candidates": {c: list(e) for c, e in found.items() if c not in visible},
                "aa": {c: aa[c] for c in others if c in aa},
                "bm25": {c: words[c] for c in others if words.get(c, 0) > 0}}
    finally:
        path.write_bytes(original)
        vault.refresh()


def found_by_mentions(vault: Vault, note_id: str, target: str, original: str) -> Sample:
    """For the ``words`` protocol: whether the words left are the target's title or an alias
    (``named``), whether ``mentions TARGET`` lists the note (``listed``) and whether
    ``lint --suggest-links`` offers the link there (``offered``)."""
    from vaultmem.check.link_suggestions import mention_findings
    from vaultmem.check.mentions import mentions_of, names_of

    names = {name.casefold() for name in names_of(vault, target)}
    said = {shown(link).casefold() for link in linked_links(vault, note_id, target, original)}
    listed = any(m.source == note_id for m in mentions_of(vault, target))
    offered = any(f"[[{target}]]" in f.message for f in mention_findings(vault, [note_id]))
    return {"named": bool(said & names), "listed": listed, "offered": offered}


def linked_links(vault: Vault, note_id: str, target: str, original: str) -> list[Link]:
    """The links of ``note_id`` to ``target`` as its ``original`` text writes them."""
    from vaultmem.read.parse import parse_note

    note = parse_note(vault.notes[note_id].path, original.encode("utf-8"), vault.config)
    resolver = vault.index.resolver
    return [link for link in note.links if resolver.resolve(link.target, note_id)[0] == target]


def today_of(vault: Vault) -> Any:
    """The day after the newest date of the vault's notes (recency as on its last day)."""
    import datetime as dt

    dates = [str(data.get("date") or "")[:10] for _, data in vault.graph.nodes(data=True)]
    newest = max((d for d in dates if len(d) == 10 and d[4] == "-"), default="2026-01-01")
    try:
        return dt.date.fromisoformat(newest) + dt.timedelta(days=1)
    except ValueError:
        return dt.date(2026, 1, 1)


# --- scoring and fitting ------------------------------------------------------------------------


def hit(scores: dict[str, float], target: str) -> float:
    """1 when ``target`` is in the top ``TOP`` of ``scores``; a tie shares the places it holds."""
    mine = round(scores.get(target, 0.0), 9)
    if mine <= 0:
        return 0.0
    above = sum(round(s, 9) > mine for s in scores.values())
    tied = sum(round(s, 9) == mine for s in scores.values())
    return max(0, min(tied, TOP - above)) / tied


class Matrix:
    """One sample's candidates as rows of evidence (numpy), for scoring many weights fast."""

    def __init__(self, sample: Sample) -> None:
        import numpy as np

        ids = sorted(sample["candidates"])
        self.rows = np.array([sample["candidates"][c] for c in ids], dtype=float).reshape(
            len(ids), len(Evidence._fields))
        self.target = ids.index(sample["target"]) if sample["target"] in ids else -1

    def hit(self, weights: Weights) -> float:
        """hit@10 of these weights (ties share the places they hold)."""
        import numpy as np

        if self.target < 0:
            return 0.0
        scores = np.round(self.rows @ np.array(weights, dtype=float), 9)
        mine = scores[self.target]
        if mine <= 0:
            return 0.0
        above = int((scores > mine).sum())
        tied = int((scores == mine).sum())
        return max(0, min(tied, TOP - above)) / tied


def related_hit(sample: Sample, weights: Weights) -> float:
    """hit@10 of ``related`` with ``weights`` on one sample."""
    return Matrix(sample).hit(weights)


def own_fit(samples: list[Sample]) -> dict[int, Weights]:
    """Weights chosen on the vault's own held links: the samples split in two by their place
    (even, odd), each half scored with the weights fitted on the other (both protocols)."""
    halves = [samples[0::2], samples[1::2]]
    fitted = [fit(halves[1]), fit(halves[0])]
    return {id(sample): fitted[at % 2] for at, sample in enumerate(samples)}


def vault_mean(matrices: dict[str, list[Matrix]], weights: Weights) -> float:
    """Mean over the vaults of their hit@10 (both protocols together)."""
    return statistics.fmean(statistics.fmean(m.hit(weights) for m in mine)
                            for mine in matrices.values()) if matrices else 0.0


def fit(samples: list[Sample], start: Weights = WEIGHTS) -> Weights:
    """Weights maximising :func:`vault_mean` (coordinate ascent, as ``tune-related`` fits)."""
    matrices: dict[str, list[Matrix]] = defaultdict(list)
    for sample in samples:
        matrices[sample["vault"]].append(Matrix(sample))
    return ascended(lambda weights: vault_mean(matrices, weights), start)


# --- report -------------------------------------------------------------------------------------


def table(samples: list[Sample], chosen: dict[str, Weights], sizes: dict[str, int],
          own: dict[int, Weights] | None = None) -> list[str]:
    """Per vault and protocol: samples, hit@10 of related (weights chosen without the vault,
    or with ``own``: each sample's weights fitted on the vault's other half), Adamic-Adar and
    BM25, and the margin over the better baseline."""
    rows = ["| vault | linked notes | protocol | pairs | related | Adamic-Adar | BM25 | margin |",
            "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for name in sorted(chosen):
        for protocol in PROTOCOLS:
            mine = [s for s in samples if s["vault"] == name and s["protocol"] == protocol]
            if not mine:
                continue
            ours = statistics.fmean(related_hit(s, own[id(s)] if own else chosen[name])
                                    for s in mine)
            aa = statistics.fmean(hit(s["aa"], s["target"]) for s in mine)
            bm = statistics.fmean(hit(s["bm25"], s["target"]) for s in mine)
            rows.append(f"| {name} | {sizes.get(name, 0)} | {protocol} | {len(mine)} | "
                        f"{ours:.3f} | {aa:.3f} | {bm:.3f} | {ours - max(aa, bm):+.3f} |")
    return rows


def tuned_table(samples: list[Sample], tuned: dict[str, Any], sizes: dict[str, int]
                ) -> list[str]:
    """Per vault and protocol: hit@10 of the baselines, the shipped weights and the weights
    ``tune-related`` chose on the vault (over the pairs it did not hide itself)."""
    rows = ["| vault | linked notes | protocol | pairs | Adamic-Adar | BM25 | shipped | tuned "
            "| chosen | margin | tuning s |",
            "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for name in sorted(tuned):
        hidden = {tuple(pair) for pair in tuned[name]["hidden"]}
        weights = Weights(*tuned[name]["weights"])
        for protocol in PROTOCOLS:
            mine = [s for s in samples if s["vault"] == name and s["protocol"] == protocol
                    and (s["note"], s["target"]) not in hidden]
            if not mine:
                continue
            aa = statistics.fmean(hit(s["aa"], s["target"]) for s in mine)
            bm = statistics.fmean(hit(s["bm25"], s["target"]) for s in mine)
            shipped = statistics.fmean(related_hit(s, WEIGHTS) for s in mine)
            ours = statistics.fmean(related_hit(s, weights) for s in mine)
            rows.append(f"| {name} | {sizes.get(name, 0)} | {protocol} | {len(mine)} | "
                        f"{aa:.3f} | {bm:.3f} | {shipped:.3f} | {ours:.3f} | "
                        f"{tuned[name]['chosen']} | "
                        f"{ours - max(aa, bm):+.3f} | {tuned[name]['seconds']:.1f} |")
    return rows


def linked_count(vault: Vault) -> int:
    """How many notes link or are linked by another note."""
    graph = vault.graph.to_undirected(as_view=True)
    return sum(1 for i in vault.notes if any(n in vault.notes and n != i for n in graph[i]))


def main() -> int:
    """Collect (or reuse) the samples, choose the weights, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=40, help="pairs per vault")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--vaults", nargs="*")
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--reuse", action="store_true", help="fit again from --cache")
    parser.add_argument("--own", action="store_true",
                        help="also weights fitted on each vault's own other half of its links")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.reuse:
        saved = json.loads(args.cache.read_text(encoding="utf-8"))
        samples, sizes, seconds = saved["samples"], saved["sizes"], saved["seconds"]
        tuned = saved.get("tuned", {})
    else:
        samples, sizes, seconds, tuned = gather(args)
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        args.cache.write_text(json.dumps({"samples": samples, "sizes": sizes,
                                          "seconds": seconds, "tuned": tuned}),
                              encoding="utf-8")
    names = sorted({s["vault"] for s in samples})
    chosen = {name: fit([s for s in samples if s["vault"] != name]) for name in names}
    everywhere = fit(samples)
    print(f"## related on {len(names)} real vaults: hidden links with no link back "
          f"(seed {args.seed})\n")
    print("\n".join(table(samples, chosen, sizes)))
    if args.own:
        own: dict[int, Weights] = {}
        for name in names:
            own |= own_fit([s for s in samples if s["vault"] == name])
        print("\nWeights fitted on the vault's own links (two halves, each scored with the "
              "other's weights):\n")
        print("\n".join(table(samples, chosen, sizes, own)))
    if tuned:
        print("\nTuned in the product (`vaultmem tune-related` on the vault, its own hidden "
              "links; pairs it hid left out):\n")
        print("\n".join(tuned_table(samples, tuned, sizes)))
    named = [s for s in samples if s.get("named")]
    print(f"\nMentions, words protocol: {len(named)} pairs whose words are the target's title "
          f"or an alias; `mentions TARGET` lists the note for "
          f"{sum(s['listed'] for s in named) / max(1, len(named)):.3f}, `lint --suggest-links` "
          f"offers the link for {sum(s['offered'] for s in named) / max(1, len(named)):.3f}")
    print(f"\nWeights chosen on every vault: {dict(everywhere._asdict())}")
    print(f"Per sample (its note changed, the vault rescanned, the evidence and both baselines, "
          f"the note put back), median over the vaults: {seconds * 1000:.1f} ms; "
          f"{time.perf_counter() - started:.0f} s in all")
    return 0


def gather(args: argparse.Namespace
           ) -> tuple[list[Sample], dict[str, int], float, dict[str, Any]]:
    """Copy, scan, tune (``vaultmem tune-related``) and sample every vault."""
    tuned: dict[str, Any] = {}
    samples: list[Sample] = []
    sizes: dict[str, int] = {}
    timings: list[float] = []
    with tempfile.TemporaryDirectory(prefix="eval-related-") as folder:
        os.environ["XDG_CACHE_HOME"] = str(Path(folder) / "cache")
        for source in sorted(p for p in args.corpora.iterdir() if p.is_dir()):
            if args.vaults and source.name not in args.vaults:
                continue
            copy = Path(folder) / source.name
            shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".git"))
            vault = Vault(copy)
            sizes[source.name] = linked_count(vault)
            began = time.perf_counter()
            fit = tune_related(vault)
            tuned[source.name] = {"weights": list(fit.weights), "chosen": fit.chosen,
                                  "seconds": time.perf_counter() - began,
                                  "hidden": sorted({h[:2] for h in links_to_hide(vault)})}
            began = time.perf_counter()
            found = collect(vault, source.name, args.samples, args.seed)
            timings.append((time.perf_counter() - began) / max(1, len(found)))
            samples += found
            print(f"{source.name}: {len(found)} samples", file=sys.stderr)
    return samples, sizes, statistics.median(timings or [0.0]), tuned


if __name__ == "__main__":
    sys.exit(main())
