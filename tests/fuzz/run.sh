#!/bin/sh
# Runs every fuzz target for SECONDS at once (libFuzzer), each on a copy of
# its seed corpus, after replaying the saved crash inputs in regress/.
# Usage: sh tests/fuzz/run.sh BUILD_DIR SECONDS
dir=${1:-build/fuzz}
secs=${2:-60}
here=$(dirname "$0")
fail=0
for t in fen position uci pgn; do
    bin=$dir/fuzz_$t
    [ -x "$bin" ] || { echo "fuzz: $bin is missing (make fuzz)"; exit 1; }
    if [ -d "$here/regress/$t" ] && [ -n "$(ls "$here/regress/$t")" ]; then
        if ! "$bin" "$here"/regress/$t/* >"$dir/regress-$t.log" 2>&1; then
            echo "fuzz: a regression input of $t fails again:"; tail -30 "$dir/regress-$t.log"; fail=1
        else
            echo "fuzz: $t: $(ls "$here/regress/$t" | wc -l) regression inputs pass"
        fi
    fi
done
[ $fail = 0 ] || exit 1
pids=""
for t in fen position uci pgn; do
    rm -rf "$dir/corpus-$t" "$dir/artifacts-$t"
    mkdir -p "$dir/corpus-$t" "$dir/artifacts-$t"
    cp "$here"/corpus/$t/* "$dir/corpus-$t/"
    "$dir/fuzz_$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=4096 \
        -artifact_prefix="$dir/artifacts-$t/" -print_final_stats=1 \
        "$dir/corpus-$t" >"$dir/fuzz-$t.log" 2>&1 &
    pids="$pids $!"
done
i=0
for pid in $pids; do
    i=$((i + 1))
    t=$(echo fen position uci pgn | cut -d' ' -f$i)
    if wait "$pid"; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/fuzz-$t.log" | grep -o '[0-9]*$')
        cov=$(grep -o 'cov: [0-9]*' "$dir/fuzz-$t.log" | tail -1)
        echo "fuzz: $t: ${secs}s, $runs inputs, $cov, no failure"
    else
        echo "fuzz: $t FAILED (input saved in $dir/artifacts-$t/):"
        grep -v '^#' "$dir/fuzz-$t.log" | tail -40
        fail=1
    fi
done
exit $fail
