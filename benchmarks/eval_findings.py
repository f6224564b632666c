"""Precision of ``vaultmem lint`` and ``vaultmem conflicts`` on real vaults, from labels.

    python benchmarks/eval_findings.py [--size 100] [--todo todo.jsonl] [--findings DIR]

Runs both commands with ``--json`` on a copy of every vault in ``../shared/corpora`` (real public
vaults written outside the project; see its README), then draws a sample of ``--size`` findings
per command and scores it with the labels in ``benchmarks/labels/findings.jsonl``; with
``--per-vault N``, the N lowest-ranked findings each command shows by default on each vault
instead, with precision per vault, pooled and on the worst vault, and how many findings
labelled "act" are still shown by default (each command also runs with ``--all``).

The copy: each vault is copied to a temporary folder (the corpora are read-only) and every
file the corpus left out is put back as an empty file, so a link to one resolves as it does in
the real vault: the attachments its ``.MISSING.txt`` lists (left out for size) and those in
``benchmarks/labels/stand_ins.txt`` (files that are not notes, such as kepano-obsidian's
``.base`` files). The cache is a fresh temporary one.

The sample: each finding gets a rank, the SHA-1 of ``vault, id``; within a command every kind
gets its ``--floor`` lowest-ranked findings (all of them when it has fewer), and the rest of the
``--size`` is shared among the kinds in proportion to the findings left (largest remainder), each
kind again taking its lowest-ranked ones ("lowest-ranked" in this random order, not by any score;
``--salt TEXT`` draws another order: a fresh sample nobody labelled or tuned on). A finding keeps
its rank while its id and the salt stay, so after a
change the sample is mostly the findings labelled before, and only new ones need labels.

A label is one JSON object a line: ``{"vault", "command", "id", "kind", "notes", "line",
"message", "label", "why", "pattern", "run"}`` with ``label`` "act" (the vault's owner would act
on it: the problem is real and the suggestion makes sense) or "noise", ``why`` what reading the
files showed, ``pattern`` a short name shared by findings that are right or wrong for the same
reason, and ``run`` the code it was labelled on ("before": 6b35229); ``"unsure": true`` marks a
close call, and the report says what precision would be with those turned the other way. A
label applies to a finding with the same vault, command, id, notes and line, or, when the id
changed, the same vault, command, kind, notes, line and message.

The report, per command: per kind the findings, sampled, labelled and precision (act /
labelled) with its Wilson 95% interval, then the command's precision over its kinds weighted by
how many findings each kind has, and the patterns of the noise. ``--todo FILE`` writes the
sampled findings that have no label, ready to label (``label`` null); lines of FILE that carry
a label by then are added to the labels first, so labelling is: run with --todo, fill in FILE,
run again with --todo. ``--findings DIR`` saves every finding of every vault there. Exits 1 when
a sampled finding has no label or a kind with 5+ sampled findings is below ``--target`` (0.9).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPORA = ROOT.parent / "shared" / "corpora"
LABELS = HERE / "labels" / "findings.jsonl"
STAND_INS = HERE / "labels" / "stand_ins.txt"
COMMANDS = ("lint", "conflicts")
LABEL_FIELDS = ("vault", "command", "id", "kind", "notes", "line", "message")

Finding = dict[str, Any]
Key = tuple[Any, ...]
Labels = dict[Key, dict[str, Any]]


def vaults(corpora: Path) -> list[Path]:
    """The vault folders of the corpora, by name."""
    return sorted(p for p in corpora.iterdir() if p.is_dir() and not p.name.startswith("."))


def left_out(source: Path) -> list[str]:
    """The vault-relative paths of files the corpus left out of this vault (see the docstring)."""
    paths = []
    missing = source / ".MISSING.txt"
    if missing.is_file():
        for line in missing.read_text(encoding="utf-8").splitlines()[1:]:
            paths.append(line.rsplit(" (", 1)[0].strip())
    for line in STAND_INS.read_text(encoding="utf-8").splitlines():
        vault, _, path = line.partition("/")
        if vault == source.name and not line.startswith("#"):
            paths.append(path.strip())
    return [path for path in paths if path]


def copy_vault(source: Path, into: Path) -> Path:
    """A copy of the vault at source under into, with the files it left out as empty files."""
    target = into / source.name
    shutil.copytree(source, target)
    for copied in [target, *target.rglob("*")]:  # copytree keeps the corpora's missing write bits
        copied.chmod(copied.stat().st_mode | 0o200)
    for path in left_out(source):
        stand_in = target / path
        stand_in.parent.mkdir(parents=True, exist_ok=True)
        stand_in.touch()
    return target


HABITS: list[dict[str, Any]] = []  # what each vault's default run named as its habits


def run(command: str, vault: Path, cache: Path, *extra: str) -> list[Finding]:
    """The findings of ``vaultmem --vault VAULT COMMAND --json`` in a new process (its habits
    kept in :data:`HABITS` when run by default)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault), command,
                           "--json", *extra], env=env, capture_output=True, text=True,
                          cwd=vault)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command} on {vault.name} failed ({done.returncode}):\n{done.stderr}")
    answer = json.loads(done.stdout)
    if not extra:
        HABITS.extend({"vault": vault.name, "command": command, **habit}
                      for habit in answer.get("habits", []))
    findings: list[Finding] = answer["findings"]
    return findings


