#!/bin/sh
# Checks of bench/sprt.sh without playing: the match command it builds (-p),
# its refusals of bad arguments, the table row it makes of a match log (a
# stand-in for the match tool writes the log in the tool's format), and that
# a data generation is stopped for the match and running again after it.
# Prints "N passed, M failed" and exits non-zero on a failure.

here=$(cd "$(dirname "$0")/.." && pwd)
sprt=$here/bench/sprt.sh
# shellcheck source=tests/shcheck.sh
. "$here/tests/shcheck.sh"
tmp=$(mktemp -d)
dummy=
trap '[ -z "$dummy" ] || kill -CONT $dummy 2>/dev/null; [ -z "$dummy" ] || kill $dummy 2>/dev/null; rm -rf "$tmp"' EXIT

out=$(cd "$tmp" && sh "$sprt" -p ./new /x/base)
has "$out" --engine "cmd=$tmp/new" name=new --engine cmd=/x/base name=base option.Hash=16 \
    option.Threads=1 --nodes 25000 --games 2000 --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
    --concurrency 2 --seed 1 --event sprt-1
check "defaults: $out" $?
case $out in *balanced.epd*) r=0 ;; *--tc*) r=1 ;; *) r=1 ;; esac
check "the balanced book, no clock" $r

out=$(cd "$tmp" && sh "$sprt" -p -t 8+0.08 -b off -g 400 -s 9 -c 1 -o TM_SD_MOVES=25 -o LMR_DIV=300 \
    -e a.nnue -E /n/b.nnue -N run1 /x/new /x/base)
has "$out" --tc 8+0.08 --games 400 --concurrency 1 --seed 9 --event run1
check "a clock and a fixed number of games: $out" $?
case $out in *--nodes* | *--sprt*) r=1 ;; *) r=0 ;; esac
check "no nodes, no SPRT with -b off" $r
# NEW's options stand between its --engine and BASE's.
new_part=${out%%--engine cmd=/x/base*}
base_part=${out#*--engine cmd=/x/base}
has "$new_part" option.TM_SD_MOVES=25 option.LMR_DIV=300 "option.EvalFile=$tmp/a.nnue" &&
    has "$base_part" option.EvalFile=/n/b.nnue &&
    case $base_part in *TM_SD_MOVES* | *"$tmp/a.nnue"*) false ;; *) true ;; esac
check "the options and nets go to their engine" $?

out=$(sh "$sprt" -p -b -1.5,2 -n 100000 /x/new /x/base)
has "$out" --nodes 100000 --sprt elo0=-1.5 elo1=2
check "other bounds and nodes: $out" $?

for bad in "x" "x y z" "-b 1 x y" "-b x,y x y" "-b 1,2,3 x y" "-b 1-,2 x y" "-o foo x y" \
    "-o =3 x y" "-g 0 x y" "-c 0 x y" "-n 1e5 x y" "-s -1 x y" "-q x y"; do
    # shellcheck disable=SC2086
    sh "$sprt" -p $bad >"$tmp/err" 2>&1
    r=$?
    [ $r -eq 2 ] && [ -s "$tmp/err" ]
    check "'$bad' is refused with a message (exit $r)" $?
done

SPRT_OUT="$tmp/out" sh "$sprt" /nonexistent/new /bin/true >"$tmp/err" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "not found" "$tmp/err"
check "a missing engine is named (exit $r)" $?

# A stand-in for the data generation, and one for the match tool that
# records whether the generation was stopped while it ran and prints the
# summary lines as the tool does.
pattern="sprt-test-gen-$$ "
sh -c 'while :; do sleep 1; done' "$pattern" &
dummy=$!
sleep 0.2
cat >"$tmp/match" <<STUB
#!/bin/sh
ps -o stat= -p $dummy >"$tmp/state"
echo "Games: 40  W 12  D 20  L 8  Points 22.0 (55.0%)  Draws 50.0%  White scored 50.0%"
echo "Elo: +34.9 +/- 80.0 (95%, trinomial)  LOS: 80.0%"
echo "Elo: +35.0 +/- 85.1 (95%, pentanomial, 20 pairs)  nElo: +50.2 +/- 99.0"
echo "SPRT (normalized): elo0=0 elo1=5 alpha=0.05 beta=0.05  LLR 0.42 (-2.94, 2.94)  inconclusive"
STUB
chmod +x "$tmp/match"
row=$(MATCH="$tmp/match" SPRT_OUT="$tmp/out" SPRT_PAUSE="$pattern" sh "$sprt" -g 40 /bin/true /bin/true 2>"$tmp/err")
[ "$row" = "| 40 | 12-20-8 | +35.0 +/- 85.1 | +50.2 +/- 99.0 | 0.42 |" ]
check "the table row: '$row'" $?
case $(cat "$tmp/state") in T*) r=0 ;; *) r=1 ;; esac
check "the generation was stopped during the match ($(cat "$tmp/state"))" $r
grep -q "stopped the data generation ($dummy" "$tmp/err"
check "and the script said so" $?
case $(ps -o stat= -p $dummy) in T*) r=1 ;; "") r=1 ;; *) r=0 ;; esac
check "the generation runs again after it ($(ps -o stat= -p $dummy))" $r

MATCH="$tmp/match" SPRT_OUT="$tmp/out" SPRT_PAUSE="$pattern" sh "$sprt" -k -b off -g 40 /bin/true /bin/true >/dev/null 2>&1
case $(cat "$tmp/state") in T*) r=1 ;; *) r=0 ;; esac
check "-k leaves it running ($(cat "$tmp/state"))" $r

printf '#!/bin/sh\necho "engine failed"\nexit 3\n' >"$tmp/match"
MATCH="$tmp/match" SPRT_OUT="$tmp/out" SPRT_PAUSE="$pattern" sh "$sprt" /bin/true /bin/true >"$tmp/err" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "match failed (exit 3)" "$tmp/err"
check "a failed match says so (exit $r)" $?
case $(ps -o stat= -p $dummy) in T*) r=1 ;; "") r=1 ;; *) r=0 ;; esac
check "and the generation runs again after it" $r

report sprt_test
