#!/bin/sh
# Ablation matches: for each named technique, plays the full engine against
# the same engine with that technique left out, with an SPRT (normalized Elo,
# H0 -5 / H1 +5, from the full engine's side: accepting H1 means the technique
# does not lose strength). Both sides are one `make TUNE=1` build; the side
# without the technique gets the settings that leave it out, from the
# TECHNIQUE_OFF list of search/tunables.h, as UCI options.
# Usage: sh bench/ablate.sh [-n NODES] [-g MAXGAMES] [-c CONCURRENCY] NAME...
#        sh bench/ablate.sh -p     prints each NAME and its settings
#   NAME: ASPIRATION RAZOR RFP NMP PROBCUT IIR LMP FUTILITY SEE_PRUNE SINGULAR
#         CHECK_EXT LMR KILLERS QS_PRUNE HIST_PRUNE
# Results go to build/ablate/NAME.{log,json}; a summary line per technique.
here=$(cd "$(dirname "$0")/.." && pwd)

# The TECHNIQUE_OFF lines of tunables.h as "NAME SETTING..." lines.
techniques() {
    sed -n 's/^ *X(\([A-Z_]*\), "\([^"]*\)").*/\1 \2/p' "$here/search/tunables.h"
}

nodes=20000 games=800 conc=2
while getopts n:g:c:p o; do
    case $o in
    n) nodes=$OPTARG ;; g) games=$OPTARG ;; c) conc=$OPTARG ;;
    p) techniques; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
match=${MATCH:-$here/../shared/tools/match/match}
book=${BOOK:-$here/../shared/data/openings/balanced.epd}
out=$here/build/ablate
exe=$out/rokade-tunable
mkdir -p "$out"
make -C "$here" -s -j2 TUNE=1 BUILD=build/ablate/obj EXE=build/ablate/rokade-tunable \
    build/ablate/rokade-tunable || exit 1
for name in "$@"; do
    settings=$(techniques | sed -n "s/^$name //p")
    if [ -z "$settings" ]; then
        echo "error: no technique $name in search/tunables.h (sh bench/ablate.sh -p lists them)" >&2
        exit 2
    fi
    # Each NAME=VALUE becomes option.NAME=VALUE (no spaces in tunable names).
    opts=
    for s in $settings; do opts="$opts option.$s"; done
    # shellcheck disable=SC2086
    "$match" --engine cmd="$exe" name=full --engine cmd="$exe" name="no-$name" $opts \
        --each option.Hash=16 option.Threads=1 --nodes "$nodes" --games "$games" \
        --concurrency "$conc" --openings "$book" --sprt elo0=-5 elo1=5 \
        --json "$out/$name.json" >"$out/$name.log" 2>&1
    echo "$name: $(grep -E '^(Games|Elo: .*pentanomial|SPRT)' "$out/$name.log" | tr '\n' ' ')"
done
