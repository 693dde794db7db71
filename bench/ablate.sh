#!/bin/sh
# Ablation matches: for each named technique, builds Rokade without it
# (-DSEARCH_OFF=OFF_<NAME>, see search/search.c) and plays the full engine
# against that build with an SPRT (normalized Elo, H0 -5 / H1 +5, from the full
# engine's side: accepting H1 means the technique does not lose strength).
# Usage: sh bench/ablate.sh [-n NODES] [-g MAXGAMES] [-c CONCURRENCY] NAME...
#   NAME: ASPIRATION RAZOR RFP NMP IIR LMP FUTILITY SEE_PRUNE SINGULAR
#         CHECK_EXT LMR KILLERS QS_PRUNE HIST_PRUNE
# Results go to build/ablate/NAME.{log,json}; a summary line per technique.
nodes=20000 games=800 conc=2
while getopts n:g:c: o; do
    case $o in
    n) nodes=$OPTARG ;; g) games=$OPTARG ;; c) conc=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")/.." && pwd)
match=${MATCH:-$here/../shared/tools/match/match}
book=${BOOK:-$here/../shared/data/openings/balanced.epd}
out=$here/build/ablate
mkdir -p "$out"
make -C "$here" -s -j2 EXE=build/ablate/rokade-full || exit 1
for name in "$@"; do
    exe=$out/rokade-no-$name
    make -C "$here" -s -j2 BUILD=build/ablate/obj-$name EXE="build/ablate/rokade-no-$name" \
        CFLAGS="-DSEARCH_OFF=OFF_$name" || exit 1
    "$match" --engine cmd="$out/rokade-full" name=full --engine cmd="$exe" name="no-$name" \
        --each option.Hash=16 option.Threads=1 --nodes "$nodes" --games "$games" \
        --concurrency "$conc" --openings "$book" --sprt elo0=-5 elo1=5 \
        --json "$out/$name.json" >"$out/$name.log" 2>&1
    echo "$name: $(grep -E '^(Games|Elo: .*pentanomial|SPRT)' "$out/$name.log" | tr '\n' ' ')"
done
