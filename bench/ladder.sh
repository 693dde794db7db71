#!/bin/sh
# The ladder: Rokade against the anchors the strength issue judges it by,
# in the conditions of every ladder row in README.md and bench/README.md
# (one thread and 16 MB each, balanced.epd game pairs, two games at a time
# at nice -10 where allowed, no adjudication).
#
# Usage: sh bench/ladder.sh [-g GAMES] [-t TC] [-s SEED] [-c CONCURRENCY]
#                           [-e EVALFILE] [-n NAME] [-k] [-p] ANCHOR
#   ANCHOR  sf2800  Stockfish 15.1 with UCI_LimitStrength at UCI_Elo 2800
#           fairy   Fairy-Stockfish 11.1
#           sf      Stockfish 15.1 at full strength
#   -g 200 -t 8+0.08 -s 2801 -c 2: games, clock, opening seed, games at once
#   -e FILE: Rokade plays with this net (EvalFile) instead of its built-in one
#   -n NAME: the files' name (default ANCHOR-SEED)
#   -k: keep a data generation running (by default any process whose command
#       line holds "datagen out " or "datagen relabel " is stopped with SIGSTOP for the match and
#       resumed with SIGCONT however the script ends; bench/pause.sh)
#   -p: print the match command and exit (nothing is played)
# ROKADE, MATCH, BOOK, STOCKFISH, FAIRY override the programs and the book,
# LADDER_OUT the output folder, LADDER_PAUSE the pattern of what is stopped.
# The log, PGN and JSON go to build/ladder/NAME.*; the last line printed is
# the table row: anchor, seed, games, W-D-L, score, Elo (pentanomial 95%).
# The anchors come from Debian: apt-get install stockfish fairy-stockfish.
games=200 tc=8+0.08 seed=2801 conc=2 evalfile='' name='' print=0 keep=0
usage() {
    echo "usage: sh bench/ladder.sh [-g GAMES] [-t TC] [-s SEED] [-c CONC] [-e EVALFILE] [-n NAME] [-k] [-p] sf2800|fairy|sf" >&2
    exit 2
}
while getopts g:t:s:c:e:n:kp o; do
    case $o in
    g) games=$OPTARG ;; t) tc=$OPTARG ;; s) seed=$OPTARG ;; c) conc=$OPTARG ;;
    e) evalfile=$OPTARG ;; n) name=$OPTARG ;; k) keep=1 ;; p) print=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
anchor=$1
for v in "$games" "$seed" "$conc"; do
    case $v in '' | *[!0-9]*) echo "ladder: '$v' is not a whole number" >&2; exit 2 ;; esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
match=${MATCH:-$here/../shared/tools/match/match}
book=${BOOK:-$here/../shared/data/openings/balanced.epd}
rokade=${ROKADE:-$here/rokade}
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
fairy=${FAIRY:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
case $anchor in
sf2800) opp="cmd=$sf name=sf2800 option.UCI_LimitStrength=true option.UCI_Elo=2800" bin=$sf ;;
fairy) opp="cmd=$fairy name=fairy" bin=$fairy ;;
sf) opp="cmd=$sf name=sf15" bin=$sf ;;
*) echo "ladder: unknown anchor '$anchor' (sf2800, fairy or sf)" >&2; exit 2 ;;
esac
[ -n "$name" ] || name=$anchor-$seed
mine="cmd=$rokade name=rokade"
if [ -n "$evalfile" ]; then
    # The engine may run in another directory: the net by its full path.
    case $evalfile in /*) ;; *) evalfile=$(pwd)/$evalfile ;; esac
    mine="$mine option.EvalFile=$evalfile"
fi
out=${LADDER_OUT:-$here/build/ladder}
# The arguments as one list; none of the paths may hold a space.
# shellcheck disable=SC2086
set -- --engine $mine --engine $opp --each option.Hash=16 option.Threads=1 --tc "$tc" \
    --games "$games" --concurrency "$conc" --openings "$book" --seed "$seed" --event "$name" \
    --pgn "$out/$name.pgn" --json "$out/$name.json"
if [ $print -eq 1 ]; then
    echo "$match $*"
    exit 0
fi
for f in "$rokade" "$bin"; do
    [ -x "$f" ] || { echo "ladder: $f not found (make; apt-get install stockfish fairy-stockfish)" >&2; exit 1; }
done
[ -z "$evalfile" ] || [ -r "$evalfile" ] || { echo "ladder: cannot read $evalfile" >&2; exit 1; }
mkdir -p "$out"
# shellcheck source=bench/pause.sh
. "$here/bench/pause.sh"
[ $keep -eq 1 ] || pause_others ladder "${LADDER_PAUSE:-datagen (out|relabel) }"
# nice -10 keeps the match ahead of a niced data generation; without root
# it runs at the normal priority.
pri=
nice -n -10 true 2>/dev/null && pri="nice -n -10"
$pri "$match" "$@" >"$out/$name.log" 2>&1
rc=$?
g=$(sed -n 's/^Games: \([0-9]*\) *W \([0-9]*\) *D \([0-9]*\) *L \([0-9]*\) *Points [0-9.]* (\([0-9.]*%\)).*/\1 | \2-\3-\4 | \5/p' "$out/$name.log" | tail -1)
e=$(sed -n 's/^Elo: \([^(]*\)(95%, pentanomial.*/\1/p' "$out/$name.log" | tail -1)
[ -n "$g" ] || { echo "ladder: the match failed (exit $rc), see $out/$name.log" >&2; exit 1; }
echo "| $anchor | $seed | $g | $e|"
