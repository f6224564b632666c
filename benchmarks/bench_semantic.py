"""Semantic recall's costs: embedding, re-embedding, added query latency, peak RSS, 100k scale.

    XDG_CACHE_HOME=$(mktemp -d) python benchmarks/bench_semantic.py [--notes 10000]
        [--model PATH] [--queries 50] [--skip-100k]

The synthetic vault of gen_vault.py (``benchmarks/out/vault-N``) is copied with hard links to
``benchmarks/out/vault-N-semantic`` and given a ``.vaultmem/config.toml`` naming the model
(``[semantic] model``); every file this benchmark changes in the copy is written as a new file
(temp file + ``os.replace``) and put back as a hard link to the original's, so the original
vault is never written. Everything runs on a fresh cache folder (its own ``XDG_CACHE_HOME``,
made here), with every core (ONNX Runtime threads 0). Measured, in this order:

0. floor: plain Python reading every note and running one wikilink regex (after one unmeasured
   read), in a fresh process; the wall times of fresh processes are also given as x floor.
   Index: ``vaultmem scan`` on the copy and on the original (the "semantic off" vault of the
   fresh-process rows), each in a fresh process on the empty cache.
1. Embedding throughput: passages/s of ``load_embedder(...).passages(texts)`` over 2,000
   distinct passage texts of the index (the first by digest: a fair sample; each as vaultmem
   gives it to the model, ``fts.meaning_form``: the note's title first), in this process,
   after one warm-up batch; the best of 2 rounds; then the same texts shortest first (the
   order vaultmem embeds them in: batches of like lengths pad less).
2. First embedding: ``vaultmem index --embed --json`` in a fresh process on the fresh vector
   store: wall seconds, texts, passages/s (wall and of its own clock); the sizes on disk of
   ``vectors.sqlite3`` and ``index.sqlite3`` (with their WAL files).
3. Incremental re-embed after one sentence is appended to one note: ``vaultmem index --embed``
   in a fresh process (interpreter, model load and rescan included; median of 3 notes) and in
   this process (``embed_vault(vault)`` after ``vault.refresh()``, rescan included; median of
   5 notes, with the embedding-and-packing share alone). Target: at most 1 s.
4. Added latency per query in one warm process (like the MCP server): for each of
   ``search(vault, q)`` and ``build_context(vault, query=q, budget=1000)``, two ``Vault``
   objects on the copy, semantic on and off, indexes read, model and vectors loaded, a few
   other queries run first; each of ``--queries`` questions (note titles, phrases from
   passages, paraphrases) is asked once of each (a vault embeds a question once, so asking it
   again would hide the embedding). Reported: the medians on and off, the median of the
   per-question differences (target: at most 30 ms), and the query embedding and the
   brute-force ``nearest`` alone (right after the embedding, as a query runs it, and again
   with no embedding just before). Then the wall times of fresh processes running
   ``vaultmem search Q`` and ``vaultmem context --query Q --budget 1000`` on the copy (on) and
   on the original (off), median of 3 questions, and the model's load time
   (``load_embedder`` in a fresh process, fastembed's import included).
5. Peak RSS of those fresh-process commands with semantic on. Target: at most 400 MB. Every
   fresh process is started by a small launcher that times it and takes its peak from
   ``wait4``: a child forked from this process, which holds a model, would count this
   process's size in its own peak.
6. 100k scale without embedding the 100k vault: its distinct passage texts (from an index of
   it in some cache if one exists, else from a scan of it here; 740,000 if there is no such
   vault), the estimated time to embed them at the throughputs of 1 and 2, then a
   ``VectorStore`` of that many random unit vectors (``add`` in batches, ``pack``; timed, and
   ``pack`` again after one text changed: what an incremental embed packs) and, in a fresh
   process, the time of ``store.matrix()`` and the median of 20 ``nearest(matrix, q,
   limit=200)``, with that process's peak RSS: the brute-force cost of a query at 100k notes.

The machine's load average is printed at the start and the end: the timings are only as quiet
as the machine. Printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_index import OUT  # noqa: E402
from bench_scale import compiled, ensure_vault, scan_case  # noqa: E402

MODEL = Path(__file__).resolve().parents[2] / "shared/models/all-MiniLM-L6-v2-onnx-int8"
SAMPLE = 2000  # passage texts embedded for the throughput
ROUNDS = 2  # of the throughput: the best is reported (the machine is shared)
FRESH_RUNS = 3  # notes or questions per fresh-process measurement
IN_PROCESS_EDITS = 5
UNKNOWN_100K = 740_000  # passage texts of the 100k vault when nothing says
NEAREST_RUNS = 20
CANDIDATES = 200
IN_PROCESS = ("vaultmem.recall.search", "vaultmem.recall.context.build", "vaultmem.recall.meaning",
              "vaultmem.index.vectors", "vaultmem.vault")
TARGETS = {"incremental": 1.0, "added_ms": 30.0, "rss_mb": 400.0}
PARAPHRASES = (
    "who is responsible for the error budget",
    "why is the data migration running late",
    "vendor agreement costs went up",
    "a cheap low risk trial of the pricing page",
    "nobody knows who owns the nightly backups",
    "summary of the on-call schedule",
    "simplify the quarterly objectives before next quarter",
    "measure the rollout for a few weeks before deciding",
    "earlier try at changing the database schema failed",
    "friction caused by unclear responsibility for the support tickets",
    "notes about hiring so nothing gets forgotten",
    "disagreement about the onboarding experience",
    "review delays slowed the release notes",
    "what did we discuss about the test coverage",
    "budget increase within the expected range",
    "revisit the data model when we have the figures",
)
LOAD_MODEL = """
import json, sys, time
from pathlib import Path
from vaultmem.index.embedder import load_embedder
from vaultmem.semantic_config import Semantic
start = time.perf_counter()
load_embedder(Semantic(sys.argv[1], Path(sys.argv[1])))
print(json.dumps({"load": time.perf_counter() - start}))
"""
NEAREST = """
import json, resource, statistics, sys, time
from pathlib import Path
import numpy as np
from vaultmem.index.vectors import VectorStore, nearest
folder, dim, runs, limit = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def rss(kind):
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith(kind))
    return int(line.split()[1]) / 1024
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
store = VectorStore(folder, "random", dim)
start = time.perf_counter()
matrix = store.matrix()
load = time.perf_counter() - start
anon, mapped = rss("RssAnon"), rss("RssFile")
store.close()
rng = np.random.default_rng(11)
times = []
for _ in range(runs):
    query = rng.standard_normal(dim).astype(np.float32)
    query /= np.linalg.norm(query)
    start = time.perf_counter()
    nearest(matrix, query, limit=limit)
    times.append(time.perf_counter() - start)
