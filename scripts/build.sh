#!/bin/bash
# Build a prepared source tree: copy it into its own build tree, run
# autogen when an autotools input changed, configure, make, install.
#
#   SRC=build/src TREE=build/x86_64/tree PREFIX=build/install \
#   HOST=aarch64-linux-gnu JOBS=2 CAPSTONE=auto scripts/build.sh [TESTDIR...]
#
# The copy is made with content checksums, and only files whose content
# changed are rewritten (with a fresh mtime), so a rebuild after editing a
# patch recompiles only what it touched.  TESTDIRs (e.g. callgrind/tests)
# get their test programs built with 'make -C DIR check'.
#
# When the series adds configure's --with-capstone (callgrind's
# --cycle-estimation), Capstone is built for the tool first
# (scripts/build-capstone.sh); CAPSTONE=no, or its source not being
# available, builds without it.  CONFIGURE_EXTRA adds options to
# configure's command line (make inner: --enable-inner).
#
# TOOLS (e.g. "cachegrind callgrind none") builds and installs only those
# tools: it is the top-level Makefile's list of tool directories, which
# no other Makefile uses, so make takes it from the command line.  A
# TESTDIR written DIR:PROG,PROG builds only those test programs of DIR
# (the cross architectures run three programs of memcheck/tests, of its
# two hundred).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=${SRC:-$BUILD/src}
TREE=${TREE:-$BUILD/x86_64/tree}
PREFIX=${PREFIX:-$BUILD/install}
HOST=${HOST:-}
JOBS=${JOBS:-$(nproc)}
CAPSTONE=${CAPSTONE:-auto}

[ -f "$SRC/.prepared" ] || die "$SRC is not a prepared tree: run 'make prepare'"
# Cross-configuring with QEMU_LD_PREFIX set lets binfmt run configure's
# probes, and configure then wrongly believes it is not cross-compiling.
unset QEMU_LD_PREFIX
# Keep autogen.sh and configure from finding this project's own git
# repository above the build tree.
export GIT_CEILING_DIRECTORIES=$BUILD

# Files autogen.sh writes.  Once a tree has been autogen'd they belong to
# the tree, and the copy must not put the tarball's versions back.
generated=(--exclude=Makefile.in --exclude=/Makefile.vex.in --exclude=/configure
           --exclude=/aclocal.m4 --exclude=/config.h.in --exclude=/config.h --exclude=/autom4te.cache)

sync_tree() {   # print the autotools inputs the copy changed
   local first=$1 excl=() items
   [ "$first" = yes ] || excl=("${generated[@]}")
   mkdir -p "$TREE"
   command -v rsync > /dev/null || die "rsync is not installed: run 'make deps' (as root)"
   # Kept apart from the filter below, whose '|| true' would hide a failed copy.
   items=$(rsync -rlp --checksum --itemize-changes --exclude=/.git --exclude=/.prepared \
                 "${excl[@]}" "$SRC"/ "$TREE"/) || die "copying $SRC to $TREE failed"
   printf '%s\n' "$items" | awk '$1 ~ /^>f/ { print $2 }' |
      grep -E '(^|/)(Makefile\.am|configure\.ac|[^/]*\.m4)$' || true
}

series_needs_autogen() {
   local p
   for p in $(series_patches "${SERIES-$TOP/patches/series}"); do
      patch_touches_autotools "$p" && return 0
   done
   return 1
}

# The configure option for Capstone, empty when the tree has no use for it
# or it cannot be built.
capstone_option() {
   local dir arch rc=0
   [ "$CAPSTONE" != no ] || return 0
   grep -q 'AC_ARG_WITH(capstone' "$SRC/configure.ac" || return 0
   # Only these have cycle tables (callgrind/cycles_table.c).
   arch=${HOST%%-*}
   case ${arch:-$(uname -m)} in x86_64|aarch64) ;; *) return 0 ;; esac
   dir=$(HOST=$HOST JOBS=$JOBS "$TOP/scripts/build-capstone.sh") || rc=$?
   case $rc in
      0) printf ' --with-capstone=%s' "$dir" ;;
      3) say "Capstone's source is not available: building without --cycle-estimation" ;;
      *) die "building Capstone failed" ;;
   esac
}

main() {
   local first=no changed want have
   [ -f "$TREE/.synced" ] || first=yes
   changed=$(sync_tree "$first")
   touch "$TREE/.synced"
   if { [ "$first" = yes ] && series_needs_autogen; } || { [ "$first" = no ] && [ -n "$changed" ]; }; then
      say "autotools inputs changed: running autogen.sh in $TREE"
      (cd "$TREE" && ./autogen.sh > autogen.log 2>&1) || die "autogen.sh failed, see $TREE/autogen.log"
      rm -f "$TREE/.configured"
   fi
   want="--prefix=$PREFIX${HOST:+ --host=$HOST}$(capstone_option)${CONFIGURE_EXTRA:+ $CONFIGURE_EXTRA}"
   have=$(cat "$TREE/.configured" 2>/dev/null || true)
   if [ "$want" != "$have" ]; then
      say "configure $want"
      # shellcheck disable=SC2086
      (cd "$TREE" && ./configure $want > configure.log 2>&1) ||
         die "configure failed, see $TREE/configure.log"
      printf '%s\n' "$want" > "$TREE/.configured"
   fi
   local tools=()
   [ -z "${TOOLS:-}" ] || tools=("TOOLS=$TOOLS" "EXP_TOOLS=")
   say "make -j$JOBS in $TREE${TOOLS:+ (tools: $TOOLS)}"
   make -C "$TREE" -j"$JOBS" -s "${tools[@]}" > "$TREE/make.log" 2>&1 ||
      { tail -n 30 "$TREE/make.log" >&2; die "build failed, see $TREE/make.log"; }
   make -C "$TREE" -s "${tools[@]}" install > "$TREE/install.log" 2>&1 ||
      { tail -n 30 "$TREE/install.log" >&2; die "install failed, see $TREE/install.log"; }
   local d progs
   for d in "$@"; do
      progs=check
      case $d in *:*) progs=" ${d#*:}"; progs=${progs//,/ }; d=${d%%:*} ;; esac
      say "building test programs in $d${progs#check}"
      # shellcheck disable=SC2086
      make -C "$TREE/$d" -j"$JOBS" -s $progs > "$TREE/check-build.log" 2>&1 ||
         { tail -n 30 "$TREE/check-build.log" >&2; die "building the tests of $d failed"; }
   done
}

main "$@"
