#!/bin/bash
# Fetch the pinned upstream Valgrind tarball into build/cache and verify it.
#
# Order of sources:
#   1. VALGRIND_TARBALL=path, a packager's own copy (checked against the pin,
#      or against VALGRIND_SHA256 when they pin another version);
#   2. the cached copy under build/cache;
#   3. Debian's source archive: every deb-src suite of the pin is searched
#      for a source version whose orig tarball has the pinned name and
#      checksum, and only that source package is downloaded.
#
# A checksum mismatch or a missing version is an error, and nothing is
# left in the cache that did not verify.  Exit codes: 0 ok, 1 error,
# 2 root needed (the commands to run are printed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_pin

tarball_name=$VG_TARBALL
want_sha=${VALGRIND_SHA256:-$VG_SHA256}
dest=$CACHE/$tarball_name
APT_SOURCES_FILE=${APT_SOURCES_FILE:-/etc/apt/sources.list.d/callgrind-patchset-src.sources}

verify() {   # verify FILE: fail, saying why, unless its sha256 is the wanted one
   local got
   got=$(sha256_of "$1")
   [ "$got" = "$want_sha" ] && return 0
   say "error: checksum mismatch for $1: expected sha256 $want_sha, got $got"
   return 1
}

from_packager() {
   local src=$VALGRIND_TARBALL
   [ -f "$src" ] || die "VALGRIND_TARBALL=$src: no such file"
   verify "$src" || exit 1
   mkdir -p "$CACHE"
   # The cache is keyed by the name the rest of the driver expects.
   cp -f "$src" "$dest.tmp" && mv -f "$dest.tmp" "$dest"
   say "using packager tarball $src (sha256 ok)"
}

write_apt_sources() {
   local uri=$1 key=$2 suite
   {
      printf '# Written by callgrind-patchset scripts/fetch-upstream.sh: source\n'
      printf '# packages only, to fetch the pinned upstream Valgrind tarball.\n'
      for suite in ${VG_DEB_SUITES//,/ }; do
         printf '\nTypes: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n' "$uri" "$suite"
         [ -n "$key" ] && printf 'Signed-By: %s\n' "$key"
      done
   } > "$APT_SOURCES_FILE"
}

# Print the source versions (newest first, as apt orders them) whose
# file list has the pinned tarball with the pinned checksum.
matching_versions() {
   apt-cache showsrc "$VG_DEB_SOURCE" 2>/dev/null | awk -v sha="$want_sha" -v name="$tarball_name" '
      /^Package:/            { ver = ""; insha = 0 }
      /^Version:/            { ver = $2 }
      /^[A-Za-z0-9-]+:/      { insha = ($1 == "Checksums-Sha256:") ; next }
      insha && $1 == sha && $3 == name && ver != "" { print ver; ver = "" }'
}

from_debian() {
   if [ "$(id -u)" != 0 ]; then
      cat >&2 <<EOM
fetch-upstream.sh: Valgrind $VG_VERSION is not cached and fetching it from
Debian's source archive needs root (it adds a deb-src sources file and runs
apt-get update).  Either run as root:

   sudo make fetch

or hand over the tarball yourself:

   make VALGRIND_TARBALL=/path/to/$tarball_name
EOM
      exit 2
   fi
   command -v apt-get >/dev/null || die "apt-get not found: hand over the tarball with VALGRIND_TARBALL="
   local arch uri key versions ver dl
   arch=$(system_archive || true)
   uri=${arch%% *}; key=${arch#* }; [ "$key" = "$arch" ] && key=
   [ -n "$uri" ] || die "no Debian archive entry in /etc/apt to add deb-src lines for"
   write_apt_sources "$uri" "$key"
   say "added $APT_SOURCES_FILE (deb-src: $VG_DEB_SUITES); apt-get update"
   apt-get update -qq >&2 || say "apt-get update reported errors; looking for the source anyway"
   versions=$(matching_versions)
   if [ -z "$versions" ]; then
      die "no source version of $VG_DEB_SOURCE in $VG_DEB_SUITES carries $tarball_name" \
          "with sha256 $want_sha any more.  Download that tarball and run:" \
          "make VALGRIND_TARBALL=/path/to/$tarball_name"
   fi
   ver=$(printf '%s\n' "$versions" | head -n1)
   [ "$ver" = "$VG_DEB_VERSION" ] || say "pinned revision $VG_DEB_VERSION is gone; $ver carries the same tarball"
   dl=$CACHE/dl.$$
   rm -rf "$dl"; mkdir -p "$dl"
   say "apt-get source --download-only $VG_DEB_SOURCE=$ver"
   (cd "$dl" && apt-get source -qq --download-only "$VG_DEB_SOURCE=$ver" >&2) ||
      { rm -rf "$dl"; die "apt-get source $VG_DEB_SOURCE=$ver failed"; }
   [ -f "$dl/$tarball_name" ] || { rm -rf "$dl"; die "the source package has no $tarball_name"; }
   verify "$dl/$tarball_name" || { rm -rf "$dl"; exit 1; }
   # Keep the Debian packaging next to the tarball: make deb uses it.
   mv -f "$dl"/* "$CACHE"/
   rmdir "$dl"
   printf '%s\n' "$ver" > "$CACHE/debian-version"
}

main() {
   mkdir -p "$CACHE"
   if [ -n "${VALGRIND_TARBALL:-}" ]; then
      from_packager
   elif [ -f "$dest" ]; then
      verify "$dest" || die "remove the bad cached copy $dest and fetch again"
   else
      from_debian
   fi
   printf '%s\n' "$dest"
}

main "$@"
