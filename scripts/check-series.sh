#!/bin/bash
# Check that the series is bisectable: apply it one patch at a time on one
# tree and build after each (incrementally), with the test programs of the
# test directories each patch touches.  The first patch that does not
# apply or does not build is named, and the exit status is non-zero.
#
#   SERIES=patches/series JOBS=2 [FROM=N] scripts/check-series.sh
#
# FROM=N (make check-series FROM=N) checks the prefixes from patch N on
# only: patches 1 to N-1 are applied and built as one prefix first (for
# the patches added or changed since a full run).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_pin

SERIES=${SERIES:-$TOP/patches/series}
WORK=${WORK:-$BUILD/series}
mkdir -p "$WORK"
partial=$WORK/series
: > "$partial"

# Test directories (like callgrind/tests) that a patch adds files to.
touched_testdirs() {
   sed -n 's|^+++ b/\(.*/tests\)/.*|\1|p' "$1" | sort -u
}

build_prefix() {   # build_prefix LABEL TESTDIR...: prepare and build the partial series
   local label=$1; shift
   SRC=$WORK/src SERIES=$partial "$TOP/scripts/prepare.sh" ||
      die "$label does not apply"
   SRC=$WORK/src TREE=$WORK/tree PREFIX=$WORK/install SERIES=$partial \
      "$TOP/scripts/build.sh" tests "$@" || die "the tree does not build after $label"
}

# Patches are linked beside the partial series so that it names them as-is.
FROM=${FROM:-1}
case $FROM in ''|*[!0-9]*) die "FROM=$FROM: not a patch number" ;; esac
if [ "$FROM" -le 1 ]; then
   say "building pristine upstream"
   build_prefix "upstream $VG_VERSION"
fi
n=0
while read -r p; do
   n=$((n + 1))
   ln -sf "$p" "$WORK/${p##*/}"
   printf '%s\n' "${p##*/}" >> "$partial"
   if [ "$n" -lt $((FROM - 1)) ]; then continue; fi
   if [ "$n" -eq $((FROM - 1)) ]; then
      say "[1-$n] patches 1 to $n, as one prefix"
      build_prefix "patches 1 to $n"
      continue
   fi
   say "[$n] ${p##*/}"
   # shellcheck disable=SC2046
   build_prefix "${p##*/}" $(touched_testdirs "$p")
done < <(series_patches "$SERIES")
if [ "$FROM" -gt "$n" ]; then die "FROM=$FROM: the series has $n patches"; fi
echo "check-series: $((n - (FROM > 1 ? FROM - 1 : 0))) passed, 0 failed"
