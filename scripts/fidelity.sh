#!/bin/bash
# The before/after of the patch set: the e2e suite (tests/e2e/run.sh) on
# x86_64 and every cross architecture of scripts/cross-arches, with the
# patched builds and, with --upstream, with pristine upstream, then a
# table of which fixture is wrong where and how.
#
#   scripts/fidelity.sh [--upstream] [--output FILE]
#
# The builds must exist (make build, make <arch> for each cross
# architecture, and for --upstream make upstream upstream-<arch>); a
# missing one is reported in the table, not built.  Upstream for armhf
# is upstream with patch 0046 alone, without which it does not configure.
# Runs go to build/fidelity/VARIANT/ARCH, the results to
# build/fidelity/VARIANT.results ('ARCH OPT FIXTURE ok|FAIL|skip KINDS'
# lines written by run.sh); the two variants run side by side, one core
# each, x86_64 first in each (the others compare their edges with it).
# The table goes to FILE (default build/fidelity/fidelity.md; make
# check-fidelity UPSTREAM=1 writes docs/fidelity.md).  Failing fixtures
# are what this measures, so they do not fail the script; a missing tool
# or a broken run.sh does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

UTILS=${UTILS:-$BUILD/utils/callgrind-utils}
OUT=$BUILD/fidelity
with_upstream=0 output=$OUT/fidelity.md
while [ $# -gt 0 ]; do
   case $1 in
      --upstream) with_upstream=1 ;;
      --output)   output=$2; shift ;;
      *)          die "usage: $0 [--upstream] [--output FILE]" ;;
   esac
   shift
done
[ -x "$UTILS" ] || die "$UTILS is not built (make utils)"

