#!/bin/bash
# Smoke test of bench/callgrind-bench: a tiny QUICK run (echo and the
# depth-256 program, one configuration and its late-START variant, one
# pair of runs, seeding at depths 1 and 256) must write a JSON report and
# a Markdown table that are well formed.  It checks the shape, not the
# figures.  When pristine upstream is not built, the patched build plays
# both sides (the machinery is the same).  About 15 s.
#
#   tests/bench-smoke/run.sh
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib.sh"

PATCHED=${PATCHED:-$BUILD/install}
UPSTREAM=${UPSTREAM_PREFIX:-$BUILD/upstream/install}
[ -x "$PATCHED/bin/valgrind" ] || die "$PATCHED/bin/valgrind is not built"
[ -x "$UPSTREAM/bin/valgrind" ] || { say "no upstream build: patched against itself"; UPSTREAM=$PATCHED; }
OUT=$BUILD/bench-smoke
rm -rf "$OUT"

"$TOP/bench/callgrind-bench" --quick --arch x86_64 --runs 1 \
   --workloads echo,depth256 --configs no-inline,no-inline+late \
   --upstream "$UPSTREAM" --patched "$PATCHED" --out "$OUT" >/dev/null ||
   die "bench/callgrind-bench failed"

# The checker must reject a broken report, or it checks nothing.
check=$TOP/tests/bench-smoke/check-report
"$check" "$OUT/callgrind-bench.json" "$OUT/callgrind-bench.md" 3 ||
   die "the report is malformed (kept in $OUT)"
sed '/^| echo /s/ |[^|]*|$/ |/' "$OUT/callgrind-bench.md" > "$OUT/broken.md"
if "$check" "$OUT/callgrind-bench.json" "$OUT/broken.md" 3 2>/dev/null; then
   die "the checker accepts a table with a short row"
fi
echo "ok   bench smoke: report and table well formed ($OUT)"
