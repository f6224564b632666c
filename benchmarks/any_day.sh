#!/usr/bin/env bash
# The whole test suite on any day, in any order, on a busy machine (issue [newcomer]).
# Runs: the real clock; libfaketime three years ahead, on 29 February crossing midnight, two
# years back; random order (pytest-randomly, installed here if missing); both cores busy.
# Usage: benchmarks/any_day.sh, in the dev venv (.ci/shifted-clock installs libfaketime).
set -uo pipefail
cd "$(dirname "$0")/.."
python -c "import pytest_randomly" 2>/dev/null || python -m pip install -q pytest-randomly
mkdir -p benchmarks/out
run() {  # name, command...
    local name=$1; shift
    local start=$SECONDS log="benchmarks/out/any_day-${name//[^a-z0-9]/_}.log"
    "$@" -q -p no:cacheprovider -rf >"$log" 2>&1
    printf '| %s | %s | %d s |\n' "$name" "$(tail -1 "$log")" $((SECONDS - start))
    grep '^FAILED' "$log" | sed 's/^/    /'
}
echo "| run | result | wall |"
echo "| --- | --- | ---: |"
run "real clock, fixed order" python -m pytest -p no:randomly
run "+3 years" .ci/shifted-clock +3y python -m pytest -p no:randomly
run "2028-02-29 23:58, crossing midnight" .ci/shifted-clock "@2028-02-29 23:58:00" python -m pytest -p no:randomly
run "-2 years" .ci/shifted-clock -2y python -m pytest -p no:randomly
run "random order (seed 20261201)" python -m pytest --randomly-seed=20261201
busy() { while :; do :; done; }
busy & b1=$!; busy & b2=$!
run "both cores busy" python -m pytest -p no:randomly
kill "$b1" "$b2"
