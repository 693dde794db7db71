#!/bin/sh
# Checks of bench/ladder.sh without playing: the match command it builds for
# each anchor (-p), its refusals of bad arguments, and the table row it
# makes of a match log (a stand-in for the match tool writes the log in the
# tool's format), and that a data generation is stopped for the match and
# running again after it. Prints "N passed, M failed" and exits non-zero on
# a failure.

here=$(cd "$(dirname "$0")/.." && pwd)
ladder=$here/bench/ladder.sh
# shellcheck source=tests/shcheck.sh
. "$here/tests/shcheck.sh"
tmp=$(mktemp -d)
dummy=
trap '[ -z "$dummy" ] || kill -CONT $dummy 2>/dev/null; [ -z "$dummy" ] || kill $dummy 2>/dev/null; rm -rf "$tmp"' EXIT

out=$(STOCKFISH=/x/sf FAIRY=/x/fairy ROKADE=/x/rokade sh "$ladder" -p sf2800)
has "$out" --engine cmd=/x/rokade name=rokade cmd=/x/sf name=sf2800 \
    option.UCI_LimitStrength=true option.UCI_Elo=2800 option.Hash=16 option.Threads=1 \
    --tc 8+0.08 --games 200 --concurrency 2 --seed 2801
check "sf2800 defaults: $out" $?
case $out in *balanced.epd*) r=0 ;; *) r=1 ;; esac
check "the balanced book" $r

out=$(STOCKFISH=/x/sf FAIRY=/x/fairy sh "$ladder" -p -g 100 -t 40+0.4 -s 7 -c 1 fairy)
has "$out" cmd=/x/fairy name=fairy --tc 40+0.4 --games 100 --concurrency 1 --seed 7 --event fairy-7
check "fairy with options: $out" $?
case $out in *UCI_LimitStrength* | *EvalFile*) r=1 ;; *) r=0 ;; esac
check "fairy: no strength limit, no net" $r

out=$(cd "$tmp" && STOCKFISH=/x/sf sh "$ladder" -p -e nets/a.nnue -n run1 sf)
has "$out" cmd=/x/sf name=sf15 "option.EvalFile=$tmp/nets/a.nnue" --event run1
check "sf with a net by its full path: $out" $?
case $out in *UCI_Elo*) r=1 ;; *) r=0 ;; esac
check "full strength has no UCI_Elo" $r

for bad in "bogus" "-g x sf2800" "-s -1 fairy" "-c 2" "sf extra"; do
    # shellcheck disable=SC2086
    sh "$ladder" -p $bad >"$tmp/err" 2>&1
    r=$?
    [ $r -eq 2 ] && [ -s "$tmp/err" ]
    check "'$bad' is refused with a message (exit $r)" $?
done

LADDER_OUT="$tmp/out" ROKADE=/nonexistent/rokade sh "$ladder" -g 2 sf2800 >"$tmp/err" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "not found" "$tmp/err"
check "a missing engine is named (exit $r)" $?

# A stand-in for the data generation, and one for the match tool that
# records whether the generation was stopped while it ran and prints the
# summary lines as the tool does.
pattern="ladder-test-gen-$$ "
sh -c 'while :; do sleep 1; done' "$pattern" &
dummy=$!
sleep 0.2
export LADDER_PAUSE="$pattern"
cat >"$tmp/match" <<STUB
#!/bin/sh
ps -o stat= -p $dummy >"$tmp/state"
echo "[4/4] fairy vs rokade 1-0 {White mates} | rokade vs fairy: W 1 D 2 L 1  50.0%  Elo +0.0 +/- 99.9"
echo "Games: 4  W 1  D 2  L 1  Points 2.0 (50.0%)  Draws 50.0%  White scored 50.0%"
echo "Elo: +0.0 +/- 120.0 (95%, trinomial)  LOS: 50.0%"
echo "Elo: +0.0 +/- 135.5 (95%, pentanomial, 2 pairs)  nElo: +0.0 +/- 99.0"
STUB
chmod +x "$tmp/match"
row=$(MATCH="$tmp/match" ROKADE=/bin/true FAIRY=/bin/true LADDER_OUT="$tmp/out" sh "$ladder" -g 4 -s 9 fairy 2>"$tmp/err")
[ "$row" = "| fairy | 9 | 4 | 1-2-1 | 50.0% | +0.0 +/- 135.5 |" ]
check "the table row: '$row'" $?
grep -q "stopped the data generation ($dummy" "$tmp/err"
check "the script said it stopped the generation" $?
case $(cat "$tmp/state") in T*) r=0 ;; *) r=1 ;; esac
check "the generation was stopped during the match ($(cat "$tmp/state"))" $r
case $(ps -o stat= -p $dummy) in T*) r=1 ;; "") r=1 ;; *) r=0 ;; esac
check "the generation runs again after it ($(ps -o stat= -p $dummy))" $r
MATCH="$tmp/match" ROKADE=/bin/true FAIRY=/bin/true LADDER_OUT="$tmp/out" sh "$ladder" -k -g 4 fairy >/dev/null 2>&1
case $(cat "$tmp/state") in T*) r=1 ;; *) r=0 ;; esac
check "-k leaves it running ($(cat "$tmp/state"))" $r
printf '#!/bin/sh\necho "engine failed"\nexit 3\n' >"$tmp/match"
MATCH="$tmp/match" ROKADE=/bin/true FAIRY=/bin/true LADDER_OUT="$tmp/out" sh "$ladder" -g 4 fairy >"$tmp/err" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "match failed (exit 3)" "$tmp/err"
check "a failed match says so (exit $r)" $?
case $(ps -o stat= -p $dummy) in T*) r=1 ;; "") r=1 ;; *) r=0 ;; esac
check "and the generation runs again after it" $r

report ladder_test
