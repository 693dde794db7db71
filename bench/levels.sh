#!/bin/sh
# bench's nodes/s of every x86-64 level of the releases on this machine,
# side by side: each level built (build/level-<name>/rokade), then ROUNDS
# rounds in which every build runs `bench` once, the order turned by one
# each round, so that a slow spell of a shared machine falls on all alike.
# Prints each build's median, lowest and highest nodes/s and its median
# against the x86-64-avx2 build's. Two floors besides the levels:
#   portable  NNUE_SIMD=portable at x86-64: the net's kernels in plain C,
#             which gcc still vectorises with SSE2 by itself
#   scalar    the same with gcc's vectoriser off: one lane, the true floor
# A level this CPU lacks is skipped (its build says so and exits).
# Stop datagen and matches first: the numbers are only as quiet as the
# machine.   usage: sh bench/levels.sh [ROUNDS (default 10)]
set -u
cd "$(dirname "$0")/.." || exit 1
ROUNDS=${1:-10}
case $ROUNDS in '' | *[!0-9]*) echo "levels: ROUNDS must be a number, not '$ROUNDS'"; exit 1 ;; esac
LEVELS="x86-64 x86-64-sse41-popcnt x86-64-avx2 x86-64-bmi2 x86-64-avx512 x86-64-vnni512"
builds=
for l in $LEVELS portable scalar; do
    case $l in
    portable) args="ARCH=x86-64 NNUE_SIMD=portable" ;;
    scalar) args="ARCH=x86-64 NNUE_SIMD=portable CFLAGS=-fno-tree-vectorize" ;;
    *) args="ARCH=$l" ;;
    esac
    dir=build/level-$l
    # shellcheck disable=SC2086
    make -j2 --no-print-directory $args BUILD="$dir" EXE="$dir/rokade" "$dir/rokade" >"$dir.log" 2>&1 ||
        { echo "levels: the $l build failed (see $dir.log)"; exit 1; }
    if "$dir/rokade" version >/dev/null 2>&1; then builds="$builds $l"; else
        echo "levels: $l skipped: $("$dir/rokade" version 2>&1 | head -n 1)"; fi
done
out=build/levels.txt
: >"$out"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
    # This round's order: the list turned by r.
    # shellcheck disable=SC2086
    set -- $builds
    i=0
    while [ "$i" -lt $((r % $#)) ]; do
        first=$1
        shift
        set -- "$@" "$first"
        i=$((i + 1))
    done
    for l in "$@"; do
        nps=$("build/level-$l/rokade" bench 2>&1 | sed -n 's/^Nodes\/second *: *//p')
        [ -n "$nps" ] || { echo "levels: $l gave no Nodes/second"; exit 1; }
        echo "$l $nps" >>"$out"
    done
    r=$((r + 1))
done
echo "bench nodes/s, $ROUNDS rounds interleaved, $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
awk -v order="$builds" '
    { v[$1, ++n[$1]] = $2 }
    END {
        k = split(order, names, " ")
        for (j = 1; j <= k; j++) {
            l = names[j]; m = n[l]
            for (a = 1; a <= m; a++) s[a] = v[l, a]
            for (a = 2; a <= m; a++) for (b = a; b > 1 && s[b - 1] > s[b]; b--) { t = s[b]; s[b] = s[b - 1]; s[b - 1] = t }
            med[l] = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
            lo[l] = s[1]; hi[l] = s[m]
        }
        ref = med["x86-64-avx2"]
        printf "%-22s %10s %10s %10s  %s\n", "level", "median", "lowest", "highest", "vs avx2"
        for (j = 1; j <= k; j++) {
            l = names[j]
            printf "%-22s %10d %10d %10d  %s\n", l, med[l], lo[l], hi[l], ref ? sprintf("%.3f", med[l] / ref) : "-"
        }
    }' "$out"
