#!/bin/sh
# Single-thread perft speed of Rokade against Stockfish's `go perft`, run one
# after the other on the same machine. Usage: sh bench/perft_speed.sh [ROKADE]
ROKADE=${1:-./rokade}
SF=$(command -v stockfish || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; })
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

now() { date +%s.%N; }

# run NAME DEPTH FEN(or startpos) ENGINE-CMD -> prints "nodes seconds"
run() {
    if [ "$2" = startpos ]; then p="position startpos"; else p="position fen $2"; fi
    t0=$(now)
    n=$(printf 'setoption name Threads value 1\n%s\ngo perft %s\nquit\n' "$p" "$3" | $1 2>/dev/null \
        | sed -n 's/^Nodes searched: *\([0-9]*\).*/\1/p' | tail -1)
    t1=$(now)
    echo "$n $(echo "$t1 - $t0" | bc -l)"
}

for spec in "startpos|7|start-position" "$KIWI|6|Kiwipete"; do
    fen=${spec%%|*}; rest=${spec#*|}; depth=${rest%%|*}; name=${rest#*|}
    r=$(run "$ROKADE" "$fen" "$depth"); rn=${r% *}; rt=${r#* }
    printf '%-15s depth %s  rokade    %12s nodes %7.2f s %7.1f Mnps\n' "$name" "$depth" "$rn" "$rt" \
        "$(echo "$rn / $rt / 1000000" | bc -l)"
    if [ -z "$SF" ]; then
        echo "stockfish is not installed (apt-get install stockfish): comparison skipped"
        continue
    fi
    r=$(run "$SF" "$fen" "$depth"); sn=${r% *}; st=${r#* }
    printf '%-15s depth %s  stockfish %12s nodes %7.2f s %7.1f Mnps\n' "$name" "$depth" "$sn" "$st" \
        "$(echo "$sn / $st / 1000000" | bc -l)"
    [ "$rn" = "$sn" ] || echo "MISMATCH: node counts differ"
    printf '%-15s speed ratio rokade/stockfish: %.2fx\n' "$name" "$(echo "$st / $rt" | bc -l)"
done