def collect(corpora: Path) -> list[Finding]:
    """Every finding of both commands on every vault, with its vault and command added, and
    ``shown``: whether the command lists it by default (else only with ``--all``)."""
    found = []
    with tempfile.TemporaryDirectory(prefix="vm-findings-") as temp:
        work = Path(temp)
        for source in vaults(corpora):
            vault = copy_vault(source, work / "vaults")
            cache = work / "cache" / source.name
            for command in COMMANDS:
                shown = {item["id"] for item in run(command, vault, cache)}
                for item in run(command, vault, cache, "--all"):
                    found.append({"vault": source.name, "command": command, **item,
                                  "shown": item["id"] in shown})
    return found


def key(item: Finding) -> Key:
    """What a label and a finding must share for the label to apply."""
    return ("id", item["vault"], item["command"], item["id"], tuple(sorted(item["notes"])),
            item.get("line"))


def text_key(item: Finding) -> Key:
    """The same finding told by its words, for when its id changed but nothing else did."""
    return ("text", item["vault"], item["command"], item["kind"], tuple(sorted(item["notes"])),
            item.get("line"), item["message"])


def label_of(item: Finding, labels: Labels) -> dict[str, Any] | None:
    """The label that applies to a finding, or None."""
    return labels.get(key(item)) or labels.get(text_key(item))


SALT = [""]  # --salt: another random order, a sample nobody labelled or tuned on before


def rank(item: Finding) -> str:
    """A finding's place in the random order (the same while its id and the salt are)."""
    return hashlib.sha1(f"{SALT[0]}{item['vault']}\x1f{item['id']}".encode()).hexdigest()


def allocate(counts: Counter[str], size: int, floor: int) -> dict[str, int]:
    """How many findings of each kind to sample: a floor each, the rest in proportion."""
    take = {kind: min(n, floor) for kind, n in counts.items()}
    left = {kind: counts[kind] - take[kind] for kind in counts}
    room = max(0, min(size, sum(counts.values())) - sum(take.values()))
    total = sum(left.values())
    if room and total:
        shares = {kind: room * n / total for kind, n in left.items()}
        extra = {kind: math.floor(share) for kind, share in shares.items()}
        by_remainder = sorted(shares, key=lambda k: (extra[k] - shares[k], k))
        for kind in by_remainder[:room - sum(extra.values())]:
            extra[kind] += 1
        for kind in take:
            take[kind] += min(extra[kind], left[kind])
    return take


def sample(findings: list[Finding], size: int, floor: int) -> list[Finding]:
    """The sampled findings of one command, in rank order within each kind."""
    by_kind: dict[str, list[Finding]] = defaultdict(list)
    for item in sorted(findings, key=rank):
        by_kind[item["kind"]].append(item)
    take = allocate(Counter({kind: len(items) for kind, items in by_kind.items()}), size, floor)
    return [item for kind in sorted(by_kind) for item in by_kind[kind][:take[kind]]]


