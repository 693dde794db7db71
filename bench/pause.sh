# shellcheck shell=sh
# Sourced by bench/sprt.sh and bench/ladder.sh: a match needs both cores, so
# a data generation running beside it (datagen at nice 19 would still take
# its share) is stopped for the match and resumed however the script ends.
#
# pause_others TAG PATTERN: sends SIGSTOP to every process whose command line
# holds PATTERN (but this script), says so on stderr as TAG, and sets the
# traps that send SIGCONT on exit, also after Ctrl-C or a kill.
pause_others() {
    paused=$(pgrep -f "$2" | grep -v "^$$\$" | tr '\n' ' ')
    [ -n "$paused" ] || return 0
    trap 'kill -CONT $paused 2>/dev/null' EXIT
    trap 'exit 130' INT TERM HUP
    # shellcheck disable=SC2086
    kill -STOP $paused && echo "$1: stopped the data generation ($paused) until the match ends" >&2
}
