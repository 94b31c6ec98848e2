# Shared helpers for the driver scripts.  Sourced, not run.
# shellcheck shell=bash

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
CACHE=${CACHE:-$BUILD/cache}

say()  { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die()  { say "error: $*"; exit "${EXIT_CODE:-1}"; }

# Load the upstream pin (plain NAME=value lines).
load_pin() {
   local pin=${PIN_FILE:-$TOP/upstream/valgrind.pin}
   [ -r "$pin" ] || die "cannot read the upstream pin $pin"
   # shellcheck disable=SC1090
   . "$pin"
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# The patches named by a series file, one path per line, in order.
# Blank lines and '#' comments are ignored, as quilt does.
series_patches() {
   local series=$1 dir
   [ -n "$series" ] && [ -e "$series" ] || return 0
   dir=$(dirname "$series")
   sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series" | while read -r p _; do
      if [ -n "$p" ]; then printf '%s/%s\n' "$dir" "$p"; fi
   done
}

# A digest of everything that decides the content of a prepared tree:
# the tarball's checksum and each patch of the series, in order.
prepared_digest() {
   local sha=$1 series=$2
   {
      printf 'tarball %s\n' "$sha"
      series_patches "$series" | while read -r p; do
         printf 'patch %s %s\n' "${p##*/}" "$(sha256_of "$p")"
      done
   } | sha256sum | cut -d' ' -f1
}

# True when a patch changes a file that autotools generate from.
patch_touches_autotools() {
   grep -qE '^\+\+\+ b/(.*/)?(Makefile\.am|configure\.ac|[^/]*\.m4)$' "$1"
}
