#!/bin/sh
# `review` through the program, as a user runs it: from the command line
# (the PGN on stdout or in `out`, a progress line per position on stderr,
# exit 2 with one line for bad arguments or a file of no reviewable game)
# and as a command of the UCI loop (info strings, then the PGN); then every
# annotated file read back by readers that are not Rokade's
# (engine/web/tests/pgn_readback.mjs: @mliebelt/pgn-parser and chess.js),
# when node and engine/web's packages are there. Prints "N passed, M
# failed" and exits non-zero on a failure.

here=$(cd "$(dirname "$0")/.." && pwd)
rokade=${ROKADE:-$here/rokade}
case $rokade in /*) ;; *) rokade=$here/$rokade ;; esac
# shellcheck source=tests/shcheck.sh
. "$here/tests/shcheck.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$here/tests/data/review
cd "$here" || exit 1

# The command line: the PGN on stdout, progress on stderr.
"$rokade" review "$data/blunders.pgn" nodes 20000 >"$tmp/b.pgn" 2>"$tmp/b.err"
check "review exits 0" $?
grep -q '^\[Annotator "Rokade ' "$tmp/b.pgn"
check "the annotated PGN on stdout" $?
# (The movetext is wrapped at 80 columns, so any white space may part two
# tokens: read it as one line.)
tr '\n' ' ' <"$tmp/b.pgn" | grep -q '3\. Qxg7 \$4'
check "the hanging queen marked ??" $?
n=$(grep -c '^review: game 1, .* positions' "$tmp/b.err")
[ "$n" -eq 6 ]
check "a progress line per position of game 1 ($n)" $?
grep -q '^review: 3 games reviewed, 0 skipped' "$tmp/b.err"
check "the closing line" $?

# Into a file; bad games named on stderr.
"$rokade" review "$data/bad.pgn" depth 3 out "$tmp/bad.out.pgn" >"$tmp/o" 2>"$tmp/e"
check "review with bad games exits 0" $?
[ ! -s "$tmp/o" ]
check "nothing on stdout with out" $?
grep -q "^review: skipped: .*bad.pgn:13: game 2: 'Nf9' is not a move" "$tmp/e"
check "the wrong SAN named with its line" $?
grep -q '^\[Event "Good"\]' "$tmp/bad.out.pgn"
check "the good game written" $?

# Refusals: one line, exit 2, the output untouched.
echo keep >"$tmp/keep"
for args in "" "$data/blunders.pgn nodes 0" "$data/blunders.pgn fast 1" \
    "$tmp/none.pgn out $tmp/keep" "$data/blunders.pgn out $data/blunders.pgn"; do
    # shellcheck disable=SC2086
    "$rokade" review $args >"$tmp/o" 2>"$tmp/e"
    r=$?
    [ $r -eq 2 ] && grep -q '^rokade: review: ' "$tmp/e" && [ "$(wc -l <"$tmp/e")" -eq 1 ]
    check "refused: review $args (exit $r: $(cat "$tmp/e"))" $?
done
[ "$(cat "$tmp/keep")" = keep ]
check "a refused review leaves its output file" $?

# The UCI loop: info strings, then the PGN, then the loop goes on.
printf 'review %s nodes 5000\nisready\nquit\n' "$data/laws.pgn" | "$rokade" >"$tmp/u" 2>&1
grep -q '^info string review: game 2, ' "$tmp/u"
check "progress as info strings" $?
grep -q '^\[Event "Fivefold ignored"\]' "$tmp/u"
check "the PGN printed" $?
tail -n 1 "$tmp/u" | grep -q '^readyok'
check "the loop goes on" $?
printf 'review\nreview %s nodes x\nisready\nquit\n' "$data/laws.pgn" | "$rokade" >"$tmp/u" 2>&1
[ "$(grep -c '^info string error: review: ' "$tmp/u")" -eq 2 ]
check "bad review commands: one error line each" $?

"$rokade" review "$data/laws.pgn" nodes 5000 out "$tmp/laws.out.pgn" 2>/dev/null
"$rokade" review "$data/clocks.pgn" nodes 5000 out "$tmp/clocks.out.pgn" 2>/dev/null
if command -v node >/dev/null 2>&1 && [ -d "$here/engine/web/node_modules/chess.js" ]; then
    node "$here/engine/web/tests/pgn_readback.mjs" "$tmp/b.pgn" "$tmp/laws.out.pgn" \
        "$tmp/clocks.out.pgn" "$tmp/bad.out.pgn"
    check "read back by pgn-parser and chess.js" $?
    node "$here/engine/web/tests/pgn_readback.mjs" "$tmp/b.pgn" --expect-nags 3 >/dev/null
    check "the NAGs read back" $?
else
    echo "review_test: node or engine/web's packages missing: the read-back skipped"
fi

report review_test
