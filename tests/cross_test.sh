#!/bin/sh
# make test-cross: the builds for other systems and CPUs, checked where this
# machine can run them (tests/cross_check.py: a UCI session through pipes,
# bench's node count against the native build's, the perft suites at small
# depth, Threads 2, Syzygy probes from a SyzygyPath of two directories):
#   build/cross-windows/rokade.exe  (x86-64-avx2) under Wine
#   build/cross-arm64/rokade        (armv8, NEON) under qemu-aarch64
# and the CPU check: the x86-64-avx2 Linux build on an emulated CPU without
# AVX2 (qemu-x86_64 -cpu Nehalem) must refuse in one line and exit 1, and
# run on an emulated Haswell. With each engine its SIMD test
# (tests/test_simd.c built without Criterion, tests/standalone.h): AVX2
# under Wine, NEON under qemu, against scalar code.
# ROKADE: the native engine (its bench is the reference). SYZYGY: the
# tables (default ../shared/data/syzygy; the probes are skipped without).
set -u
cd "$(dirname "$0")/.." || exit 1
ROKADE=${ROKADE:-./rokade}
SYZYGY=${SYZYGY:-../shared/data/syzygy}
PY=${PYTHON:-python3}
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

want=$("$ROKADE" bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
[ -n "$want" ] || { echo "cross_test: $ROKADE bench gave no node count"; exit 1; }
echo "cross_test: the native bench: $want nodes"

# Wine: a prefix of the build's own, no Mono or Gecko (nothing is fetched),
# no debug output.
export WINEPREFIX="$PWD/build/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
syz=
[ -f "$SYZYGY/reference.epd" ] && syz="--syzygy $SYZYGY"
# The prefix made (or updated) first and the server kept while the checks
# run: a server that restarts between two programs cuts the second off.
wineboot -i >/dev/null 2>&1
wineserver -w
wineserver -p 60
echo "== Windows x86-64 (x86-64-avx2) under $(wine --version 2>/dev/null)"
# shellcheck disable=SC2086
if $PY tests/cross_check.py --runner wine --engine build/cross-windows/rokade.exe --bench "$want" \
    $syz --path-sep ';' --windows-paths --slow 2; then ok "windows"; else bad "windows"; fi
simd_test() { # name, runner, program: the SIMD test without Criterion (tests/standalone.h)
    out=$("$2" "$3" 2>&1)
    status=$?
    printf '%s\n' "$out" | grep -E '^(test_simd|\[(FAIL|SKIP|====)\])'
    if [ "$status" = 0 ] && ! printf '%s\n' "$out" | grep -q '^\[SKIP\]'; then ok "$1"; else
        bad "$1: status $status"; fi
}
simd_test "windows: test_simd" wine build/cross-windows/tests/standalone/test_simd.exe
wineserver -k 2>/dev/null

echo "== Linux ARM64 (armv8) under $(qemu-aarch64 --version | head -n 1)"
# shellcheck disable=SC2086
if $PY tests/cross_check.py --runner qemu-aarch64 --engine build/cross-arm64/rokade --bench "$want" \
    $syz --path-sep ':' --perft-depth 2 --syzygy-count 12 --slow 6; then ok "arm64"; else bad "arm64"; fi

simd_test "arm64: test_simd" qemu-aarch64 build/cross-arm64/tests/standalone/test_simd

echo "== the CPU check: x86-64-avx2 on an emulated Nehalem (SSE4.2, no AVX) and Haswell"
out=$(qemu-x86_64 -cpu Nehalem build/cross-avx2/rokade uci 2>&1)
status=$?
lines=$(printf '%s\n' "$out" | wc -l)
case "$out" in
"info string error: this build needs AVX, AVX2, BMI1, which this CPU lacks; use rokade-"*"-linux-x86-64-sse41-popcnt")
    if [ "$status" = 1 ] && [ "$lines" = 1 ]; then ok "Nehalem: one line, exit 1"; else
        bad "Nehalem: status $status, $lines lines: $out"; fi ;;
*) bad "Nehalem: status $status: $out" ;;
esac
out=$(printf 'uci\nposition startpos moves e2e4\ngo depth 6\nquit\n' | qemu-x86_64 -cpu Haswell build/cross-avx2/rokade 2>&1)
case "$out" in
*"bestmove "*) ok "Haswell: runs and searches" ;;
*) bad "Haswell: $out" ;;
esac

echo "cross_test: $passed passed, $failed failed"
[ "$failed" = 0 ]
