#!/bin/sh
# Multi-threaded search scenario for the ThreadSanitizer build (make tsan):
# Threads 2 and 4, go/stop/isready/ponderhit spam, setoption, ucinewgame and
# Hash resizes between searches. Passes when ThreadSanitizer reports nothing,
# every isready gets its readyok, every go its one bestmove, and the engine
# exits with status 0.
# Usage: ROKADE=./rokade-tsan sh tests/tsan_scenario.sh
ROKADE=${ROKADE:-./rokade-tsan}
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

commands()
{
    p=0.05
    for threads in 2 4; do
        echo "setoption name Threads value $threads"
        echo "isready"
        for round in 1 2 3; do
            echo "ucinewgame"
            echo "setoption name Hash value $((round * 4))"
            echo "position startpos moves e2e4 c7c5 g1f3"
            echo "go infinite"
            sleep $p; echo "isready"; sleep $p
            echo "stop"
            echo "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            echo "go depth 7"
            echo "isready"
            echo "position startpos"
            echo "go ponder wtime 1000 btime 1000"
            sleep $p; echo "isready"
            echo "ponderhit"
            echo "isready"
            echo "position fen 8/2k5/8/3P4/8/8/5K2/8 w - - 0 1"
            echo "go nodes 20000"
            echo "stop"
            echo "setoption name Clear Hash"
            echo "go movetime 100"
            sleep $p; echo "isready"
            echo "setoption name MultiPV value 3"
            echo "go wtime 300 btime 300 winc 10 binc 10"
            echo "isready"
            echo "setoption name MultiPV value 1"
            echo "go infinite"
            sleep $p; echo "stop"; echo "isready"
        done
    done
    echo "setoption name Threads value 1"
    echo "isready"
    echo "quit"
}

commands | TSAN_OPTIONS="halt_on_error=0 exitcode=66" "$ROKADE" >"$out" 2>"$err"
status=$?
fail=0
isready=$(commands | grep -c '^isready$')
gos=$(commands | grep -c '^go ')
readyok=$(grep -c '^readyok$' "$out")
bestmoves=$(grep -c '^bestmove ' "$out")
reports=$(grep -c 'WARNING: ThreadSanitizer' "$err")
if [ "$status" != 0 ]; then echo "FAIL: exit status $status"; fail=1; fi
if [ "$reports" != 0 ]; then echo "FAIL: $reports ThreadSanitizer reports"; cat "$err"; fail=1; fi
if [ "$readyok" != "$isready" ]; then echo "FAIL: $readyok readyok for $isready isready"; fail=1; fi
if [ "$bestmoves" != "$gos" ]; then echo "FAIL: $bestmoves bestmove for $gos go"; fail=1; fi
if grep -v 'stop: no search is running' "$out" | grep -q 'error'; then echo "FAIL: unexpected error lines:"; grep error "$out"; fail=1; fi
if [ $fail = 0 ]; then
    echo "tsan scenario: $gos searches, $isready isready, Threads 2 and 4: no ThreadSanitizer report"
fi
exit $fail
