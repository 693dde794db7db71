#!/bin/sh
# A change's self-play test: Rokade NEW against Rokade BASE in the conditions
# of every row of bench/README.md's search-change table (one thread and 16 MB
# each, balanced.epd game pairs, 25,000 nodes a move, an SPRT of [0, 5]
# normalized Elo, two games at a time at nice -10 where allowed, no
# adjudication), with the data generation stopped while it plays: a match
# beside it starves the engines (a process whose command line holds
# "datagen out " or "datagen relabel " gets SIGSTOP before the first game and SIGCONT when the
# script ends, however it ends).
#
# Usage: sh bench/sprt.sh [-n NODES | -t TC] [-g GAMES] [-s SEED] [-b ELO0,ELO1|off]
#                         [-c CONC] [-o NAME=VALUE]... [-e NET] [-E NET]
#                         [-N NAME] [-k] [-p] NEW BASE
#   NEW, BASE  the two programs (the same one with -o or -e/-E is fine)
#   -n 25000: nodes a move; or -t TC, a clock such as 8+0.08, instead
#   -g 2000: at most this many games (the SPRT may end sooner)
#   -s 1: opening seed (use a new one for each test)
#   -b 0,5: the SPRT's bounds in normalized Elo; off: play all -g games
#   -c 2: games at once
#   -o NAME=VALUE: a UCI option for NEW only (again for more), such as a
#      constant of a `make TUNE=1` build; no spaces
#   -e NET, -E NET: the net (EvalFile) of NEW, of BASE
#   -N NAME: the files' name (default sprt-SEED)
#   -k: keep the data generation running
#   -p: print the match command and exit (nothing is played or stopped)
# MATCH and BOOK override the match tool and the book, SPRT_OUT the output
# folder (build/sprt), SPRT_PAUSE the pattern of the processes stopped.
# The log, PGN and JSON go to SPRT_OUT/NAME.*; the last line printed is the
# table row: games, W-D-L, Elo (pentanomial 95%), nElo, LLR.
nodes=25000 tc='' games=2000 seed=1 bounds=0,5 conc=2 opts='' net='' basenet='' name='' keep=0 print=0
usage() {
    echo "usage: sh bench/sprt.sh [-n NODES | -t TC] [-g GAMES] [-s SEED] [-b ELO0,ELO1|off] [-c CONC] [-o NAME=VALUE]... [-e NET] [-E NET] [-N NAME] [-k] [-p] NEW BASE" >&2
    exit 2
}
die() {
    echo "sprt: $1" >&2
    exit 2
}
whole() {
    case $1 in '' | *[!0-9]*) die "'$1' is not a whole number" ;; esac
}
# Whether $1 is a number such as 5, -1.5 or 0.
num() {
    case $1 in '' | - | . | -. | *[!0-9.-]* | ?*-* | *.*.*) return 1 ;; esac
}
# The full path of a file named from here (the engines run elsewhere).
full() {
    case $1 in /*) echo "$1" ;; ./*) echo "$(pwd)/${1#./}" ;; *) echo "$(pwd)/$1" ;; esac
}
while getopts n:t:g:s:b:c:o:e:E:N:kp o; do
    case $o in
    n) nodes=$OPTARG tc='' ;; t) tc=$OPTARG nodes='' ;; g) games=$OPTARG ;; s) seed=$OPTARG ;;
    b) bounds=$OPTARG ;; c) conc=$OPTARG ;; e) net=$OPTARG ;; E) basenet=$OPTARG ;;
    N) name=$OPTARG ;; k) keep=1 ;; p) print=1 ;;
    o)
        case $OPTARG in
        *" "* | *"	"*) die "option '$OPTARG' has a space" ;;
        [!=]*=*) opts="$opts option.$OPTARG" ;;
        *) die "option '$OPTARG' is not NAME=VALUE" ;;
        esac
        ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
for v in "$games" "$seed" "$conc"; do whole "$v"; done
[ -z "$nodes" ] || whole "$nodes"
if [ "$games" -eq 0 ] || [ "$conc" -eq 0 ]; then die "games and concurrency must be above 0"; fi
case $tc in *" "*) die "clock '$tc' has a space" ;; esac
sprt=''
if [ "$bounds" != off ]; then
    case $bounds in
    *,*,*) die "bounds '$bounds' are not ELO0,ELO1 (or off)" ;;
    *,*) e0=${bounds%,*} e1=${bounds#*,} ;;
    *) die "bounds '$bounds' are not ELO0,ELO1 (or off)" ;;
    esac
    if ! num "$e0" || ! num "$e1"; then die "bounds '$bounds' are not ELO0,ELO1 (or off)"; fi
    sprt="--sprt elo0=$e0 elo1=$e1 alpha=0.05 beta=0.05"
fi
here=$(cd "$(dirname "$0")/.." && pwd)
match=${MATCH:-$here/../shared/tools/match/match}
book=${BOOK:-$here/../shared/data/openings/balanced.epd}
out=${SPRT_OUT:-$here/build/sprt}
pattern=${SPRT_PAUSE:-datagen (out|relabel) }
[ -n "$name" ] || name=sprt-$seed
new=$(full "$1") base=$(full "$2")
[ -z "$net" ] || { net=$(full "$net"); opts="$opts option.EvalFile=$net"; }
basenet_opt=''
[ -z "$basenet" ] || { basenet=$(full "$basenet"); basenet_opt="option.EvalFile=$basenet"; }
limit="--nodes $nodes"
[ -z "$tc" ] || limit="--tc $tc"
# The arguments as one list; none of the paths may hold a space.
# shellcheck disable=SC2086
set -- --engine cmd=$new name=new $opts --engine cmd=$base name=base $basenet_opt \
    --each option.Hash=16 option.Threads=1 $limit --games "$games" $sprt \
    --concurrency "$conc" --openings "$book" --seed "$seed" --event "$name" \
    --pgn "$out/$name.pgn" --json "$out/$name.json"
if [ $print -eq 1 ]; then
    echo "$match $*"
    exit 0
fi
for f in "$new" "$base"; do
    [ -x "$f" ] || { echo "sprt: $f not found" >&2; exit 1; }
done
for f in "$net" "$basenet"; do
    [ -z "$f" ] || [ -r "$f" ] || { echo "sprt: cannot read $f" >&2; exit 1; }
done
mkdir -p "$out" || exit 1
# shellcheck source=bench/pause.sh
. "$here/bench/pause.sh"
[ $keep -eq 1 ] || pause_others sprt "$pattern"
pri=''
nice -n -10 true 2>/dev/null && pri="nice -n -10"
$pri "$match" "$@" >"$out/$name.log" 2>&1
rc=$?
g=$(sed -n 's/^Games: \([0-9]*\) *W \([0-9]*\) *D \([0-9]*\) *L \([0-9]*\) .*/\1 | \2-\3-\4/p' "$out/$name.log" | tail -1)
e=$(sed -n 's/^Elo: \([^(]*\) (95%, pentanomial.*nElo: \(.*\)$/\1 | \2/p' "$out/$name.log" | tail -1)
l=$(sed -n 's/^SPRT .* LLR \([-0-9.]*\) .*/\1/p' "$out/$name.log" | tail -1)
if [ -z "$g" ] || [ -z "$e" ]; then
    echo "sprt: the match failed (exit $rc), see $out/$name.log" >&2
    exit 1
fi
echo "| $g | $e | ${l:--} |"
