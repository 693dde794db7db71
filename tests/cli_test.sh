#!/bin/sh
# Command-line and UCI checks of the engine binary named by $ROKADE (default
# ./rokade): perft from the shell and through the UCI loop, error handling of
# bad FENs and illegal moves (the old position must survive), Chess960
# notation, and README.md's option table against `uci` and `help`. Prints
# "N passed, M failed" and exits non-zero on any failure.

ROKADE=${ROKADE:-./rokade}
KIWIPETE='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
C960='1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w HBhb - 0 1'

pass=0
fail=0

ok() {
    pass=$((pass + 1))
}

# bad NAME OUTPUT: count a failure and show the output.
bad() {
    fail=$((fail + 1))
    printf 'FAIL: %s\n' "$1"
    printf '%s\n' "$2" | head -n 40 | sed 's/^/    | /'
}

# has_line OUTPUT LINE: OUTPUT contains exactly this line.
has_line() {
    printf '%s\n' "$1" | grep -Fxq -- "$2"
}

# has_match OUTPUT REGEX: some line of OUTPUT matches the extended regex.
has_match() {
    printf '%s\n' "$1" | grep -Eq -- "$2"
}

# count_lines OUTPUT LINE: how many lines are exactly LINE.
count_lines() {
    printf '%s\n' "$1" | grep -Fxc -- "$2"
}

# uci LINE...: feeds the lines (then quit) to the engine, prints its output.
uci() {
    { for l in "$@"; do printf '%s\n' "$l"; done; printf 'quit\n'; } | "$ROKADE" 2>&1
}

# expect NAME OUTPUT LINE...: every LINE must be present.
expect() {
    _name=$1
    _out=$2
    shift 2
    for _want in "$@"; do
        if ! has_line "$_out" "$_want"; then
            bad "$_name: missing line '$_want'" "$_out"
            return
        fi
    done
    ok
}

if [ ! -x "$ROKADE" ]; then
    echo "cli_test: engine binary '$ROKADE' not found (set ROKADE)"
    echo "0 passed, 1 failed"
    exit 1
fi

# 1. Shell perft.
out=$("$ROKADE" perft 4 2>&1)
status=$?
expect "shell perft 4" "$out" "Nodes searched: 197281" "e2e4: 13160" "g1f3: 9748"
if [ "$status" -eq 0 ]; then ok; else bad "shell perft 4 exit status $status" "$out"; fi

out=$("$ROKADE" perft 3 "$KIWIPETE" 2>&1)
expect "shell perft 3 with a FEN" "$out" "Nodes searched: 97862" "e1g1: 2059"

# 2. UCI handshake, position fen + go perft, standard castling notation.
out=$(uci uci isready "position fen $KIWIPETE" "go perft 3" "go perft 1" \
          "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" "go perft 1")
expect "uci / isready" "$out" "uciok" "readyok"
if has_match "$out" '^id name '; then ok; else bad "uci: no 'id name' line" "$out"; fi
expect "kiwipete go perft 3 and 1" "$out" "Nodes searched: 97862" "Nodes searched: 48"
expect "standard castling notation" "$out" "e1g1: 1" "e1c1: 1" "Nodes searched: 26"
if has_match "$out" '^info string error'; then bad "unexpected error" "$out"; else ok; fi

# 3. A bad FEN, then an illegal move, on a fresh engine: both are reported and
#    the start position stays.
out=$(uci "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1" "go perft 1" \
          "position startpos moves e2e4 e7e6 e1e3" "go perft 1")
n_err=$(printf '%s\n' "$out" | grep -c '^info string error')
n_20=$(count_lines "$out" "Nodes searched: 20")
if [ "$n_err" -eq 2 ] && [ "$n_20" -eq 2 ]; then ok; else
    bad "bad FEN / illegal move on startpos: want 2 errors and 2 x 20 nodes, got $n_err and $n_20" "$out"
fi
err2=$(printf '%s\n' "$out" | grep '^info string error' | sed -n 2p)
if printf '%s\n' "$err2" | grep -q 'move 3' && printf '%s\n' "$err2" | grep -q 'e1e3'; then ok; else
    bad "illegal move: the error must name move 3 (e1e3)" "$out"
fi
# Order: error, perft, error, perft.
order=$(printf '%s\n' "$out" | grep -E '^(info string error|Nodes searched)' | cut -c1-6 | tr '\n' ' ')
if [ "$order" = "info s Nodes  info s Nodes  " ]; then ok; else
    bad "bad FEN / illegal move: wrong order of answers ($order)" "$out"
fi

# 4. The same after kiwipete: every rejected position command keeps it; then
#    legal move lists are played, including a 2000-ply one.
moves=""
i=0
while [ $i -lt 500 ]; do
    moves="$moves g1f3 g8f6 f3g1 f6g8"
    i=$((i + 1))
done
out=$(uci "position fen $KIWIPETE" \
          "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 trailing" "go perft 1" \
          "position fen rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" "go perft 1" \
          "position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1" "go perft 1" \
          "position startpos moves e2e4 e7e6 e1e3" "go perft 1" \
          "position startpos moves e2e4 e7e6" "go perft 1" \
          "position startpos moves$moves" "go perft 2")
n_err=$(printf '%s\n' "$out" | grep -c '^info string error')
n_48=$(count_lines "$out" "Nodes searched: 48")
if [ "$n_err" -eq 4 ] && [ "$n_48" -eq 4 ]; then ok; else
    bad "four rejected positions after kiwipete: want 4 errors and 4 x 48 nodes, got $n_err and $n_48" "$out"
