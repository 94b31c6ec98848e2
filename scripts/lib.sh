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

# The cross architecture ARCH of scripts/cross-arches: sets CROSS_TRIPLET,
# CROSS_QEMU, CROSS_CPU, CROSS_SUITE, CROSS_PYTHON and CROSS_DEBARCH
# (Debian's name of the architecture: ARCH unless the line names
# another), or dies.
load_cross_arch() {
   local line
   line=$(awk -v a="$1" '!/^[[:space:]]*(#|$)/ && $1 == a' "$TOP/scripts/cross-arches")
   [ -n "$line" ] || die "unknown cross architecture '$1' (scripts/cross-arches lists them)"
   # shellcheck disable=SC2034
   read -r _ CROSS_TRIPLET CROSS_QEMU CROSS_CPU CROSS_SUITE CROSS_PYTHON CROSS_DEBARCH <<< "$line"
   CROSS_DEBARCH=${CROSS_DEBARCH:-$1}
}

# The URI and keyring of the system's own Debian archive entry, so that
# no host name is written in this repository.
system_archive() {
   local f
   for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
      [ -r "$f" ] || continue
      awk '
         /^Types:/    { deb = ($0 ~ /[[:space:]]deb([[:space:]]|$)/) }
         /^URIs:/     { if (deb && uri == "" && $2 ~ /\/debian\/?$/) uri = $2 }
         /^Signed-By:/{ if (deb && key == "") key = $2 }
         END          { if (uri != "") print uri, key }' "$f" | head -n1 && return 0
   done
   [ -r /etc/apt/sources.list ] &&
      awk '$1 == "deb" && $NF != "" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
         /etc/apt/sources.list
}

# Known-failures lists (tests/known-failures/*.txt), one test a line:
#   <test> <fail|flaky> <reason...>
# KNOWN names the list; empty for none.
known_kind() {   # known_kind TEST: print fail|flaky|'' from the list
   [ -n "$KNOWN" ] && [ -f "$KNOWN" ] || return 0
   awk -v t="$1" '!/^[[:space:]]*(#|$)/ && $1 == t { print $2; exit }' "$KNOWN"
}

check_known_list() {
   [ -n "$KNOWN" ] || return 0
   [ -f "$KNOWN" ] || die "known-failures list $KNOWN does not exist"
   awk '!/^[[:space:]]*(#|$)/ && (NF < 3 || ($2 != "fail" && $2 != "flaky")) {
           printf "%s:%d: expected \"<test> <fail|flaky> <reason>\"\n", FILENAME, NR; bad = 1 }
        END { exit bad }' "$KNOWN" || exit 1
}
