#!/bin/sh
# make release: every released binary into dist/, named by version, system
# and level (rokade-<version>-<system>-<level>[.exe]), with SHA256SUMS, and
# each one's bench checked against the native build's where this machine
# can run it: natively (a level this CPU has), under Wine (Windows), under
# qemu-aarch64 (ARM64) or qemu-x86_64 with an emulated CPU of the level
# (x86-64 levels this CPU lacks). Each binary's `version` must name its
# level. Prints a table: file, bytes, where its bench was checked.
#
#   sh bench/release.sh [DIST]      (make release; VERSION from engine/version.h)
set -u
cd "$(dirname "$0")/.." || exit 1
DIST=${1:-dist}
MAKE=${MAKE:-make}
VERSION=$(sed -n 's/^#define ROKADE_VERSION "\(.*\)"/\1/p' engine/version.h)
[ -n "$VERSION" ] || { echo "release: no version in engine/version.h"; exit 1; }
X86_LEVELS="x86-64 x86-64-sse41-popcnt x86-64-avx2 x86-64-bmi2 x86-64-avx512 x86-64-vnni512"
ARM_LEVELS="armv8 armv8-dotprod"
export WINEPREFIX="$PWD/build/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="

$MAKE -s -j2 rokade >/dev/null || exit 1
want=$(./rokade bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
echo "release $VERSION: the native bench is $want nodes"
rm -rf "$DIST"
mkdir -p "$DIST"
failed=0
report=$(mktemp)

# build SYSTEM TARGET LEVEL EXT: one binary into dist/ (stripped).
build() {
    name="rokade-$VERSION-$1-$3$4"
    if ! $MAKE -s -j2 TARGET="$2" ARCH="$3" BUILD="build/rel-$1-$3" EXE="$DIST/$name" \
        "$DIST/$name" >"build/rel-$1-$3.log" 2>&1; then
        echo "release: FAIL: the build of $name (build/rel-$1-$3.log)"
        failed=1
        return 1
    fi
    case $2 in
    windows) x86_64-w64-mingw32-strip "$DIST/$name" ;;
    linux-arm64) aarch64-linux-gnu-strip "$DIST/$name" ;;
    *) strip "$DIST/$name" ;;
    esac
}

# check NAME WHERE RUNNER...: the binary's bench and its level, run so.
check() {
    name=$1
    where=$2
    shift 2
    got=$("$@" "$DIST/$name" bench 2>&1 | sed -n 's/^Nodes searched *: *//p' | tr -d '\r')
    level=$("$@" "$DIST/$name" version 2>&1 | sed -n 's/.*, level \([^,]*\),.*/\1/p' | tr -d '\r')
    size=$(wc -c <"$DIST/$name" | tr -d ' ')
    if [ "$got" = "$want" ] && [ "-$level" = "$(echo "$name" | sed "s/^rokade-$VERSION-[a-z]*//; s/\.exe$//")" ]; then
        printf '%-46s %9s  bench %s %s\n' "$name" "$size" "$got" "$where" >>"$report"
    else
        printf '%-46s %9s  FAIL: bench %s (want %s), level %s, %s\n' "$name" "$size" "$got" "$want" \
            "$level" "$where" >>"$report"
        failed=1
    fi
}

have=$(./rokade version | sed -n 's/.*the \(.*\) build suits.*/\1/p')
for level in $X86_LEVELS; do
    # Levels up to this CPU's best run natively; the others on qemu's
    # emulation of a CPU that has them.
    native=yes
    case " $X86_LEVELS " in *" $have "*) ;; *) native=no ;; esac
    after=$(echo " $X86_LEVELS " | sed "s/.* $have //")
    case " $after " in *" $level "*) native=no ;; esac
    if build linux linux "$level" ""; then
        if [ $native = yes ]; then
            check "rokade-$VERSION-linux-$level" "natively"
        else
            check "rokade-$VERSION-linux-$level" "under qemu-x86_64 -cpu max" qemu-x86_64 -cpu max
        fi
    fi
    if build windows windows "$level" ".exe"; then
        if [ $native = yes ]; then
            check "rokade-$VERSION-windows-$level.exe" "under Wine" wine
        else
            printf '%-46s %9s  not run: this CPU lacks %s (Wine runs on it)\n' \
                "rokade-$VERSION-windows-$level.exe" \
                "$(wc -c <"$DIST/rokade-$VERSION-windows-$level.exe" | tr -d ' ')" "$level" >>"$report"
        fi
    fi
done
wineserver -k 2>/dev/null
for level in $ARM_LEVELS; do
    if build linux linux-arm64 "$level" ""; then
        check "rokade-$VERSION-linux-$level" "under qemu-aarch64 -cpu max" qemu-aarch64 -cpu max
    fi
done

(cd "$DIST" && sha256sum rokade-* >SHA256SUMS)
cat "$report"
rm -f "$report"
echo "release: $(wc -l <"$DIST/SHA256SUMS" | tr -d ' ') binaries and SHA256SUMS in $DIST/"
if [ "$failed" != 0 ]; then
    echo "release: FAILED"
    exit 1
fi
