#!/bin/sh
# XBoard checks through PolyGlot: runs `polyglot engine/polyglot.ini` (from
# the top of the tree) and talks CECP to it: the protover 2 handshake, ping,
# a move as White from a given game, a reply as Black in play mode, an illegal
# user move, setboard plus a mate in one, quit. Every move the engine sends is
# checked for legality with the engine binary itself. Without polyglot it
# prints a skip message and exits 0. Prints "N passed, M failed" and exits
# non-zero on any failure.
#
# ROKADE names the engine binary (default ./rokade); another binary than
# ./rokade is passed to PolyGlot with -ec. POLYGLOT names PolyGlot.

ROKADE=${ROKADE:-./rokade}
INI=engine/polyglot.ini

pass=0
fail=0

ok() {
    pass=$((pass + 1))
}

bad() {
    fail=$((fail + 1))
    printf 'FAIL: %s\n' "$1"
    if [ -n "${out:-}" ] && [ -f "$out" ]; then
        tail -n 25 "$out" | grep -v '^feature option' | sed 's/^/    | /'
    fi
}

finish() {
    echo "polyglot_test: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}

PG=${POLYGLOT:-}
if [ -z "$PG" ]; then
    PG=$(command -v polyglot 2>/dev/null)
    [ -z "$PG" ] && [ -x /usr/games/polyglot ] && PG=/usr/games/polyglot
fi
if [ -z "$PG" ] || [ ! -x "$PG" ]; then
    echo "polyglot_test: polyglot is not installed (apt-get install polyglot); skipped"
    exit 0
fi
if [ ! -f "$INI" ]; then
    echo "polyglot_test: $INI not found (run from the top of the source tree)"
    fail=1
    finish
fi
if [ ! -x "$ROKADE" ]; then
    echo "polyglot_test: engine binary '$ROKADE' not found (set ROKADE)"
    fail=1
    finish
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/polyglot_test.XXXXXX") || exit 1
out=$tmp/out
pg_pid=

stop_polyglot() {
    exec 3>&-
    if [ -n "$pg_pid" ]; then
        i=0
        while kill -0 "$pg_pid" 2>/dev/null && [ $i -lt 50 ]; do
            nap
            i=$((i + 1))
        done
        if kill -0 "$pg_pid" 2>/dev/null; then
            kill "$pg_pid" 2>/dev/null
            nap
            kill -9 "$pg_pid" 2>/dev/null
        fi
        wait "$pg_pid" 2>/dev/null
        pg_pid=
    fi
}

cleanup() {
    stop_polyglot
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A tenth of a second where sleep takes fractions, else a second.
nap() {
    sleep 0.1 2>/dev/null || sleep 1
}

# start: a new PolyGlot reading the FIFO $tmp/in (our fd 3), writing $out.
start() {
    rm -f "$tmp/in" "$out"
    mkfifo "$tmp/in" || exit 1
    : >"$out"
    if [ "$ROKADE" = ./rokade ]; then
        "$PG" "$INI" <"$tmp/in" >"$out" 2>&1 &
    else
        "$PG" "$INI" -ec "$ROKADE" <"$tmp/in" >"$out" 2>&1 &
    fi
    pg_pid=$!
    exec 3>"$tmp/in"
}

send() {
    printf '%s\n' "$1" >&3
}

# mark: the number of output lines so far (wait_for looks after it).
mark() {
    wc -l <"$out" | tr -d ' '
}

# wait_for MARK REGEX SECONDS: a line after MARK matches REGEX (printed).
wait_for() {
    _end=$(($(date +%s) + $3))
    while :; do
        _l=$(tail -n +$(($1 + 1)) "$out" | grep -E -- "$2" | head -n 1)
        if [ -n "$_l" ]; then
            printf '%s\n' "$_l"
            return 0
        fi
        [ "$(date +%s)" -ge "$_end" ] && return 1
        if ! kill -0 "$pg_pid" 2>/dev/null; then
            # It has ended: one last look at what it wrote.
            _l=$(tail -n +$(($1 + 1)) "$out" | grep -E -- "$2" | head -n 1)
            [ -n "$_l" ] && printf '%s\n' "$_l" && return 0
            return 1
        fi
        nap
    done
}

# legal POSITION MOVE: MOVE is legal after the UCI position command POSITION
# (which may end in a move list), checked with the engine.
legal() {
    case $1 in
        *" moves "*) _cmd="$1 $2" ;;
        *) _cmd="$1 moves $2" ;;
    esac
    _o=$("$ROKADE" "$_cmd" d 2>&1)
    printf '%s\n' "$_o" | grep -q '^Fen: ' && ! printf '%s\n' "$_o" | grep -q '^info string error'
}