def read_labels(path: Path) -> Labels:
    """The labels in a JSON Lines file, by key and by text key (later lines win)."""
    labels: Labels = {}
    if path.is_file():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                entry = json.loads(line)
                if entry.get("label") not in ("act", "noise"):
                    raise SystemExit(f"{path}:{number}: label must be 'act' or 'noise'")
                if not entry.get("why"):
                    raise SystemExit(f"{path}:{number}: a label says why")
                labels[key(entry)] = labels[text_key(entry)] = entry
    return labels


def add_labels(path: Path, todo: Path) -> int:
    """Append the labelled lines of a todo file to the labels file; return how many."""
    if not todo.is_file():
        return 0
    known = read_labels(path)
    new = [json.loads(line) for line in todo.read_text(encoding="utf-8").splitlines()
           if line.strip()]
    new = [entry for entry in new
           if entry.get("label") is not None and label_of(entry, known) is None]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        for entry in new:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
    read_labels(path)  # a bad label fails here, not at the next run
    return len(new)


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of hits / n."""
    if not n:
        return (0.0, 1.0)
    z, p = 1.96, hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(command: str, findings: list[Finding], chosen: list[Finding],
           labels: Labels, target: float) -> tuple[list[str], list[str]]:
    """The command's table and the kinds below target (with 5+ sampled findings)."""
    counts = Counter(item["kind"] for item in findings)
    lines = [f"### {command}: {len(findings)} findings in "
             f"{len({item['vault'] for item in findings})} vaults, {len(chosen)} sampled", "",
             "| kind | findings | sampled | labelled | act | precision | 95% interval |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    failing: list[str] = []
    weighted = flipped = covered = 0.0
    noise: Counter[tuple[str, str]] = Counter()
    for kind in sorted(counts, key=lambda k: (-counts[k], k)):
        mine = [item for item in chosen if item["kind"] == kind]
        marks = [entry for entry in (label_of(item, labels) for item in mine) if entry]
        act = sum(entry["label"] == "act" for entry in marks)
        noise.update((kind, entry.get("pattern", "")) for entry in marks
                     if entry["label"] == "noise")
        shown = interval = "-"
        if marks:
            unsure = Counter(entry["label"] for entry in marks if entry.get("unsure"))
            precision = act / len(marks)
            covered += counts[kind]
            weighted += counts[kind] * precision
            flipped += counts[kind] * (act - unsure["act"] + unsure["noise"]) / len(marks)
            low, high = wilson(act, len(marks))
            shown, interval = f"{precision:.2f}", f"{low:.2f}-{high:.2f}"
            if len(mine) >= 5 and precision < target:
                failing.append(f"{command} {kind}: {precision:.2f} < {target}")
        lines.append(f"| {kind} | {counts[kind]} | {len(mine)} | {len(marks)} | {act} | {shown} "
                     f"| {interval} |")
    if covered:
        lines += ["", f"Precision weighted by findings per kind: {weighted / covered:.2f} "
                  f"({flipped / covered:.2f} with every unsure label turned over)"]
    if noise:
        lines += ["", "Noise by pattern: " + "; ".join(
            f"{kind} {pattern or '?'} ({n})" for (kind, pattern), n in noise.most_common())]
    return lines, failing


def per_vault(findings: list[Finding], size: int) -> list[Finding]:
    """The ``size`` lowest-ranked shown findings of each vault and command."""
    chosen = []
    for name in sorted({item["vault"] for item in findings}):
        for command in COMMANDS:
            mine = [item for item in findings if item["vault"] == name
                    and item["command"] == command and item["shown"]]
            chosen += sorted(mine, key=rank)[:size]
    return chosen


def vault_table(chosen: list[Finding], labels: Labels) -> list[str]:
    """Precision of each vault's sample per command, pooled and the worst vault."""
    lines = ["| vault | command | sampled | labelled | act | precision |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    worst: dict[str, tuple[float, str]] = {}
    for command in COMMANDS:
        pooled = [0, 0]
        for name in sorted({item["vault"] for item in chosen}):
            mine = [item for item in chosen if item["vault"] == name and item["command"] == command]
            marks = [entry for entry in (label_of(item, labels) for item in mine) if entry]
            act = sum(entry["label"] == "act" for entry in marks)
            pooled[0] += act
            pooled[1] += len(marks)
            if marks:
                share = act / len(marks)
                worst[command] = min(worst.get(command, (2.0, "")), (share, name))
                lines.append(f"| {name} | {command} | {len(mine)} | {len(marks)} | {act} | "
                             f"{share:.2f} |")
        if pooled[1]:
            lines.append(f"| **pooled** | {command} | | {pooled[1]} | {pooled[0]} | "
                         f"{pooled[0] / pooled[1]:.2f} |")
    lines += [""] + [f"Worst vault, {command}: {name} {share:.2f}"
                     for command, (share, name) in sorted(worst.items())]
    return lines


def kept_true(findings: list[Finding], labels: Labels) -> str:
    """How many findings labelled act are still shown by default."""
    act = [item for item in findings if (entry := label_of(item, labels)) is not None
           and entry["label"] == "act"]
    return (f"Labelled act and found now: {len(act)}, shown by default: "
            f"{sum(item['shown'] for item in act)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--size", type=int, default=100, help="findings sampled per command")
    parser.add_argument("--floor", type=int, default=10, help="findings sampled per kind at least")
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("--todo", type=Path, help="write the sampled findings without a label")
    parser.add_argument("--findings", type=Path, help="save every finding here, a file a vault")
    parser.add_argument("--run", default="", help="what the todo lines say was run (e.g. before)")
    parser.add_argument("--salt", default="", help="draw another random order (a fresh sample)")
    parser.add_argument("--per-vault", type=int, default=0,
                        help="sample this many shown findings per vault and command instead")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        print(f"{args.corpora} is not here (it comes with the project's workspace)")
        return 0
    if args.todo:
        added = add_labels(args.labels, args.todo)
        if added:
            print(f"added {added} label(s) from {args.todo} to {args.labels}\n")
    labels = read_labels(args.labels)
    SALT[0] = args.salt
    findings = collect(args.corpora)
    print("| vault | command | habit | findings | notes |\n| --- | --- | --- | ---: | ---: |")
    for habit in HABITS:
        print(f"| {habit['vault']} | {habit['command']} | {habit['kind']}: {habit['shape']} | "
              f"{habit['findings']} | {habit['notes']} |")
    print()
    if args.findings:
        args.findings.mkdir(parents=True, exist_ok=True)
        for name in sorted({item["vault"] for item in findings}):
            mine = [item for item in findings if item["vault"] == name]
            (args.findings / f"{name}.json").write_text(
                json.dumps(mine, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    missing, failing = [], []
    if args.per_vault:
        chosen = per_vault(findings, args.per_vault)
        print("\n".join(vault_table(chosen, labels)) + "\n")
        print(kept_true(findings, labels) + "\n")
        missing = [item for item in chosen if label_of(item, labels) is None]
    for command in COMMANDS if not args.per_vault else ():
        mine = [item for item in findings if item["command"] == command and item["shown"]]
        chosen = sample(mine, args.size, args.floor)
        lines, below = report(command, mine, chosen, labels, args.target)
        print("\n".join(lines) + "\n")
        failing += below
        missing += [item for item in chosen if label_of(item, labels) is None]
    shown = args.labels.relative_to(ROOT) if args.labels.is_relative_to(ROOT) else args.labels
    print(f"labels: {len({id(entry) for entry in labels.values()})} in {shown}; "
          f"{len(missing)} sampled finding(s) without one")
    if args.todo:
        with args.todo.open("w", encoding="utf-8") as handle:
            for item in missing:
                entry = {field: item.get(field) for field in (*LABEL_FIELDS, "suggestion")}
                handle.write(json.dumps({**entry, "label": None, "why": "", "pattern": "",
                                         "run": args.run},
                                        ensure_ascii=False) + "\n")
        print(f"wrote them to {args.todo}")
    for line in failing:
        print(f"below target: {line}")
    return 1 if missing or failing else 0


if __name__ == "__main__":
    sys.exit(main())