if len(matrix.digests) != int(sys.argv[5]):
    raise SystemExit(f"{len(matrix.digests)} rows packed, not {sys.argv[5]}")
print(json.dumps({"rows": len(matrix.digests), "load": load,
                  "nearest_ms": statistics.median(times) * 1000, "before_mb": before,
                  "anon_mb": anon, "file_mb": mapped, "closed_file_mb": rss("RssFile")}))
"""
LAUNCH = """
import json, os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(process.pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as report:
    json.dump({"seconds": seconds, "rss_kb": usage.ru_maxrss,
               "code": os.waitstatus_to_exitcode(status)}, report)
"""
WORD = re.compile(r"[A-Za-z]+")


class Run(NamedTuple):
    """One fresh process: wall seconds, its peak RSS (MB) and what it printed."""

    seconds: float
    rss_mb: float
    out: str


class Row(NamedTuple):
    """One line of the table."""

    step: str
    measure: str
    value: str
    target: str = ""


def log(message: str) -> None:
    """Progress on stderr (the table goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def fresh(command: list[str], cache: Path) -> Run:
    """Run ``command`` in a fresh process with ``cache`` as XDG_CACHE_HOME (bytecode compiled
    first, as an installed package has it), started by a small launcher: a process forked from
    this one, which holds a model, would count this one's size in its own peak RSS."""
    compiled()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)
    with tempfile.TemporaryFile("w+") as errors, tempfile.NamedTemporaryFile("r") as report:
        process = subprocess.Popen([sys.executable, "-c", LAUNCH, report.name, *command],
                                   env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
        out, _ = process.communicate()
        errors.seek(0)
        said = errors.read()
        found = json.loads(report.read() or "{}")
    if process.returncode != 0 or found.get("code") != 0 or "Traceback" in said:
        raise RuntimeError(f"{' '.join(command)} exited {found.get('code')}:\n{said[-2000:]}")
    return Run(found["seconds"], found["rss_kb"] / 1024, out)


def vaultmem(root: Path, args: list[str], cache: Path) -> Run:
    """A whole ``vaultmem`` command on the vault at ``root``, in a fresh process."""
    return fresh([sys.executable, "-m", "vaultmem", "--vault", str(root), *args], cache)


def new_file(path: Path, data: bytes) -> None:
    """Write ``data`` as a new file at ``path`` (temp file + rename: never through a link)."""
    temp = path.with_name(f".{path.name}.bench-tmp")
    temp.unlink(missing_ok=True)
    temp.write_bytes(data)
    os.replace(temp, path)


def relink(original: Path, path: Path) -> None:
    """Make ``path`` a hard link to ``original`` again (a rename: ``original`` is untouched)."""
    temp = path.with_name(f".{path.name}.bench-tmp")
    temp.unlink(missing_ok=True)
    os.link(original, temp)
    os.replace(temp, path)


def semantic_copy(notes: int, model: Path) -> tuple[Path, Path]:
    """The synthetic vault and its hard-linked copy with ``[semantic] model`` set, every note
    of the copy linked to the original's (a stopped earlier run may have left some changed)."""
    original = ensure_vault(notes)
    copy = OUT / f"vault-{notes}-semantic"
    if not copy.is_dir():
        subprocess.run(["cp", "-al", str(original), str(copy)], check=True)
    for path in original.rglob("*.md"):
        mine = copy / path.relative_to(original)
        if not mine.exists() or mine.stat().st_ino != path.stat().st_ino:
            relink(path, mine)
    config = original / ".vaultmem" / "config.toml"
    base = config.read_text(encoding="utf-8") if config.is_file() else ""
    if "[semantic]" in base:
        raise SystemExit(f"{config} has a [semantic] table already; remove it to benchmark")
    (copy / ".vaultmem").mkdir(exist_ok=True)
    text = (base.rstrip("\n") + "\n\n" if base.strip() else "") + (
        f"[semantic]\nmodel = {json.dumps(str(model))}\n")
    new_file(copy / ".vaultmem" / "config.toml", text.encode("utf-8"))
    return original, copy


def cache_folder(cache: Path, root: Path) -> Path:
    """The folder of the index and vectors of the vault at ``root`` under ``cache``."""
    return cache / "vaultmem" / hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:20]


def size_mb(path: Path) -> float:
    """The size of a SQLite file with its WAL files, MB."""
    return sum(Path(f"{path}{suffix}").stat().st_size for suffix in ("", "-wal", "-shm")
               if Path(f"{path}{suffix}").exists()) / 2**20


def read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the SQLite file at ``path``."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def sample_passages(index: Path, count: int) -> list[tuple[str, list[str], str]]:
    """(path, headings, text) of ``count`` distinct passage texts of the index at ``index``,
    the first by digest."""
    db = read_only(index)
    try:
        return [(path, json.loads(headings), text) for path, headings, text in db.execute(
            "SELECT path, headings, text FROM passages GROUP BY digest ORDER BY digest LIMIT ?",
            (count,))]
    finally:
        db.close()


def embedded_form(path: str, headings: list[str], text: str) -> str:
    """What vaultmem gives the model of a passage (``fts.meaning_form`` of it, where there is
    one, with the headings if it takes them)."""
    import inspect

    try:
        from vaultmem.index.fts import meaning_form
    except ImportError:
        return text
    form: Any = meaning_form
    if "headings" in inspect.signature(form).parameters:
        return str(form(path, headings, text))
    return str(form(path, text))


def passage_counts(index: Path) -> tuple[int, int]:
    """(distinct passage texts, passages) of an index (an older one without digests: by
    text, which is what the digest is of)."""
    db = read_only(index)
    try:
        columns = {row[1] for row in db.execute("PRAGMA table_info(passages)")}
        what = "digest" if "digest" in columns else "text"
        distinct, total = db.execute(f"SELECT count(DISTINCT {what}), count(*) FROM passages"
                                     ).fetchone()
        return int(distinct), int(total)
    finally:
        db.close()


def throughput(embedder: Any, texts: list[str]) -> list[float]:
    """Passages per second of ``embedder.passages`` over ``texts``, in each of ``ROUNDS``
    rounds (after a warm-up batch)."""
    for _ in embedder.passages(texts[:64]):
        pass
    rates = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        done = sum(1 for _ in embedder.passages(texts))
        rates.append(done / (time.perf_counter() - start))
    return rates


def append_sentence(path: Path, number: int) -> None:
    """Append one sentence (``number`` makes it new) to a note of the copy, as a new file."""
    new_file(path, path.read_bytes() + f"\nOne more remark, number {number}, about the "
             "rollout timeline and who signs it off.\n".encode())


def edited_notes(copy: Path, count: int) -> list[Path]:
    """``count`` project notes of the copy to change, spread over the folder."""
    notes = sorted((copy / "Projects").glob("*.md"))
    return [notes[at * len(notes) // count] for at in range(count)]


def incremental_fresh(original: Path, copy: Path, cache: Path) -> tuple[list[Run], list[float],
                                                                      list[int]]:
    """``vaultmem index --embed --json`` after one note changed, ``FRESH_RUNS`` times: the
    runs, the seconds of their own clock and how many texts each embedded (the notes are put
    back after)."""
    runs, own, embedded = [], [], []
    notes = edited_notes(copy, FRESH_RUNS + IN_PROCESS_EDITS)[:FRESH_RUNS]
    try:
        for number, note in enumerate(notes):
            append_sentence(note, number)
            runs.append(vaultmem(copy, ["index", "--embed", "--json"], cache))
            done = json.loads(runs[-1].out)
            own.append(done["seconds"])
            embedded.append(done["embedded"])
    finally:
        for note in notes:
            relink(original / note.relative_to(copy), note)
    return runs, own, embedded


def incremental_in_process(original: Path, copy: Path) -> tuple[list[float], list[float],
                                                                list[int]]:
    """``embed_vault`` after ``refresh`` with one note changed, in one process: wall seconds
    (rescan included), the embedding run's own seconds and the texts embedded, per note (the
    notes are put back and the vectors repacked after, untimed)."""
    from vaultmem.recall.meaning import embed_vault
    from vaultmem.vault import Vault

    vault = Vault(copy)
    embed_vault(vault)  # the index read, the model loaded, the rest of the vectors packed
    walls, own, embedded = [], [], []
    notes = edited_notes(copy, FRESH_RUNS + IN_PROCESS_EDITS)[FRESH_RUNS:]
    try:
        for number, note in enumerate(notes, start=100):
            append_sentence(note, number)
            vault.refresh()
            start = time.perf_counter()
            done = embed_vault(vault)
            walls.append(time.perf_counter() - start)
            own.append(done.seconds)
            embedded.append(done.embedded)
    finally:
        for note in notes:
            relink(original / note.relative_to(copy), note)
        vault.refresh()
        embed_vault(vault)
        vault.store.close()
    return walls, own, embedded


def questions(copy: Path, index: Path, count: int) -> list[str]:
    """``count`` questions: note titles, four-word phrases of passages and paraphrases, in
    turn (the same every run)."""
    rng = random.Random(5)
    titles = [path.stem for path in sorted(copy.rglob("*.md"))
              if not path.stem[:1].isdigit() and ".vaultmem" not in path.parts]
    phrases = []
    for _, _, text in sample_passages(index, 400)[200:]:
        words = WORD.findall(text)
        if len(words) >= 8:
            at = rng.randrange(len(words) - 4)
            phrases.append(" ".join(words[at : at + 4]))
    kinds = [rng.sample(titles, count), rng.sample(phrases, count),
             [PARAPHRASES[at % len(PARAPHRASES)] for at in range(count)]]
    return [kinds[at % 3][at // 3] for at in range(count)]


def median_ms(times: list[float]) -> float:
    """The median of ``times`` (seconds) in milliseconds."""
    return statistics.median(times) * 1000


def latency(copy: Path, asked: list[str]) -> dict[str, float]:
    """Median milliseconds per question of search and context with semantic on and off (warm
    vaults, a pair per case so neither reuses the other's query vector), of their per-question
    differences, of the query embedding and of ``nearest``."""
    from vaultmem.index.vectors import nearest
    from vaultmem.recall.context.build import build_context
    from vaultmem.recall.meaning import Loaded, loaded
    from vaultmem.recall.search import search
    from vaultmem.semantic_config import Semantic
    from vaultmem.vault import Vault

    cases: dict[str, Callable[[Vault, str], object]] = {
        "search": lambda vault, q: search(vault, q),
        "context": lambda vault, q: build_context(vault, query=q, budget=1000),
    }
    result: dict[str, float] = {}
    vectors: Loaded | None = None
    for name, case in cases.items():
        on, off = Vault(copy), Vault(copy)
        off.config.semantic = Semantic()
        _ = on.notes, off.notes
        vectors = loaded(on)
        if vectors is None:
            raise RuntimeError(f"semantic recall is not on: {on.notices}")
        for warm in ("warm up the caches", "the team", "budget review"):
            case(off, warm)
            case(on, warm)
        times: dict[str, list[float]] = {"on": [], "off": []}
        for q in asked:
            for side, vault in (("off", off), ("on", on)):
                start = time.perf_counter()
                case(vault, q)
                times[side].append(time.perf_counter() - start)
        result[f"{name} on"], result[f"{name} off"] = median_ms(times["on"]), median_ms(
            times["off"])
        result[f"{name} added"] = median_ms([a - b for a, b in zip(times["on"], times["off"],
                                                                    strict=True)])
        on.store.close()
    assert vectors is not None
    embeds, scans, alone, made = [], [], [], []
    for q in asked:
        start = time.perf_counter()
        made.append(vectors.embedder.query(q))
        embeds.append(time.perf_counter() - start)
        start = time.perf_counter()
        nearest(vectors.matrix, made[-1], limit=CANDIDATES)
        scans.append(time.perf_counter() - start)
    for vector in made:  # with no embedding just before (ONNX Runtime's threads idle)
        start = time.perf_counter()
        nearest(vectors.matrix, vector, limit=CANDIDATES)
        alone.append(time.perf_counter() - start)
    result["query embedding"], result["nearest"] = median_ms(embeds), median_ms(scans)
    result["nearest alone"] = median_ms(alone)
    result["rows"] = len(vectors.matrix.digests)
    return result


def commands(original: Path, copy: Path, asked: list[str], cache: Path) -> dict[str, list[Run]]:
    """Fresh-process ``search`` and ``context --query`` runs, semantic on (the copy) and off
    (the original), one per question."""
    found: dict[str, list[Run]] = {}
    for side, root in (("on", copy), ("off", original)):
        found[f"search {side}"] = [vaultmem(root, ["search", q], cache) for q in asked]
        found[f"context {side}"] = [vaultmem(root, ["context", "--query", q, "--budget",
                                                    "1000"], cache) for q in asked]
    return found


def index_of_100k(cache: Path) -> Path | None:
    """The newest index of the 100k vault in this cache, the user's or another in the temp
    folder (read only), if there is one."""
    key = cache_folder(cache, OUT / "vault-100000").name
    places = [cache / "vaultmem" / key, Path.home() / ".cache" / "vaultmem" / key,
              *Path(tempfile.gettempdir()).glob(f"*/vaultmem/{key}")]
    found = [place / "index.sqlite3" for place in places if (place / "index.sqlite3").is_file()]
    return max(found, key=lambda path: path.stat().st_mtime, default=None)


def texts_of_100k(cache: Path) -> tuple[int, str]:
    """The 100k vault's distinct passage texts, and where that number comes from."""
    root = OUT / "vault-100000"
    if not root.is_dir():
        return UNKNOWN_100K, "no 100k vault here: assumed"
    index = index_of_100k(cache)
    if index is None:
        log("scanning the 100k vault to count its passages")
        vaultmem(root, ["scan", "--json"], cache)
        index = cache_folder(cache, root) / "index.sqlite3"
    distinct, total = passage_counts(index)
    return distinct, f"{total:,} passages, from the index {index}"


def random_store(folder: Path, rows: int, dim: int) -> tuple[float, float, float]:
    """A vector store of ``rows`` random unit vectors: seconds to add them, to pack them, and
    to pack them again after one text changed (one vector added, one gone: what an
    incremental embed packs)."""
    import numpy as np

    from vaultmem.index.vectors import VectorStore

    store = VectorStore(folder, "random", dim)
    rng = np.random.default_rng(3)

    def unit(count: int) -> np.ndarray:
        """``count`` random unit vectors."""
        vectors: np.ndarray = rng.standard_normal((count, dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors

    digests: list[bytes] = []
    start = time.perf_counter()
    for at in range(0, rows, 8192):
        batch = [rng.bytes(16) for _ in range(min(8192, rows - at))]
        store.add(batch, unit(len(batch)))
        digests += batch
    added = time.perf_counter() - start
    start = time.perf_counter()
    pack(store, digests, [], "bench")
    packed = time.perf_counter() - start
    changed = [rng.bytes(16)]
    store.add(changed, unit(1))
    start = time.perf_counter()
    pack(store, digests[1:] + changed, digests[:1], "bench, one changed")
    repacked = time.perf_counter() - start
    store.close()
    return added, packed, repacked


def pack(store: Any, current: list[bytes], gone: list[bytes], version: str) -> None:
    """``store.pack`` with the texts ``current`` kept and ``gone`` forgotten, whichever of the
    two its first parameter asks for (it took the current texts before it took those gone)."""
    import inspect

    first = next(iter(inspect.signature(store.pack).parameters))
    store.pack(gone if first == "gone" else current, version, waiting=0)


def at_100k(cache: Path, dim: int, rates: dict[str, float]) -> tuple[list[Row], str]:
    """Step 6: the estimated embedding time and the brute-force query cost at 100k notes, as
    rows and in plain words."""
    texts, source = texts_of_100k(cache)
    rows = [Row("6", "100k vault: distinct passage texts", f"{texts:,} ({source})")]
    rows += [Row("6", f"estimated first embedding at the {name} rate",
                 f"{texts / rate / 60:.0f} min ({rate:.0f} passages/s)")
             for name, rate in rates.items()]
    folder = Path(tempfile.mkdtemp(prefix="vm-semantic-100k-"))
    try:
        log(f"building a vector store of {texts:,} random vectors")
        added, packed, repacked = random_store(folder, texts, dim)
        disk = size_mb(folder / "vectors.sqlite3")
        log("matrix and nearest in a fresh process")
        run = fresh([sys.executable, "-c", NEAREST, str(folder), str(dim), str(NEAREST_RUNS),
                     str(CANDIDATES), str(texts)], cache)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    found = json.loads(run.out)
    rows += [
        Row("6", "random store: add / pack / pack after one text changed",
            f"{added:.1f} s / {packed:.1f} s / {repacked:.2f} s"),
        Row("6", "random store on disk", f"{disk:.0f} MB"),
        Row("6", f"store.matrix() load ({found['rows']:,} rows)", f"{found['load']:.3f} s"),
        Row("6", f"nearest(limit={CANDIDATES}), median of {NEAREST_RUNS}",
            f"{found['nearest_ms']:.1f} ms"),
        Row("6", "peak RSS of load + nearest (before the load; after it: anonymous + "
            "file-backed, which is the SQLite memory map: after closing the store)",
            f"{run.rss_mb:.0f} MB ({found['before_mb']:.0f} MB; {found['anon_mb']:.0f} + "
            f"{found['file_mb']:.0f} MB: {found['closed_file_mb']:.0f} MB)",
            _target(run.rss_mb, "rss_mb") + " (the 10k target)"),
    ]
    return rows, meaning_of_100k(texts, found, run, repacked)


def _target(value: float, name: str, unit: str = "MB") -> str:
    """The target of ``name`` and whether ``value`` meets it."""
    limit = TARGETS[name]
    return f"<= {limit:g} {unit}: {'met' if value <= limit else 'NOT met'}"


def median_run(runs: list[Run]) -> float:
    """The median wall seconds of ``runs``."""
    return statistics.median(run.seconds for run in runs)


def measure(args: argparse.Namespace, cache: Path, rows: list[Row]) -> str:
    """Every step at ``args.notes`` notes, added to ``rows`` as it is done; what the 100k rows
    mean."""
    for module in IN_PROCESS:  # at once: code edited during the run cannot mix versions here
        importlib.import_module(module)
    from vaultmem.index.embedder import load_embedder
    from vaultmem.semantic_config import Semantic

    original, copy = semantic_copy(args.notes, args.model)
    index = cache_folder(cache, copy) / "index.sqlite3"
    vectors = cache_folder(cache, copy) / "vectors.sqlite3"
    scan_case("floor", copy, cache)  # the files into the page cache first
    floor = scan_case("floor", copy, cache)["seconds"]
    log("index builds")
    built = vaultmem(copy, ["scan", "--json"], cache)
    built_off = vaultmem(original, ["scan", "--json"], cache)
    distinct, total = passage_counts(index)
    rows += [Row("0", "floor (read every note + one regex)", f"{floor:.3f} s"),
            Row("0", "index build, fresh process (copy / original)",
                f"{built.seconds:.1f} s / {built_off.seconds:.1f} s"),
            Row("0", "passages / distinct texts in the index", f"{total:,} / {distinct:,}")]

    log("throughput")
    settings = Semantic(str(args.model), args.model)
    start = time.perf_counter()
    embedder = load_embedder(settings)
    loaded_in = time.perf_counter() - start
    texts = [embedded_form(*passage) for passage in sample_passages(index, SAMPLE)]
    rates = throughput(embedder, texts)
    rate = max(rates)
    rows.append(Row("1", f"embedding throughput ({len(texts):,} texts, mean "
                    f"{statistics.mean(map(len, texts)):.0f} chars, {len(os.sched_getaffinity(0))}"
                    f" threads; best of {ROUNDS} rounds: "
                    + ", ".join(f"{r:.0f}" for r in rates) + ")", f"{rate:.0f} passages/s"))
    ordered = throughput(embedder, sorted(texts, key=len))
    rows.append(Row("1", "the same texts shortest first, as vaultmem orders them (best of "
                    f"{ROUNDS}: " + ", ".join(f"{r:.0f}" for r in ordered) + ")",
                    f"{max(ordered):.0f} passages/s"))

    log("first embedding")
    first = vaultmem(copy, ["index", "--embed", "--json"], cache)
    done = json.loads(first.out)
    rows += [
        Row("2", "first embedding, fresh process: wall (its own clock)",
            f"{first.seconds:.1f} s ({done['seconds']:.1f} s)"),
        Row("2", "texts / embedded", f"{done['texts']:,} / {done['embedded']:,}"),
        Row("2", "passages/s, wall (its own clock)",
            f"{done['embedded'] / first.seconds:.0f} ({done['embedded'] / done['seconds']:.0f})"),
        Row("2", "peak RSS of the first embedding", f"{first.rss_mb:.0f} MB"),
        Row("2", "vectors.sqlite3 / index.sqlite3 on disk",
            f"{size_mb(vectors):.1f} MB / {size_mb(index):.0f} MB"),
    ]

    log("incremental")
    runs, fresh_own, embedded = incremental_fresh(original, copy, cache)
    walls, own, in_embedded = incremental_in_process(original, copy)
    fresh_wall, in_wall = median_run(runs), statistics.median(walls)
    rows += [
        Row("3", f"re-embed one changed note, fresh process (median of {len(runs)}; "
            f"{'/'.join(map(str, embedded))} texts embedded)",
            f"{fresh_wall:.2f} s ({fresh_wall / floor:.1f}x floor)",
            _target(fresh_wall, "incremental", "s")),
        Row("3", "  of which embedding + packing (its own clock; the rest: interpreter, "
            "rescan, model load)", f"{statistics.median(fresh_own):.3f} s"),
        Row("3", f"re-embed one changed note, in process, rescan included (median of "
            f"{len(walls)}; {'/'.join(map(str, in_embedded))} texts embedded)",
            f"{in_wall:.3f} s", _target(in_wall, "incremental", "s")),
        Row("3", "  of which embedding + packing (embed_vault's own clock)",
            f"{statistics.median(own):.3f} s"),
    ]

    log("latency in process")
    asked = questions(copy, index, args.queries)
    warm = latency(copy, asked)
    for name in ("search", "context"):
        added = warm[f"{name} added"]
        rows += [Row("4", f"{name}, warm process: on / off (median of {len(asked)})",
                     f"{warm[f'{name} on']:.1f} ms / {warm[f'{name} off']:.1f} ms"),
                 Row("4", f"{name}: added by semantic (median of per-query differences)",
                     f"{added:.1f} ms", _target(added, "added_ms", "ms"))]
    rows += [Row("4", "  query embedding alone / nearest right after it (with no embedding "
                 f"just before), {int(warm['rows']):,} rows",
                 f"{warm['query embedding']:.1f} ms / {warm['nearest']:.1f} ms "
                 f"({warm['nearest alone']:.1f} ms)")]

    log("fresh-process commands")
    loads = [json.loads(fresh([sys.executable, "-c", LOAD_MODEL, str(args.model)], cache).out)
             ["load"] for _ in range(FRESH_RUNS)]
    found = commands(original, copy, asked[:FRESH_RUNS], cache)
    rows.append(Row("4", "load_embedder in a fresh process (fastembed import included; in "
                    "this process)",
                    f"{statistics.median(loads):.2f} s ({loaded_in:.2f} s)"))
    for name in ("search", "context"):
        on, off = median_run(found[f"{name} on"]), median_run(found[f"{name} off"])
        rows.append(Row("4", f"vaultmem {name}, fresh process: on / off (median of "
                        f"{FRESH_RUNS})", f"{on:.2f} s / {off:.2f} s ({on / floor:.1f}x / "
                        f"{off / floor:.1f}x floor)"))
    for name in ("search", "context"):
        on_rss = max(run.rss_mb for run in found[f"{name} on"])
        off_rss = max(run.rss_mb for run in found[f"{name} off"])
        rows.append(Row("5", f"peak RSS of vaultmem {name}, semantic on (off)",
                        f"{on_rss:.0f} MB ({off_rss:.0f} MB)", _target(on_rss, "rss_mb")))

    if not args.skip_100k:
        speeds = {"measured (1)": rate, "shortest-first (1)": max(ordered),
                  "first-embedding (2)": done["embedded"] / first.seconds}
        scaled, meaning = at_100k(cache, embedder.dim, speeds)
        rows += scaled
        return meaning
    return ""


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| step | measure | value | target |", "| --- | --- | ---: | --- |"]
    lines += [f"| {r.step} | {r.measure} | {r.value} | {r.target} |" for r in rows]
    return "\n".join(lines)


def meaning_of_100k(texts: int, found: dict[str, float], run: Run, repacked: float) -> str:
    """What the 100k measurements mean, in plain words."""
    return (
        f"At 100k notes ({texts:,} passage texts), brute force without an ANN index: a fresh "
        f"process pays {found['load']:.2f} s to read the packed vectors, then "
        f"{found['nearest_ms']:.0f} ms per query for the cosines against every passage (the "
        "whole int8 matrix converted to float a chunk at a time and multiplied), on top of what "
        f"a query costs without semantic recall (and the model load in a fresh process). It "
        f"peaks at {run.rss_mb:.0f} MB: {found['anon_mb']:.0f} MB anonymous memory (the "
        "interpreter and numpy, the int8 rows, the digests) and "
        f"{found['file_mb']:.0f} MB file-backed, nearly all the SQLite memory map of the file "
        f"while it is read (shared with the page cache; {found['closed_file_mb']:.0f} MB once "
        "the store is closed). A warm process (the MCP server) pays the read once per change "
        f"of the vault and the scan per query; packing after one changed text takes "
        f"{repacked:.2f} s at this size (part of every incremental embed).")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--model", type=Path, default=MODEL)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--skip-100k", action="store_true")
    args = parser.parse_args()
    args.model = args.model.resolve()
    base = os.environ.get("XDG_CACHE_HOME") or tempfile.gettempdir()
    cache = Path(tempfile.mkdtemp(prefix="vm-semantic-", dir=base))
    os.environ["XDG_CACHE_HOME"] = str(cache)  # this process's vaults use the same cache
    print(f"{len(os.sched_getaffinity(0))} cores; load average at the start {load_average()}; "
          f"{args.notes:,} notes; model {args.model}; cache {cache}\n")
    start = time.perf_counter()
    rows: list[Row] = []
    try:
        meaning = measure(args, cache, rows)
    except BaseException:
        print(f"{table(rows)}\n\nstopped; the rows so far above", flush=True)
        raise
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(table(rows))
    print(f"\n{meaning}" if meaning else "")
    print(f"\nload average at the end {load_average()}; "
          f"{(time.perf_counter() - start) / 60:.1f} min in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
