#!/bin/bash
# Unpack the verified upstream tarball into SRC and apply SERIES in order.
#
#   SRC=build/src SERIES=patches/series scripts/prepare.sh
#
# SERIES may be empty for a pristine upstream tree.  The tree is remade only
# when the tarball or the series changed (a digest of both is kept in
# SRC/.prepared); otherwise this is a no-op, so make stays incremental.
# A patch that does not apply stops here, naming the patch and the file.
#
# The prepared tree is never configured or built in: the build copies it
# (scripts/build.sh), so that one source serves the x86_64 and the arm64
# builds, and so that it can be a clean patch-queue repository (make pq).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_pin

SRC=${SRC:-$BUILD/src}
SERIES=${SERIES-$TOP/patches/series}
tarball=$CACHE/$VG_TARBALL
sha=${VALGRIND_SHA256:-$VG_SHA256}

[ -f "$tarball" ] || die "$tarball is missing: run 'make fetch' first"
digest=$(prepared_digest "$sha" "$SERIES")

if [ -f "$SRC/.prepared" ] && [ "$(cat "$SRC/.prepared")" = "$digest" ]; then
   exit 0
fi

# A patch-queue tree holds a developer's commits: never wipe it.  If its
# commits are exactly the series (make export was run), adopt it as is.
if [ -d "$SRC/.git" ]; then
   if "$TOP/scripts/pq.sh" in-sync; then
      printf '%s\n' "$digest" > "$SRC/.prepared"
      say "$SRC is a patch-queue tree in sync with the series; kept"
      exit 0
   fi
   die "$SRC is a patch-queue tree whose commits differ from $SERIES." \
       "Run 'make export' to keep them, or remove $SRC to start again."
fi

# Check the tarball again: the cache may have been replaced behind our back.
[ "$(sha256_of "$tarball")" = "$sha" ] || die "checksum mismatch for $tarball; nothing unpacked"

new=$SRC.new
rm -rf "$new"
mkdir -p "$new"
say "unpacking $VG_TARBALL"
tar -xjf "$tarball" -C "$new" --strip-components=1

apply_one() {   # apply_one PATCH: apply to $new exactly (no fuzz), or die
   local p=$1 out
   if ! out=$(cd "$new" && patch -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch \
                 -r - --dry-run < "$p" 2>&1); then
      say "error: patch ${p##*/} does not apply:"
      printf '%s\n' "$out" | sed -n 's/^/   /p' >&2
      die "stopped at ${p##*/}; the tree was not prepared (left in $new)"
   fi
   (cd "$new" && patch -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -r - -s < "$p")
}

n=0
while read -r p; do
   [ -f "$p" ] || die "series names ${p##*/}, which does not exist"
   apply_one "$p"
   n=$((n + 1))
done < <(series_patches "$SERIES")
say "applied $n patch(es) from ${SERIES:-no series}"

rm -rf "$SRC"
mv "$new" "$SRC"
printf '%s\n' "$digest" > "$SRC/.prepared"
