#!/bin/sh
# Checks that the engine reproduces the bench signature of the newest commit
# that states one ("Bench: N" in its message). Every commit that changes the
# search or the evaluation must state its new bench.
# Usage: ROKADE=./rokade sh tests/bench_check.sh
ROKADE=${ROKADE:-./rokade}
if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "bench_check: not a git checkout, skipped"
    exit 0
fi
want=$(git log -1 --format=%B --grep='^Bench: [0-9]' | sed -n 's/^Bench: \([0-9][0-9]*\).*/\1/p' | tail -1)
if [ -z "$want" ]; then
    echo "bench_check: no commit states a bench, skipped"
    exit 0
fi
got=$("$ROKADE" bench 2>&1 | sed -n 's/^Nodes searched *: *\([0-9][0-9]*\).*/\1/p' | tail -1)
if [ "$got" = "$want" ]; then
    echo "bench_check: bench $got matches the last commit's signature"
else
    echo "bench_check: FAIL: ./rokade bench gives '${got}', the last commit states Bench: $want"
    exit 1
fi
