#!/bin/bash
# End-to-end call-graph checks: real programs under Callgrind, their call
# graph read with callgrind-utils, compared with an expectation written by
# hand from the program's source.
#
#   ARCH=x86_64|arm64 VALGRIND=... UTILS=... tests/e2e/run.sh [FIXTURE...]
#
# A fixture is a C or C++ file tests/e2e/src/NAME.c|.cc (or the demo
# program tests/sample/sample.c) with an expected edge list
# tests/e2e/expected/NAME.edges: one 'caller -> callee calls' line per
# edge between the fixture's own functions (its program and the shared
# libraries it builds), sorted.  Each fixture is built at -O0 and -O2
# (OPTS overrides) with the architecture's compiler; both builds must
# show the expected edges.  Comment lines in the source set extras:
#   // e2e-lib: libfoo         build src/libfoo.c as a shared library
#   // e2e-cflags: FLAGS       added to the compile flags
#   // e2e-ldflags: FLAGS      added to the link flags
#   // e2e-utils: OPTIONS      added to the callgrind-utils reads
# Sibling calls are off unless a fixture turns them on (tail-recursion
# elimination would otherwise change recursive call counts at -O2).
#
# On arm64, each fixture's edges must also equal those of the x86_64 run
# (build/e2e/x86_64, when it exists: make check-e2e runs first).
# SNAPSHOTS=check|update|off: compare the own-function folded stacks with
# tests/e2e/snapshots/NAME-OPT.folded (default check), or rewrite them.
# On failure the profile and the diffs are kept in build/e2e/ARCH.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib.sh"

ARCH=${ARCH:-x86_64}
VALGRIND=${VALGRIND:-$BUILD/install/bin/valgrind}
UTILS=${UTILS:-$BUILD/utils/callgrind-utils}
OPTS=${OPTS:-O0 O2}
SNAPSHOTS=${SNAPSHOTS:-check}
E2E=$TOP/tests/e2e
OUT=${E2E_OUT:-$BUILD/e2e/$ARCH}
case $ARCH in
   x86_64) CC=${CC:-gcc} CXX=${CXX:-g++} ;;
   arm64)  CC=${CC_ARM64:-aarch64-linux-gnu-gcc} CXX=${CXX_ARM64:-aarch64-linux-gnu-g++} ;;
   *)      die "unknown ARCH $ARCH" ;;
esac
[ -x "$VALGRIND" ] || die "$VALGRIND is not built"
[ -x "$UTILS" ] || die "$UTILS is not built"
case $SNAPSHOTS in check|update|off) ;; *) die "SNAPSHOTS must be check, update or off" ;; esac

fixture_source() {
   case $1 in
      sample) printf '%s\n' "$TOP/tests/sample/sample.c" ;;
      *)      ls "$E2E/src/$1.c" "$E2E/src/$1.cc" 2>/dev/null | head -1 ;;
   esac
}

# The value of a '// e2e-KEY: value' line of a source.
fixture_opt() { sed -n "s|^// e2e-$2: *||p" "$1"; }

# Functions the toolchain links into every program (crt1.o, crti.o,
# crtbegin.o): not the fixture's own.  arm64's crti.o has call_weak_fn,
# called from _init; x86_64's has no such function.
CRT_FUNCS='^(_start|_init|_fini|call_weak_fn|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux|_dl_relocate_static_pie)$'

# The edges between named functions of the given objects, without cost.
# 'edges --names full' prints 'file:fn [object] -> file:fn [object]
# calls cost'.
# UTILS_ARGS: the fixture's e2e-utils options.
own_edges() {   # own_edges PROFILE OBJECT...
   local profile=$1; shift
   # shellcheck disable=SC2086
   "$UTILS" edges $UTILS_ARGS --names full "$profile" |
      awk -v objs="$*" -v crt="$CRT_FUNCS" '
         BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) own["[" o[i] "]"] = 1 }
         function fn(s) { sub(" \\[[^[]*\\]$", "", s); sub("^[^:(]*:", "", s); return s }
         function obj(s) { return substr(s, match(s, "\\[[^[]*\\]$")) }
         {
            if (split($0, w, " -> ") != 2) next
            m = split(w[2], f, " "); calls = f[m - 1]
            callee = w[2]; sub(" [0-9]+ [0-9]+$", "", callee)
            if (!(obj(w[1]) in own) || !(obj(callee) in own)) next
            caller = fn(w[1]); callee = fn(callee)
            # crt code without symbols (0x...) is not the program'"'"'s own.
            if (caller ~ /^0x/ || callee ~ /^0x/) next
            if (caller ~ crt || callee ~ crt) next
            print caller " -> " callee " " calls
         }' | LC_ALL=C sort
}

