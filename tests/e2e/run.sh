#!/bin/bash
# End-to-end call-graph checks: real programs under the patched Callgrind,
# their call graph read with callgrind-utils, compared with an expectation
# written by hand from the program's source.
#
#   ARCH=x86_64|arm64 VALGRIND=... UTILS=... tests/e2e/run.sh [FIXTURE...]
#
# A fixture is a C file (tests/sample/sample.c, tests/e2e/*.c) with an
# expected edge list tests/e2e/expected/NAME.edges: one
# 'caller -> callee calls' line per edge between the program's own
# functions, sorted.  Programs are built at -O1 with the architecture's
# compiler; arm64 ones run under qemu-user (scripts/arm64-setup.sh).
# On failure the profile and the edge diff are kept in build/e2e/ARCH.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib.sh"

ARCH=${ARCH:-x86_64}
VALGRIND=${VALGRIND:-$BUILD/install/bin/valgrind}
UTILS=${UTILS:-$BUILD/utils/callgrind-utils}
OUT=$BUILD/e2e/$ARCH
case $ARCH in
   x86_64) CC=${CC:-gcc} ;;
   arm64)  CC=${CC_ARM64:-aarch64-linux-gnu-gcc} ;;
   *)      die "unknown ARCH $ARCH" ;;
esac
[ -x "$VALGRIND" ] || die "$VALGRIND is not built"
[ -x "$UTILS" ] || die "$UTILS is not built"

fixture_source() {
   case $1 in
      sample) printf '%s\n' "$TOP/tests/sample/sample.c" ;;
      *)      printf '%s\n' "$TOP/tests/e2e/$1.c" ;;
   esac
}

# The edges between named functions of the program's own object, without
# cost.  'edges --names full' prints 'file:fn [object] -> file:fn [object]
# calls cost'.
own_edges() {   # own_edges PROFILE BINARY
   "$UTILS" edges --names full "$1" |
      awk -v obj="[$2]" '
         { n = split($0, w, " -> ") }
         n == 2 && index(w[1], obj) && index(w[2], obj) {
            caller = w[1]; sub(" \\[.*$", "", caller); sub("^.*:", "", caller)
            rest = w[2]; callee = rest; sub(" \\[.*$", "", callee); sub("^.*:", "", callee)
            # crt code without symbols (0x...) is not the program'"'"'s own.
            if (caller ~ /^0x/ || callee ~ /^0x/) next
            m = split(rest, f, " ")
            print caller " -> " callee " " f[m - 1]
         }' | LC_ALL=C sort
}

run_fixture() {
   local name=$1 src bin exp
   src=$(fixture_source "$name")
   exp=$TOP/tests/e2e/expected/$name.edges
   [ -f "$src" ] && [ -f "$exp" ] || { echo "missing source or expectation for $name"; return 1; }
   bin=$OUT/$name
   "$CC" -O1 -g -fno-inline -o "$bin" "$src" || return 1
   # One level of recursion context: recursion shows as a self edge
   # (fib -> fib), not as 'N clones, so the expectation stays readable.
   "$VALGRIND" --tool=callgrind --separate-recs=1 --callgrind-out-file="$bin.callgrind" \
      "$bin" > "$bin.stdout" 2> "$bin.stderr" || { tail -5 "$bin.stderr"; return 1; }
   own_edges "$bin.callgrind" "$bin" > "$bin.edges" || return 1
   if ! diff -u "$exp" "$bin.edges" > "$bin.edges.diff"; then
      cat "$bin.edges.diff"
      return 1
   fi
   rm -f "$bin.edges.diff"
}

mkdir -p "$OUT"
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] ||
   mapfile -t fixtures < <(cd "$TOP/tests/e2e/expected" && ls *.edges | sed 's/\.edges$//')
passed=0 failed=0
for f in "${fixtures[@]}"; do
   if out=$(run_fixture "$f" 2>&1); then
      echo "ok   $ARCH $f"; passed=$((passed + 1))
   else
      echo "FAIL $ARCH $f (kept in ${OUT#"$TOP"/})"; printf '%s\n' "$out" | sed 's/^/     /'
      failed=$((failed + 1))
   fi
done
echo "e2e $ARCH: $passed passed, $failed failed"
[ "$failed" = 0 ]