MOVE_RE='^move [a-h][1-8][a-h][1-8][qrbn]?$'

# 1. Handshake and ping.
start
send xboard
m=$(mark)
send "protover 2"
if wait_for "$m" '^feature .*done=1' 20 >/dev/null; then ok; else
    bad "no 'feature done=1' after protover 2 (the rest is skipped)"
    finish
fi
if grep -q '^feature .*myname="Rokade' "$out"; then ok; else bad "myname is not Rokade"; fi
if grep -q '^feature .*setboard=1' "$out" && grep -q '^feature .*usermove=1' "$out"; then ok; else
    bad "setboard=1 / usermove=1 not offered"
fi
m=$(mark)
send "ping 7"
if wait_for "$m" '^pong 7$' 10 >/dev/null; then ok; else bad "no 'pong 7' for 'ping 7'"; fi

# 2. Engine plays White after 1. e4 e5 (force mode, then go).
send new
send "sd 4"
send force
send "usermove e2e4"
send "usermove e7e5"
m=$(mark)
send go
if l=$(wait_for "$m" '^move ' 20); then
    if printf '%s\n' "$l" | grep -Eq "$MOVE_RE" && legal "position startpos moves e2e4 e7e5" "${l#move }"; then ok; else
        bad "White's move '$l' after e2e4 e7e5 is not legal"
    fi
else
    bad "no move within 20 s of go (sd 4)"
fi

# 3. Play mode: the engine (Black after new) answers a user move.
send new
send "sd 4"
m=$(mark)
send "usermove d2d4"
if l=$(wait_for "$m" '^move ' 20); then
    if printf '%s\n' "$l" | grep -Eq "$MOVE_RE" && legal "position startpos moves d2d4" "${l#move }"; then ok; else
        bad "Black's reply '$l' to d2d4 is not legal"
    fi
else
    bad "no reply within 20 s to usermove d2d4"
fi

# 4. An illegal user move is refused and the game goes on.
send new
send force
m=$(mark)
send "usermove e2e5"
if wait_for "$m" '^Illegal move' 10 >/dev/null; then ok; else bad "no 'Illegal move' for usermove e2e5"; fi
m=$(mark)
send "ping 8"
if wait_for "$m" '^pong 8$' 10 >/dev/null; then ok; else bad "no pong after an illegal move"; fi

# 5. setboard: a mate in one is played and the result announced.
send new
send force
send "sd 4"
send "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
m=$(mark)
send go
if wait_for "$m" '^move d1d8$' 20 >/dev/null; then ok; else bad "mate in one after setboard: no 'move d1d8'"; fi
if wait_for "$m" '^1-0' 10 >/dev/null; then ok; else bad "no 1-0 result after the mate"; fi

# 6. quit ends PolyGlot (and the engine) promptly.
send quit
exec 3>&-
i=0
while kill -0 "$pg_pid" 2>/dev/null && [ $i -lt 50 ]; do
    nap
    i=$((i + 1))
done
if kill -0 "$pg_pid" 2>/dev/null; then bad "polyglot still running 5 s after quit"; else ok; fi
stop_polyglot

# 7. A second session: quit while the engine is thinking (infinite analysis
#    is not used; a long search is).
start
send xboard
send "protover 2"
m=$(mark)
send "ping 1"
wait_for "$m" '^pong 1$' 20 >/dev/null
send new
send force
send post
send "st 30"
m=$(mark)
send go
# The engine is thinking once PolyGlot relays its first output.
wait_for "$m" '^ *[0-9]+ ' 20 >/dev/null
child=
command -v pgrep >/dev/null 2>&1 && child=$(pgrep -P "$pg_pid" | head -n 1)
send quit
exec 3>&-
i=0
while kill -0 "$pg_pid" 2>/dev/null && [ $i -lt 50 ]; do
    nap
    i=$((i + 1))
done
if kill -0 "$pg_pid" 2>/dev/null; then bad "polyglot still running 5 s after quit during a search"; else ok; fi
if [ -n "$child" ]; then
    i=0
    while kill -0 "$child" 2>/dev/null && [ $i -lt 30 ]; do
        nap
        i=$((i + 1))
    done
    if kill -0 "$child" 2>/dev/null; then
        bad "the engine (pid $child) still runs 3 s after PolyGlot quit"
        kill "$child" 2>/dev/null
    else ok; fi
fi
stop_polyglot

finish