# The folded stacks of the profile without costs, reduced to the frames of
# the given objects (by basename, after redact): a root-to-leaf path of
# the fixture's own functions per line.
own_stacks() {  # own_stacks PROFILE OBJECT...
   local profile=$1; shift
   # shellcheck disable=SC2086
   "$UTILS" redact $UTILS_ARGS "$profile" |
      "$UTILS" fold --mode graph --min-fraction 0 --names full - |
      awk -v objs="$*" -v crt="$CRT_FUNCS" '
         BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) { b = o[i]; sub(".*/", "", b); own["[" b "]"] = 1 } }
         {
            sub(" [0-9]+$", "")
            n = split($0, fr, ";"); s = ""
            for (i = 1; i <= n; i++) {
               ob = substr(fr[i], match(fr[i], "\\[[^[]*\\]$"))
               if (!(ob in own)) continue
               f = fr[i]; sub(" \\[[^[]*\\]$", "", f); sub("^[^:(]*:", "", f)
               if (f ~ /^0x/ || f ~ crt) continue
               s = s == "" ? f : s ";" f
            }
            if (s != "") print s
         }' | LC_ALL=C sort -u
}

build_fixture() {   # build_fixture SRC DIR NAME OPT -> prints the objects
   local src=$1 dir=$2 name=$3 opt=$4 cc=$CC lib cflags ldflags objs
   case $src in *.cc) cc=$CXX ;; esac
   cflags="-$opt -g -fno-optimize-sibling-calls -fno-reorder-blocks-and-partition -I$E2E/src $(fixture_opt "$src" cflags)"
   [ "$name" = sample ] && cflags="-O1 -g -fno-inline"
   ldflags=$(fixture_opt "$src" ldflags)
   objs=$dir/$name
   for lib in $(fixture_opt "$src" lib); do
      "$CC" $cflags -fPIC -shared -o "$dir/$lib.so" "$E2E/src/$lib.c" || return 1
      ldflags="$ldflags -L$dir -l${lib#lib} -Wl,-rpath,$dir"
      objs="$objs $dir/$lib.so"
   done
   # shellcheck disable=SC2086
   "$cc" $cflags -o "$dir/$name" "$src" $ldflags || return 1
   echo "$objs"
}

run_fixture() {   # run_fixture NAME OPT
   local name=$1 opt=$2 src exp dir bin objs snap x86
   src=$(fixture_source "$name")
   exp=$E2E/expected/$name.edges
   [ -n "$src" ] && [ -f "$exp" ] || { echo "missing source or expectation for $name"; return 1; }
   UTILS_ARGS=$(fixture_opt "$src" utils)
   dir=$OUT/$opt; bin=$dir/$name
   mkdir -p "$dir"
   objs=$(build_fixture "$src" "$dir" "$name" "$opt") || return 1
   # One level of recursion context: recursion shows as a self edge
   # (fib -> fib), not as 'N clones, so the expectation stays readable.
   # shellcheck disable=SC2086
   "$VALGRIND" --tool=callgrind --separate-recs=1 --callgrind-out-file="$bin.callgrind" \
      ${VG_ARGS:-} "$bin" > "$bin.stdout" 2> "$bin.stderr" || { tail -5 "$bin.stderr"; return 1; }
   # shellcheck disable=SC2086
   own_edges "$bin.callgrind" $objs > "$bin.edges" || return 1
   local bad=0
   if ! diff -u --label expected --label "$ARCH -$opt" "$exp" "$bin.edges" > "$bin.edges.diff"; then
      cat "$bin.edges.diff"; bad=1
   fi
   x86=$BUILD/e2e/x86_64/$opt/$name.edges
   if [ "$ARCH" != x86_64 ] && [ -f "$x86" ] &&
      ! diff -u --label "x86_64 -$opt" --label "$ARCH -$opt" "$x86" "$bin.edges" > "$bin.xarch.diff"; then
      echo "edges differ between x86_64 and $ARCH:"; cat "$bin.xarch.diff"; bad=1
   fi
   if [ "$SNAPSHOTS" != off ]; then
      snap=$E2E/snapshots/$name-$opt.folded
      # shellcheck disable=SC2086
      own_stacks "$bin.callgrind" $objs > "$bin.folded" || return 1
      if [ "$SNAPSHOTS" = update ]; then
         mkdir -p "$E2E/snapshots"; cp "$bin.folded" "$snap"
      elif [ ! -f "$snap" ]; then
         echo "no snapshot ${snap#"$TOP"/} (make snapshots-update writes it)"; bad=1
      elif ! diff -u --label snapshot --label "$ARCH -$opt" "$snap" "$bin.folded" > "$bin.folded.diff"; then
         echo "folded stacks differ from the snapshot:"; cat "$bin.folded.diff"; bad=1
      fi
   fi
   [ "$bad" = 0 ]
}

mkdir -p "$OUT"
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || mapfile -t fixtures < "$E2E/fixtures"
passed=0 failed=0
for f in "${fixtures[@]}"; do
   for opt in $OPTS; do
      if out=$(run_fixture "$f" "$opt" 2>&1); then
         echo "ok   $ARCH -$opt $f"; passed=$((passed + 1))
      else
         echo "FAIL $ARCH -$opt $f (kept in ${OUT#"$TOP"/}/$opt)"; printf '%s\n' "$out" | sed 's/^/     /'
         failed=$((failed + 1))
      fi
   done
done
echo "e2e $ARCH: $passed passed, $failed failed"
[ "$failed" = 0 ]
