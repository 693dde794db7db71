#!/bin/sh
# Calibration of the play levels: for each UCI_Elo setting, Rokade with
# UCI_LimitStrength plays Stockfish 15.1 with UCI_LimitStrength at the same
# UCI_Elo, and the table (setting, games, score, Elo difference) is printed.
# A setting is calibrated when Rokade scores 40-60% (issue: at least six
# settings, 100 games each at 4+0.04).
# Usage: sh bench/calibrate.sh [-g GAMES] [-t TC] [-c CONCURRENCY] ELO...
#   e.g. sh bench/calibrate.sh -g 100 1400 1600 1800 2000 2200 2400
games=100 tc=4+0.04 conc=2
while getopts g:t:c: o; do
    case $o in
    g) games=$OPTARG ;; t) tc=$OPTARG ;; c) conc=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")/.." && pwd)
match=${MATCH:-$here/../shared/tools/match/match}
book=${BOOK:-$here/../shared/data/openings/balanced.epd}
rokade=${ROKADE:-$here/rokade}
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
out=$here/build/calibrate
mkdir -p "$out"
[ -x "$sf" ] || { echo "calibrate: Stockfish not found (apt-get install stockfish)"; exit 1; }
echo "| UCI_Elo | games | Rokade W-D-L | score | Elo difference (95%) |"
echo "| --- | --- | --- | --- | --- |"
for elo in "$@"; do
    "$match" --engine cmd="$rokade" name=rokade option.UCI_LimitStrength=true \
        option.UCI_Elo="$elo" --engine cmd="$sf" name=stockfish option.UCI_LimitStrength=true \
        option.UCI_Elo="$elo" --each option.Hash=16 option.Threads=1 --tc "$tc" \
        --games "$games" --concurrency "$conc" --openings "$book" \
        --pgn "$out/elo$elo.pgn" >"$out/elo$elo.log" 2>&1
    g=$(sed -n 's/^Games: \([0-9]*\) *W \([0-9]*\) *D \([0-9]*\) *L \([0-9]*\) *Points [0-9.]* (\([0-9.]*%\)).*/\1|\2-\3-\4|\5/p' "$out/elo$elo.log")
    e=$(sed -n 's/^Elo: \([^(]*\)(95%, pentanomial.*/\1/p' "$out/elo$elo.log")
    echo "| $elo | $(echo "$g" | cut -d'|' -f1) | $(echo "$g" | cut -d'|' -f2) | $(echo "$g" | cut -d'|' -f3) | $e|"
done