ARCHES=(x86_64 $(awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$TOP/scripts/cross-arches"))

valgrind_of() {   # valgrind_of VARIANT ARCH
   case $1/$2 in
      series/x86_64)   echo "$BUILD/install/bin/valgrind" ;;
      series/*)        echo "$BUILD/$2/install/bin/valgrind" ;;
      upstream/x86_64) echo "$BUILD/upstream/install/bin/valgrind" ;;
      upstream/*)      echo "$BUILD/upstream/$2/install/bin/valgrind" ;;
   esac
}

# run_variant VARIANT: the suite on every architecture, x86_64 first
# (the others compare their edges with it).
run_variant() {
   local variant=$1 arch vg results=$OUT/$1.results start
   rm -rf "${OUT:?}/$variant" "$results"
   mkdir -p "$OUT/$variant"
   for arch in "${ARCHES[@]}"; do
      vg=$(valgrind_of "$variant" "$arch")
      if [ ! -x "$vg" ]; then
         say "$variant $arch: $vg is not built"
         echo "$arch * * not-built" >> "$results"
         continue
      fi
      start=$(date +%s)
      (
         if [ "$arch" != x86_64 ]; then
            eval "$("$TOP/scripts/cross-setup.sh" "$arch" --env)"
         fi
         export ARCH=$arch VALGRIND=$vg UTILS E2E_OUT=$OUT/$variant/$arch \
                E2E_XREF=$OUT/$variant/x86_64 E2E_RESULTS=$results
         [ "$variant" = upstream ] && export UPSTREAM=1
         "$TOP/tests/e2e/run.sh" > "$OUT/$variant/$arch.log" 2>&1 || true
      )
      say "$variant $arch: $(tail -1 "$OUT/$variant/$arch.log") ($(( $(date +%s) - start )) s)"
   done
}

# The cell of one fixture, arch and opt level: 'ok', 'FAIL: kinds', or
# what kept it from running.
cell() {   # cell RESULTS ARCH OPT FIXTURE
   awk -v a="$2" -v o="$3" -v f="$4" '
      $1 == a && $2 == "*" { r = "not built" }
      $1 == a && $2 == o && $3 == f {
         if ($4 == "ok") r = "ok"
         else if ($4 == "skip") r = "n/a"
         else { k = ""; for (i = 5; i <= NF; i++) k = k (k == "" ? "" : ", ") $i; r = "FAIL" (k == "" ? "" : ": " k) }
      }
      END { print (r == "" ? "-" : r) }' "$1"
}

write_table() {
   local f opt arch up se row sep any fixtures
   mapfile -t fixtures < "$TOP/tests/e2e/fixtures"
   {
      echo "# Call-graph fidelity: pristine upstream 3.27.1 against the series"
      echo
      echo "Made by \`make check-fidelity UPSTREAM=1\` (scripts/fidelity.sh --upstream"
      echo "--output docs/fidelity.md) on $(date -u +%Y-%m-%d), from commit"
      echo "$(git -C "$TOP" rev-parse --short HEAD) with patches/series as it was then:"
      echo "$(series_patches "$TOP/patches/series" | sed 's|.*/||; s|-.*||' | paste -sd' ' -)."
      echo "Do not edit it by hand; run the command again."
      echo
      echo "Each cell is *upstream* → *series* for the fixture of tests/e2e at that"
      echo "optimization level, one table a level, one column an architecture"
      echo "(native: the runtime fixtures, python3 everywhere and node on x86_64"
      echo "only, see docs/e2e.md).  A failure"
      echo "lists how the call graph is wrong, against the edge list written by"
      echo "hand from the fixture's source (the runtime fixtures: the properties"
      echo "docs/e2e.md lists):"
      echo
      echo "| kind | meaning |"
      echo "| --- | --- |"
      echo "| clones | a name with a \`'N\` recursion clone the program does not have (fake recursion) |"
      echo "| self-loops | \`f -> f\` where f does not call itself |"
      echo "| inverted | \`b -> a\` where the program has \`a -> b\` |"
      echo "| contexts | a right edge with its caller context (\`--separate-callers\`) lost or wrong |"
      echo "| phantom | a call the program never makes |"
      echo "| missing | a call the program makes that is not shown |"
      echo "| counts | a right edge with a wrong call count |"
      echo "| leaks | a function of a skipped object appears as fn= or cfn= |"
      echo "| xarch | the edges differ from x86_64's (same variant and optimization level) |"
      echo "| snapshot | the folded stacks differ from tests/e2e/snapshots |"
      echo "| option-rejected | Valgrind refused the fixture's options |"
      echo "| totals | the folded stacks do not add up to the profile's total cost (runtime fixtures) |"
      echo "| run-failed | the run did not finish (upstream's sigstart: Callgrind's assertion in post_signal when instrumentation starts inside a signal handler) |"
      echo
      echo "Upstream for armhf is upstream with patch 0046 alone (configure), without"
      echo "which it does not build for \`arm-linux-gnueabihf\`."
      for opt in O0 O2 -; do
         echo
         case $opt in
            -) echo "### The runtime fixtures (native)" ;;
            *) echo "### -$opt" ;;
         esac
         echo
         row="| fixture"; sep="| ---"
         for arch in "${ARCHES[@]}"; do row="$row | $arch"; sep="$sep | ---"; done
         echo "$row |"; echo "$sep |"
         for f in "${fixtures[@]}"; do
            row="| $f" any=0
            for arch in "${ARCHES[@]}"; do
               se=$(cell "$OUT/series.results" "$arch" "$opt" "$f")
               if [ "$with_upstream" = 1 ]; then
                  up=$(cell "$OUT/upstream.results" "$arch" "$opt" "$f")
                  if [ "$up" = - ] && [ "$se" = - ]; then row="$row | "; continue; fi
                  row="$row | $up → $se"
               else
                  [ "$se" = - ] && { row="$row | "; continue; }
                  row="$row | $se"
               fi
               any=1
            done
            [ "$any" = 1 ] && echo "$row |"
         done
      done
      echo
      for v in upstream series; do
         [ -f "$OUT/$v.results" ] || continue
         awk -v v="$v" '$4 == "ok" { ok++ } $4 == "FAIL" { bad++ } $4 == "skip" { n++ }
            END { printf "%s: %d passed, %d failed, %d not applicable.\n", v, ok, bad, n }' "$OUT/$v.results"
         echo
      done
   } > "$output"
}

mkdir -p "$OUT"
# The sysroots first, one at a time: two variants setting one up at
# once extract into the same folder.
for arch in "${ARCHES[@]}"; do
   [ "$arch" = x86_64 ] || "$TOP/scripts/cross-setup.sh" "$arch" >&2
done
if [ "$with_upstream" = 1 ]; then
   run_variant upstream &
   up_pid=$!
   run_variant series
   wait "$up_pid"
else
   run_variant series
fi
write_table
say "table written to $output"
