#!/bin/bash
# The built valgrind package works and is the patched one.
#
#   tests/package/run.sh [VALGRIND_DEB]
#
# Unpacks the .deb (default: the one 'make deb' wrote to build/deb/) into
# a scratch root with dpkg -x, and runs its Callgrind there, with
# VALGRIND_LIB pointing into the root's libexec folder.  Checks:
#   - a stripped program's function names come from its build-id debug
#     file in a root named by NIX_DEBUG_INFO_DIRS (patch 0001), and do not
#     without it (so the check can tell);
#   - when the series has a patch that adds --obj-skip, the package's
#     Callgrind lists, accepts and honours it (libc's printf disappears);
#   - callgrind_control, callgrind_annotate and the man pages are there.
# Every check runs and reports; any failure fails the run.  Pointed at an
# unpatched Debian package the Nix check fails.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib.sh"

deb=${1:-}
if [ -z "$deb" ]; then
   deb=$(ls "$BUILD"/deb/valgrind_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -n1)
   [ -n "$deb" ] || die "no valgrind .deb in $BUILD/deb: run 'make deb' first"
fi
[ -f "$deb" ] || die "$deb: no such file"
for tool in dpkg-deb gcc objcopy readelf; do
   command -v "$tool" >/dev/null || die "$tool is needed (scripts/deps.sh base)"
done

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/package-test.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
root=$SCRATCH/root
dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed"
echo "package: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)"

# Debian installs the binary as valgrind.bin behind a wrapper script.
vg=$root/usr/bin/valgrind.bin
[ -x "$vg" ] || vg=$root/usr/bin/valgrind
export VALGRIND_LIB=$root/usr/libexec/valgrind
passed=0 failed=0
ok()   { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; shift; printf '     %s\n' "$@"; failed=$((failed + 1)); }

callgrind() {   # callgrind OUT PROG [VALGRIND-OPTIONS...]
   local out=$1 prog=$2; shift 2
   "$vg" --tool=callgrind --callgrind-out-file="$out" "$@" "$prog" \
      > "$out.stdout" 2> "$out.stderr"
}
own_names() {   # the fixture's function names a callgrind output file has
   sed -n 's/^c\{0,1\}fn=\(([0-9]*) \)\{0,1\}\(pkgfx_[a-z_]*\)$/\2/p' "$1" | sort -u | paste -sd' '
}

# The fixture, stripped, with its debug file at ROOT/.build-id/xx/rest.debug.
fx=$SCRATCH/fixture
gcc -O1 -g -fno-inline -Wl,--build-id -o "$fx.full" "$TOP/tests/package/fixture.c" ||
   die "cannot build the fixture"
id=$(readelf -n "$fx.full" | sed -n 's/^ *Build ID: *//p')
[ -n "$id" ] || die "the fixture has no build-id"
dbg=$SCRATCH/nix-debug/.build-id/${id:0:2}
mkdir -p "$dbg"
objcopy --only-keep-debug "$fx.full" "$dbg/${id:2}.debug" &&
   objcopy --strip-all "$fx.full" "$fx" || die "objcopy failed"

want="pkgfx_leaf pkgfx_outer"
if ! NIX_DEBUG_INFO_DIRS= callgrind "$SCRATCH/none.out" "$fx"; then
   fail "callgrind runs" "$(tail -n 5 "$SCRATCH/none.out.stderr")"
else
   ok "callgrind runs the fixture"
   got=$(own_names "$SCRATCH/none.out")
   # Without the variable the names must be missing, or the Nix check
   # below could not fail.
   if [ -z "$got" ]; then ok "stripped fixture has no names without a debug root"
   else fail "stripped fixture has no names without a debug root" "got: $got"; fi
   if NIX_DEBUG_INFO_DIRS=$SCRATCH/empty:$SCRATCH/nix-debug callgrind "$SCRATCH/nix.out" "$fx" &&
      [ "$(own_names "$SCRATCH/nix.out")" = "$want" ]; then
      ok "NIX_DEBUG_INFO_DIRS names the fixture's functions"
   else
      fail "NIX_DEBUG_INFO_DIRS names the fixture's functions" \
           "want: $want" "got:  $(own_names "$SCRATCH/nix.out" 2>/dev/null)"
   fi
fi

# --obj-skip, once the series has it.
if series_patches "$TOP/patches/series" | xargs grep -l -e '--obj-skip' >/dev/null 2>&1; then
   if "$vg" --tool=callgrind --help 2>&1 | grep -q -e '--obj-skip='; then
      ok "--help lists --obj-skip"
   else
      fail "--help lists --obj-skip" "the series adds it, the package lacks it"
   fi
   if callgrind "$SCRATCH/skip.out" "$fx" --obj-skip=libc.so.6; then
      ok "--obj-skip is accepted"
      # Honoured: libc's printf is a function of the plain run and of no
      # fn=/cfn= line of the skipping one.
      n_plain=$(grep -c -E '^c?fn=.*[^a-z_]printf$' "$SCRATCH/none.out" 2>/dev/null)
      n_skip=$(grep -c -E '^c?fn=.*[^a-z_]printf$' "$SCRATCH/skip.out")
      if [ "${n_plain:-0}" -gt 0 ] && [ "$n_skip" = 0 ]; then
         ok "--obj-skip=libc.so.6 drops printf from the call graph"
      else
         fail "--obj-skip=libc.so.6 drops printf from the call graph" \
              "printf lines: ${n_plain:-0} without the option, $n_skip with it"
      fi
   else
      fail "--obj-skip is accepted" "$(tail -n 3 "$SCRATCH/skip.out.stderr")"
   fi
else
   echo "skip --obj-skip: no patch of the series adds it"
fi

for f in usr/bin/callgrind_control usr/bin/callgrind_annotate \
         usr/share/man/man1/valgrind.1.gz usr/share/man/man1/callgrind_control.1.gz \
         usr/share/man/man1/callgrind_annotate.1.gz; do
   if [ -e "$root/$f" ]; then ok "$f is there"; else fail "$f is there" "missing"; fi
done
# callgrind_control is the package's Perl script and prints its usage.
if perl "$root/usr/bin/callgrind_control" -h 2>&1 | grep -q 'active callgrind runs'; then
   ok "callgrind_control -h prints its usage"
else
   fail "callgrind_control -h prints its usage" "$(perl "$root/usr/bin/callgrind_control" -h 2>&1 | head -n 3)"
fi

echo "package: $passed passed, $failed failed"
[ "$failed" = 0 ]
