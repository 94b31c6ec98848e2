#!/bin/bash
# The main job: profile tests/sample with the patched Callgrind, print its
# top functions, and write a flame graph.
#
#   VALGRIND=build/install/bin/valgrind UTILS=build/utils/callgrind-utils \
#   scripts/demo.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

VALGRIND=${VALGRIND:-$BUILD/install/bin/valgrind}
UTILS=${UTILS:-$BUILD/utils/callgrind-utils}
OUT=${OUT:-$BUILD/demo}
CC=${CC:-gcc}

[ -x "$VALGRIND" ] || die "$VALGRIND is not built: run 'make build'"
[ -x "$UTILS" ] || die "$UTILS is not built: run 'make utils'"
mkdir -p "$OUT"
"$CC" -O1 -g -fno-omit-frame-pointer -o "$OUT/sample" "$TOP/tests/sample/sample.c"

# --collect-stacks=yes: Callgrind also writes the exact call stacks
# ($OUT/callgrind.out.stacks), which the flame graph and the folded stacks
# are drawn from (instead of an estimate from the call graph).
say "profiling $OUT/sample with $VALGRIND --tool=callgrind --collect-stacks=yes"
rm -f "$OUT/callgrind.out" "$OUT/callgrind.out.stacks"
"$VALGRIND" --tool=callgrind --collect-stacks=yes --callgrind-out-file="$OUT/callgrind.out" \
   "$OUT/sample" > "$OUT/sample.stdout" 2> "$OUT/valgrind.log" ||
   { cat "$OUT/valgrind.log" >&2; die "callgrind failed"; }

echo "Top functions by instructions (self cost):"
"$UTILS" summary --top 10 --event Ir "$OUT/callgrind.out"
if "$UTILS" flamegraph --help >/dev/null 2>&1; then
   "$UTILS" flamegraph --title "tests/sample under callgrind" \
      "$OUT/callgrind.out" > "$OUT/flamegraph.svg"
   echo "Flame graph: $OUT/flamegraph.svg"
fi
"$UTILS" fold --event Ir "$OUT/callgrind.out" > "$OUT/sample.folded"
echo "Folded stacks: $OUT/sample.folded"
echo "Profile: $OUT/callgrind.out (exact stacks: $OUT/callgrind.out.stacks)"