fi
expect "legal move list after errors" "$out" "Nodes searched: 30"
expect "2000-ply move list" "$out" "Nodes searched: 400"

# 5. Chess960: castling is written king-takes-rook in perft divide, and both
#    notations are accepted in a move list.
out=$(uci "setoption name UCI_Chess960 value true" "position fen $C960" "go perft 1" \
          "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9" "go perft 3" \
          "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" "go perft 1" \
          "position fen $C960 moves d1h1 d8h8" "go perft 1" \
          "position fen $C960 moves d1g1 d8g8" "go perft 1")
expect "Chess960 divide" "$out" "d1h1: 1" "d1b1: 1" "Nodes searched: 25"
if has_line "$out" "d1g1: 1"; then bad "Chess960 divide shows standard castling notation d1g1" "$out"; else ok; fi
expect "Chess960 perft 3" "$out" "Nodes searched: 12189"
expect "Chess960 notation in a standard position" "$out" "e1h1: 1" "e1a1: 1" "Nodes searched: 26"
n=$(count_lines "$out" "Nodes searched: 24")
if [ "$n" -eq 2 ] && ! has_match "$out" '^info string error'; then ok; else
    bad "Chess960 castling in a move list (both notations): want two perft 1 = 24, no error" "$out"
fi

# 6. README.md's option table describes the engine's options: the same
#    names, each with the type, default, min and max that `uci` lists and the
#    description that `help` prints (in the README, Markdown backticks aside).
#    Rows are compared as "name|type|default|min|max|description".
readme=${README:-$(dirname "$0")/../README.md}
doc=$(awk -F'|' '
    $0 == "| option | type | default | min | max | description |" { t = 1; next }
    t && /^\| ---/ { next }
    t && /^\|/ {
        for (i = 2; i <= 7; i++) { gsub(/`/, "", $i); gsub(/^ +| +$/, "", $i) }
        print $2 "|" $3 "|" $4 "|" $5 "|" $6 "|" $7
        next
    }
    t { exit }' "$readme" 2>&1)
out=$(uci uci help)
# `help` prints an option as "  NAME DESCRIPTION" with the name padded to 22.
eng=$(printf '%s\n' "$out" | awk '
    /^option name / {
        s = substr($0, 13); p = index(s, " type "); name = substr(s, 1, p - 1)
        n = split(substr(s, p + 6), w, " "); d = ""; lo = ""; hi = ""
        for (i = 2; i < n; i += 2) {
            if (w[i] == "default") d = w[i + 1]
            else if (w[i] == "min") lo = w[i + 1]
            else if (w[i] == "max") hi = w[i + 1]
        }
        rec[++count] = name "|" w[1] "|" d "|" lo "|" hi; names[count] = name
        next
    }
    /^Options / { in_help = 1; next }
    in_help && /^  / { help[++lines] = $0 }
    END {
        for (k = 1; k <= count; k++) {
            pre = sprintf("  %-22s ", names[k]); desc = "(not in help)"
            for (j = 1; j <= lines; j++)
                if (index(help[j], pre) == 1) desc = substr(help[j], length(pre) + 1)
            print rec[k] "|" desc
        }
    }')
diffs=""
while IFS= read -r row; do
    has_line "$eng" "$row" || diffs="${diffs}README: $row
"
done <<EOF
$doc
EOF
while IFS= read -r row; do
    has_line "$doc" "$row" || diffs="${diffs}engine: $row
"
done <<EOF
$eng
EOF
if [ -z "$doc" ] || [ -z "$eng" ]; then
    bad "README option table: no rows in $readme or no options from the engine" "$doc"
elif [ -n "$diffs" ]; then
    bad "README option table and the engine's uci/help differ (rows name|type|default|min|max|description)" \
        "$(printf '%s' "$diffs")"
else
    ok
fi

# `eval` with the net says where the material cannot win and what the search
# scores then: KNNvK scaled by 13/64 (8/64 tapered by its two knights);
# none of it in the start position.
if "$ROKADE" uci quit 2>/dev/null | grep -q 'option name EvalFile.*default <built-in>'; then
    out=$("$ROKADE" "position fen 8/8/3k4/8/8/8/8/1NN1K3 w - - 0 1" eval quit 2>&1)
    if has_match "$out" '^Scaled by 13/64 ' && has_match "$out" '^The search scores this position -?[0-9]+ cp'; then
        ok
    else
        bad "eval of KNNvK names the scale 13/64" "$out"
    fi
    out=$("$ROKADE" "position startpos" eval quit 2>&1)
    if has_match "$out" '^Network evaluation: ' && ! has_match "$out" '^Scaled by|^The search scores'; then
        ok
    else
        bad "eval of the start position: the net's output only" "$out"
    fi
fi

# version: the one version of engine/version.h, as `id name` gives it, and
# what the build is made of.
want=$(sed -n 's/^#define ROKADE_VERSION "\(.*\)"/\1/p' engine/version.h)
out=$("$ROKADE" version 2>&1)
if has_match "$out" "^Rokade $want for [a-z]+, level [a-z0-9-]+, built by " &&
    has_match "$out" '^  instructions: .*; net kernels: [a-z0-9-]+; sliders: (PEXT|magic bitboards)$' &&
    has_line "$(uci uci)" "id name Rokade $want"; then
    ok
else
    bad "version and id name give engine/version.h's $want" "$out"
fi

echo "cli_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
