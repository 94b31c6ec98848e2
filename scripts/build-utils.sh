#!/bin/bash
# Build callgrind-utils for the driver, without touching its source folder.
#
#   scripts/build-utils.sh SRCDIR BUILDDIR
#
# The package's own files (as git knows them, or all of SRCDIR outside a
# checkout) are copied into BUILDDIR by content, autoreconf runs when a
# build input changed, and the package is configured and built there.  A
# packager builds callgrind-utils on its own with the usual
# 'autoreconf -fi && ./configure && make'.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=${1:?usage: $0 SRCDIR BUILDDIR}
dst=${2:?usage: $0 SRCDIR BUILDDIR}
prefix=${UTILS_PREFIX:-$BUILD/install}
[ -f "$src/configure.ac" ] || die "$src/configure.ac is missing"

list_sources() {
   if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
      git -C "$src" ls-files --cached --others --exclude-standard .
   else
      (cd "$src" && find . -type f)
   fi
}

mkdir -p "$dst"
changed=$(list_sources | rsync -rlp --checksum --itemize-changes --files-from=- \
             "$src"/ "$dst"/ | awk '$1 ~ /^>f/ { print $2 }')
if [ ! -x "$dst/configure" ] ||
   printf '%s\n' "$changed" | grep -qE '(^|/)(configure\.ac|Makefile\.am|[^/]*\.m4)$'; then
   say "autoreconf in $dst"
   (cd "$dst" && autoreconf -fi > autoreconf.log 2>&1) || die "autoreconf failed, see $dst/autoreconf.log"
   rm -f "$dst/config.status"
fi
if [ ! -f "$dst/config.status" ]; then
   say "configure callgrind-utils --prefix=$prefix"
   (cd "$dst" && ./configure --prefix="$prefix" > configure.log 2>&1) ||
      die "configure failed, see $dst/configure.log"
fi
make -C "$dst" -s -j"${JOBS:-$(nproc)}" > "$dst/make.log" 2>&1 ||
   { tail -n 30 "$dst/make.log" >&2; die "building callgrind-utils failed, see $dst/make.log"; }
