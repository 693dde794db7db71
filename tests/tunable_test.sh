#!/bin/sh
# Checks of the `make TUNE=1` build named by $ROKADE_TUNABLE against the
# default build $ROKADE: the same bench signature (the tunables as variables
# search exactly as the constants do), and for every technique of
# search/tunables.h's TECHNIQUE_OFF list (what bench/ablate.sh plays), that
# its settings are accepted as options without an error and change the
# search (another node count at `bench 7`). Prints "N passed, M failed" and
# exits non-zero on any failure.

ROKADE=${ROKADE:-./rokade}
ROKADE_TUNABLE=${ROKADE_TUNABLE:-./build/tunable/rokade}
here=$(cd "$(dirname "$0")/.." && pwd)
pass=0
fail=0

# nodes OUTPUT: the node count of a bench's output.
nodes() {
    printf '%s\n' "$1" | sed -n 's/^Nodes searched *: *//p'
}

full=$("$ROKADE" bench 2>&1)
tunable=$("$ROKADE_TUNABLE" bench 2>&1)
if [ -n "$(nodes "$full")" ] && [ "$(nodes "$full")" = "$(nodes "$tunable")" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: bench of the TUNE build $(nodes "$tunable") != default build $(nodes "$full")"
fi

base=$(nodes "$(printf 'bench 7\nquit\n' | "$ROKADE_TUNABLE" 2>&1)")
# A variant under test (bench/README.md, "Changes that act at depth"): the
# check extension by SEE, off by default, changes the search when set.
n=$(nodes "$(printf 'setoption name CHECK_EXT_SEE value 0\nbench 7\nquit\n' | "$ROKADE_TUNABLE" 2>&1)")
if [ -n "$n" ] && [ "$n" != "$base" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: CHECK_EXT_SEE=0 leaves bench 7 at ${n:-no count} nodes, as without it"
fi
list=$(sh "$here/bench/ablate.sh" -p)
count=$(printf '%s\n' "$list" | grep -c .)
if [ "$count" -lt 14 ]; then
    fail=$((fail + 1))
    echo "FAIL: bench/ablate.sh -p lists $count techniques, expected 14 or more"
fi
printf '%s\n' "$list" | {
    while read -r name settings; do
        cmds=
        for s in $settings; do
            cmds="${cmds}setoption name ${s%%=*} value ${s#*=}
"
        done
        out=$(printf '%sbench 7\nquit\n' "$cmds" | "$ROKADE_TUNABLE" 2>&1)
        n=$(nodes "$out")
        if printf '%s\n' "$out" | grep -q 'error'; then
            fail=$((fail + 1))
            echo "FAIL: $name: $settings is refused:"
            printf '%s\n' "$out" | grep error | sed 's/^/    | /'
        elif [ -z "$n" ] || [ "$n" = "$base" ]; then
            fail=$((fail + 1))
            echo "FAIL: $name: $settings leaves bench 7 at ${n:-no count} nodes, as without it"
        else
            pass=$((pass + 1))
        fi
    done
    echo "tunable_test: $pass passed, $fail failed"
    [ "$fail" = 0 ]
}
