#!/bin/sh
# Search speed with and without Syzygy tables: each position of FILE (one
# FEN a line) searched for MS milliseconds (default 1000), one thread, 16 MB,
# once without tables and once with SyzygyPath=DIR. Prints, for each
# setting, the total nodes, nodes per second, the mean depth reached and
# the tablebase hits.
# Usage: sh bench/tb_speed.sh FILE DIR [MS]   (ROKADE=./rokade by default)
rokade=${ROKADE:-./rokade}
file=$1 dir=$2 ms=${3:-1000}
if [ ! -f "$file" ] || [ ! -d "$dir" ]; then
    echo "usage: sh bench/tb_speed.sh FILE DIR [MS]" >&2
    exit 2
fi
for path in '<empty>' "$dir"; do
    while IFS= read -r fen; do
        [ -n "$fen" ] || continue
        printf 'setoption name Hash value 16\nsetoption name SyzygyPath value %s\n' "$path"
        printf 'ucinewgame\nposition fen %s\ngo movetime %s\n' "$fen" "$ms"
        # The next command waits for the search's end (isready is answered
        # at once, so sleep).
        sleep "$(awk "BEGIN {print $ms / 1000 + 0.2}")" >&2
        printf 'isready\n'
    done <"$file" | {
        "$rokade" | awk -v path="$path" '
            /^info depth/ {
                for (i = 1; i < NF; i++) {
                    if ($i == "depth") d = $(i + 1)
                    if ($i == "nodes") n = $(i + 1)
                    if ($i == "time") t = $(i + 1)
                    if ($i == "tbhits") h = $(i + 1)
                }
            }
            /^bestmove/ { searches++; nodes += n; ms += t; depth += d; hits += h }
            END {
                if (!searches) { print path ": no search finished"; exit 1 }
                printf "%s: %d searches, %d nodes, %.0f nodes/s, mean depth %.1f, tbhits %d\n",
                    path, searches, nodes, nodes * 1000 / (ms ? ms : 1), depth / searches, hits
            }'
    }
done
