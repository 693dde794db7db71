# The counting and matching helpers of the shell tests (ladder_test.sh,
# sprt_test.sh), sourced by them: `. "$here/tests/shcheck.sh"`.
pass=0
fail=0

# check NAME CONDITION-RESULT: counts a check (0 passed).
check() {
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
# has TEXT WORD...: every word stands in the text as a whole argument.
has() {
    text=" $1 "
    shift
    for w in "$@"; do
        case $text in *" $w "*) ;; *) return 1 ;; esac
    done
}
# report NAME: prints "NAME: N passed, M failed"; false when a check failed.
report() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
