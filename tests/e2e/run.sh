#!/bin/bash
# End-to-end call-graph checks: real programs under Callgrind, their call
# graph read with callgrind-utils, compared with an expectation written by
# hand from the program's source.
#
#   ARCH=x86_64|arm64|riscv64|s390x... VALGRIND=... UTILS=... [KNOWN=list] tests/e2e/run.sh [FIXTURE...]
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
#   // e2e-arch: ARCH...       run only on these architectures (skipped
#                              elsewhere, with the reason from the source)
#   // e2e-utils: OPTIONS      added to the callgrind-utils reads
#   // e2e-vgopts: OPTIONS     added to the Valgrind options
#   // e2e-upstream-vgopts: OPTIONS  used instead of e2e-vgopts with
#                              UPSTREAM=1, for options pristine upstream
#                              lacks (it rejects --obj-skip)
#   // e2e-stacks: off REASON  no exact-stacks check against the
#                              --separate-callers run (REASON: why the
#                              two views differ for this fixture)
#   // e2e-absent: REGEX       no fn= or cfn= line of the raw profile
#                              names a function matching REGEX
#   // e2e-perfmap: yes        the program writes /tmp/perf-PID.map for
#                              its JIT code: the profile is symbolized
#                              with it before it is read, and the JIT
#                              code counts as the fixture's own (see
#                              JIT_OBJ)
# Sibling calls are off unless a fixture turns them on (tail-recursion
# elimination would otherwise change recursive call counts at -O2).
#
# ARCH is x86_64 or a cross architecture of scripts/cross-arches, built
# with its cross compiler and run under qemu-user (scripts/cross-setup.sh).
# On a cross architecture, each fixture's edges must also equal those of the x86_64 run
# (E2E_XREF, default build/e2e/x86_64, when it exists: make check-e2e
# runs first).
# Runtime fixtures (src/NAME.py, src/NAME.js) run an interpreter or a JIT
# runtime of the machine (python3, node) once, not at each -O level, and
# check properties that must hold instead of an edge list: see run_python
# and run_node.  python3 runs on every architecture (on a cross one,
# Debian's python of that architecture from the sysroot), node on x86_64
# only (docs/e2e.md says why).
# UPSTREAM=1: the Valgrind under test is pristine upstream (e2e-upstream-
# vgopts apply).  E2E_RESULTS=FILE appends one 'ARCH OPT FIXTURE ok|FAIL
# KINDS' line per run, KINDS saying how the graph is wrong (see
# failure_kinds); scripts/fidelity.sh makes docs/fidelity.md from it.
# SNAPSHOTS=check|update|off: compare the own-function folded stacks with
# tests/e2e/snapshots/NAME-OPT.folded (default check), or rewrite them.
# Exact stacks: with the series, each C/C++ fixture runs with
# --collect-stacks=yes, its exact stacks must add up to the totals, and
# in a second run with --separate-callers=300 too, the exact stacks
# (every frame, with their Ir; on x86_64 every event of the cache and
# branch simulators) must equal the stacks the profile's names give
# (see stacks_check).  STACKS=off skips that second run.
# On failure the profile and the diffs are kept in build/e2e/ARCH.
# E2E_TIMEOUT (default 120 s): a Valgrind run that takes longer is killed
# and fails (the slowest known is python on arm64, about 15 s).
# KNOWN: a known-failures list (the regtest's, tests/known-failures/ARCH.txt)
# whose e2e lines name runs as e2e/OPT/FIXTURE (e2e/O2/longjmp) or
# e2e/runtime/FIXTURE: a listed 'fail' must fail (a pass fails the run),
# a 'flaky' may go either way, and any other failure fails the run.
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
XREF=${E2E_XREF:-$BUILD/e2e/x86_64}
UPSTREAM=${UPSTREAM:-0}
# The include directory of the Valgrind under test, for valgrind/callgrind.h.
VG_INC=$(cd "$(dirname "$VALGRIND")/../include" 2>/dev/null && pwd)
# Code outside any ELF object (JIT code in an anonymous mapping) has the
# object '???' in Callgrind's output.  Only fixtures with e2e-perfmap take
# it as their own, by the token @jit in their object list (a bare ??? would
# be a shell glob); of it, only what the perf map names is kept (the
# unnamed rest is 0x... and dropped like crt code without symbols).
JIT_OBJ=@jit
case $ARCH in
   x86_64) CC=${CC:-gcc} CXX=${CXX:-g++} ;;
   *)      load_cross_arch "$ARCH"
           CC=${CROSS_CC:-$CROSS_TRIPLET-gcc} CXX=${CROSS_CXX:-$CROSS_TRIPLET-g++} ;;
esac
KNOWN=${KNOWN:-}
check_known_list
[ -x "$VALGRIND" ] || die "$VALGRIND is not built"
[ -x "$UTILS" ] || die "$UTILS is not built"
case $SNAPSHOTS in check|update|off) ;; *) die "SNAPSHOTS must be check, update or off" ;; esac
STACKS=${STACKS:-on}
# Pristine upstream has no exact stacks.
STACKS_OPT=--collect-stacks=yes
[ "$UPSTREAM" = 1 ] && STACKS_OPT=
# The simulators of the --separate-callers run of stacks_check: natively
# only (under qemu-user they would double the time of that run).
CALLERS_SIM=
[ "$ARCH" = x86_64 ] && CALLERS_SIM="--cache-sim=yes --branch-sim=yes"

E2E_TIMEOUT=${E2E_TIMEOUT:-120}
# Valgrind under that limit: a hung run fails instead of stopping the suite.
run_valgrind() {
   local rc=0
   timeout -s KILL "$E2E_TIMEOUT" "$VALGRIND" "$@" || rc=$?
   [ $rc != 137 ] || echo "E2E-TIMEOUT: valgrind killed after ${E2E_TIMEOUT}s" >&2
   return $rc
}

fixture_source() {
   case $1 in
      sample) printf '%s\n' "$TOP/tests/sample/sample.c" ;;
      *)      ls "$E2E/src/$1.c" "$E2E/src/$1.cc" "$E2E/src/$1.py" "$E2E/src/$1.js" 2>/dev/null | head -1 ;;
   esac
}

# The value of a '// e2e-KEY: value' line of a source.
fixture_opt() { sed -n "s|^// e2e-$2: *||p" "$1"; }

# The fixture's Valgrind options for the Valgrind under test.
fixture_vgopts() {
   if [ "$UPSTREAM" = 1 ] && grep -q '^// e2e-upstream-vgopts:' "$1"; then
      fixture_opt "$1" upstream-vgopts
   else
      fixture_opt "$1" vgopts
   fi
}

# Functions the toolchain links into every program (crt1.o, crti.o,
# crtbegin.o): not the fixture's own.  arm64's crti.o has call_weak_fn,
# called from _init; riscv64's crt1.o has load_gp, called from _start;
# x86_64's have no such function.  Nor is the millicode that riscv64's
# -msave-restore links from libgcc (__riscv_save_N, __riscv_restore_N).
# With --separate-callers a name has its callers after it (f'caller).
CRT_FUNCS='^(_start|_init|_fini|call_weak_fn|load_gp|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux|_dl_relocate_static_pie|__riscv_(save|restore)_[0-9]+)('"'"'.*)?$'

# The edges between named functions of the given objects, without cost.
# 'edges --names full' prints 'file:fn [object] -> file:fn [object]
# calls cost'.
# UTILS_ARGS: the fixture's e2e-utils options.
own_edges() {   # own_edges PROFILE OBJECT...
   local profile=$1; shift
   # shellcheck disable=SC2086
   "$UTILS" edges $UTILS_ARGS --names full "$profile" |
      awk -v objs="$*" -v crt="$CRT_FUNCS" '
         BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) own["[" (o[i] == "@jit" ? "???" : o[i]) "]"] = 1 }
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
      "$UTILS" fold --all-frames --mode graph --min-fraction 0 --names full - |
      awk -v objs="$*" -v crt="$CRT_FUNCS" '
         BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) { b = o[i]; sub(".*/", "", b); own["[" (b == "@jit" ? "???" : b) "]"] = 1 } }
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
   cflags="-$opt -g -fno-optimize-sibling-calls -fno-reorder-blocks-and-partition -I$E2E/src -I$VG_INC $(fixture_opt "$src" cflags)"
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

# How an edge list differs from the expected one, as words for the
# fidelity table: clones ('N in a name where the expectation has none),
# self-loops, inverted (b -> a where a -> b is expected), contexts (an
# expected edge with a caller context lost or wrong, --separate-callers),
# phantom (an edge that should not exist), missing, counts (right edge,
# wrong count).
failure_kinds() {   # failure_kinds EXPECTED ACTUAL
   awk '
      function pair(l,  w) { split(l, w, " "); return w[1] " -> " w[3] }
      function count(l,  w) { split(l, w, " "); return w[4] }
      function bare(p) { gsub(/\x27[^ ]*/, "", p); return p }
      FNR == NR { e[pair($0)] = count($0); eb[bare(pair($0))] = 1; next }
      { a[pair($0)] = count($0) }
      END {
         for (p in a) {
            split(p, w, " -> ")
            if (p ~ /\x27[0-9]/ && !(p in e)) k["clones"] = 1
            else if (!(p in e) && w[1] == w[2]) k["self-loops"] = 1
            else if (!(p in e) && ((w[2] " -> " w[1]) in e)) k["inverted"] = 1
            else if (!(p in e) && (bare(p) in eb)) k["contexts"] = 1
            else if (!(p in e)) k["phantom"] = 1
            else if (a[p] != e[p]) k["counts"] = 1
         }
         for (p in e) if (!(p in a)) k["missing"] = 1
         n = split("clones self-loops inverted contexts phantom missing counts", order, " ")
         for (i = 1; i <= n; i++) if (order[i] in k) printf "%s ", order[i]
      }' "$1" "$2"
}

# The fn=/cfn= lines of a raw profile that name a function matching
# REGEX.  Names are compressed: 'fn=(12) name' the first time, 'fn=(12)'
# after, so every name is seen in full once.
named_in_profile() {   # named_in_profile PROFILE REGEX
   grep -E "^c?fn=(\([0-9]+\) )?.*($2)" "$1"
}

# Symbolizes PROFILE with the perf map of the process that wrote it
# (/tmp/perf-PID.map, PID from the profile's 'pid:' line), keeps the map
# next to it, and prints the symbolized profile's name.
symbolize_profile() {   # symbolize_profile PROFILE
   local pid map
   pid=$(sed -n 's/^pid: *//p' "$1" | head -1)
   map=/tmp/perf-$pid.map
   [ -n "$pid" ] && [ -f "$map" ] || { echo "no perf map $map for $1" >&2; return 1; }
   mv "$map" "${1%.callgrind}.perf.map"
   "$UTILS" symbolize --perf-map "${1%.callgrind}.perf.map" -o "${1%.callgrind}.sym.callgrind" "$1" || return 1
   echo "${1%.callgrind}.sym.callgrind"
}

run_fixture() {   # run_fixture NAME OPT
   local name=$1 opt=$2 src exp dir bin objs snap x86 profile absent vgopts
   src=$(fixture_source "$name")
   case $src in *.py) run_python "$src"; return ;; *.js) run_node "$src"; return ;; esac
   exp=$E2E/expected/$name.edges
   [ -n "$src" ] && [ -f "$exp" ] || { echo "missing source or expectation for $name"; return 1; }
   UTILS_ARGS=$(fixture_opt "$src" utils)
   dir=$OUT/$opt; bin=$dir/$name
   mkdir -p "$dir"
   rm -f "$bin.kinds"
   objs=$(build_fixture "$src" "$dir" "$name" "$opt") || { echo build > "$bin.kinds"; return 1; }
   vgopts=$(fixture_vgopts "$src")
   # One level of recursion context: recursion shows as a self edge
   # (fib -> fib), not as 'N clones, so the expectation stays readable.
   # shellcheck disable=SC2086
   rm -f "$bin.callgrind.stacks"
   if ! run_valgrind --tool=callgrind --separate-recs=1 --callgrind-out-file="$bin.callgrind" \
      $STACKS_OPT $vgopts ${VG_ARGS:-} "$bin" > "$bin.stdout" 2> "$bin.stderr"; then
      tail -5 "$bin.stderr"
      if grep -q 'Unknown option\|Bad option' "$bin.stderr"; then echo "option-rejected" > "$bin.kinds"
      else echo "run-failed" > "$bin.kinds"; fi
      return 1
   fi
   local bad=0 kinds=""
   absent=$(fixture_opt "$src" absent)
   if [ -n "$absent" ] && named_in_profile "$bin.callgrind" "$absent" > "$bin.absent"; then
      echo "functions matching '$absent' appear in the profile:"; sed 's/^/  /' "$bin.absent"
      bad=1; kinds="leaks "
   fi
   profile=$bin.callgrind
   if [ "$(fixture_opt "$src" perfmap)" = yes ]; then
      profile=$(symbolize_profile "$bin.callgrind") || { echo symbolize > "$bin.kinds"; return 1; }
      objs="$objs $JIT_OBJ"
   fi
   # shellcheck disable=SC2086
   own_edges "$profile" $objs > "$bin.edges" || return 1
   if ! diff -u --label expected --label "$ARCH -$opt" "$exp" "$bin.edges" > "$bin.edges.diff"; then
      cat "$bin.edges.diff"; bad=1
      kinds="$kinds$(failure_kinds "$exp" "$bin.edges")"
   fi
   x86=$XREF/$opt/$name.edges
   if [ "$ARCH" != x86_64 ] && [ -f "$x86" ] &&
      ! diff -u --label "x86_64 -$opt" --label "$ARCH -$opt" "$x86" "$bin.edges" > "$bin.xarch.diff"; then
      echo "edges differ between x86_64 and $ARCH:"; cat "$bin.xarch.diff"; bad=1
      kinds="${kinds}xarch "
   fi
   if [ "$SNAPSHOTS" != off ]; then
      snap=$E2E/snapshots/$name-$opt.folded
      # shellcheck disable=SC2086
      own_stacks "$profile" $objs > "$bin.folded" || return 1
      if [ "$SNAPSHOTS" = update ]; then
         mkdir -p "$E2E/snapshots"; cp "$bin.folded" "$snap"
      elif [ ! -f "$snap" ]; then
         echo "no snapshot ${snap#"$TOP"/} (make snapshots-update writes it)"; bad=1
      elif ! diff -u --label snapshot --label "$ARCH -$opt" "$snap" "$bin.folded" > "$bin.folded.diff"; then
         echo "folded stacks differ from the snapshot:"; cat "$bin.folded.diff"; bad=1
         kinds="${kinds}snapshot "
      fi
   fi
   if [ -n "$STACKS_OPT" ] && [ "$STACKS" != off ] &&
      [ "$(fixture_opt "$src" stacks | cut -d' ' -f1)" != off ] &&
      ! stacks_check "$bin" "$vgopts"; then
      bad=1; kinds="${kinds}stacks "
   fi
   echo "$kinds" > "$bin.kinds"
   [ "$bad" = 0 ]
}

# Folded stacks on stdin, made comparable between the exact stacks and a
# --separate-callers run: recursion clone suffixes ('N) dropped, a
# direct recursion (f;f;f) made one frame (--separate-callers does not
# tell its levels apart: a call of a function by itself keeps the
# context), and a signal handler's frames cut from below the [signal N]
# node (the profile has the handler as a root), and inlined functions
# left out where a real function is called from them (a --separate-callers
# context names only real callers; the inlined functions at the top of a
# stack are in the profile's names), then equal stacks summed.
comparable_stacks() {
   awk '{
      v = $NF; sub(/ [0-9]+$/, "")
      n = split($0, f, ";"); s = ""; prev = ""
      top = n; while (top > 0 && f[top] ~ / \[inlined\]$/) top--
      for (i = 1; i <= n; i++) {
         fr = f[i]; sub(/\x27[0-9]+$/, "", fr)
         if (i < top && fr ~ / \[inlined\]$/) continue
         if (fr ~ /^\[signal [0-9]+\]$/) { s = ""; prev = ""; continue }
         if (fr == prev) continue
         s = s == "" ? fr : s ";" fr; prev = fr
      }
      sum[s] += v
   } END { for (k in sum) print k, sum[k] }' | LC_ALL=C sort
}

# The exact stacks (--collect-stacks=yes) against the other exact way:
# a second run with both --collect-stacks=yes and --separate-callers=300,
# deeper than any fixture, and with --read-inline-info=yes, so that the
# inlined functions are frames too.  Its exact stacks and the stacks its profile
# names (callers in the function names) must be the same, every frame
# with its Ir: the same run, so that thread scheduling, which varies
# from run to run, cannot tell them apart.  On x86_64 that run simulates
# the caches and the branch predictor too (CALLERS_SIM), and every
# event must be the same: misses and mispredictions are the events
# the tree charges apart from the others (see cct.c's flush).  And the
# exact stacks of the main run must add up to its profile's totals:.
stacks_check() {   # stacks_check BIN VGOPTS
   local bin=$1 vgopts=$2 total sum
   [ -s "$bin.callgrind.stacks" ] || { echo "no exact stacks $bin.callgrind.stacks"; return 1; }
   # shellcheck disable=SC2086
   "$UTILS" fold --all-frames --names function --mode exact $UTILS_ARGS "$bin.callgrind" | comparable_stacks > "$bin.exact.folded" || return 1
   total=$(sed -n 's/^totals: *//p' "$bin.callgrind" | awk '{ s += $1 } END { print s + 0 }')
   sum=$(awk '{ s += $NF } END { print s + 0 }' "$bin.exact.folded")
   if [ "$total" != "$sum" ]; then
      echo "exact stacks add up to $sum, the profile's totals: to $total"; return 1
   fi
   # Every other event the profile has (Ct and Cl of --cycle-estimation),
   # read by callgrind-utils like Ir, adds up too.
   local ev col=0
   for ev in $(sed -n 's/^events: *//p' "$bin.callgrind" | head -n1); do
      col=$((col + 1)); [ "$col" -gt 1 ] || continue   # Ir: checked above
      total=$(sed -n 's/^totals: *//p' "$bin.callgrind" | awk -v c=$col '{ s += $c } END { print s + 0 }')
      # shellcheck disable=SC2086
      sum=$("$UTILS" fold --all-frames --names function --mode exact --event "$ev" $UTILS_ARGS "$bin.callgrind" |
            awk '{ s += $NF } END { print s + 0 }')
      if [ "$total" != "$sum" ]; then
         echo "exact stacks of $ev add up to $sum, the profile's totals: to $total"; return 1
      fi
   done
   rm -f "$bin.callers.callgrind" "$bin.callers.callgrind.stacks" "$bin.callers.stacks"
   # shellcheck disable=SC2086
   # After the fixture's options: the last --separate-callers counts.
   if ! run_valgrind --tool=callgrind --callgrind-out-file="$bin.callers.callgrind" \
         $vgopts ${VG_ARGS:-} --separate-recs=1 --separate-callers=300 --collect-stacks=yes \
         --read-inline-info=yes $CALLERS_SIM "$bin" \
         > "$bin.callers.stdout" 2> "$bin.callers.stderr"; then
      echo "the --separate-callers run failed:"; tail -5 "$bin.callers.stderr"; return 1
   fi
   # Away from the profile, so that the profile is read by its names.
   mv "$bin.callers.callgrind.stacks" "$bin.callers.stacks" || return 1
   for ev in $(sed -n 's/^events: *//p' "$bin.callers.callgrind" | head -n1); do
      # shellcheck disable=SC2086
      "$UTILS" fold --all-frames --names function --mode exact --event "$ev" $UTILS_ARGS "$bin.callers.callgrind" | comparable_stacks > "$bin.callers.folded" || return 1
      # shellcheck disable=SC2086
      "$UTILS" fold --all-frames --names function --mode exact --event "$ev" $UTILS_ARGS "$bin.callers.stacks" | comparable_stacks > "$bin.callers.exact.folded" || return 1
      if ! diff -u --label "--separate-callers=300" --label "--collect-stacks=yes" \
            "$bin.callers.folded" "$bin.callers.exact.folded" > "$bin.stacks.diff"; then
         echo "exact stacks of $ev differ from the --separate-callers stacks of the same run:"
         head -20 "$bin.stacks.diff"; return 1
      fi
   done
}

# Runtime fixtures.  Their C code is the machine's (python3, node), so
# there is no hand-written edge list; what is checked holds for any
# correct call graph of these runs and fails on the bugs this project
# fixes.  Each writes its verdict words to $OUT/runtime/NAME.kinds.

# python3 (Debian's, not a pyenv shim, which is a shell script) runs
# src/NAME.py, which checks its own result.  With Callgrind's default
# options, the profile must show
# - the interpreter's eval loop, _PyEval_EvalFrameDefault, as a function;
# - Py_BytesMain called exactly once, by main (the function (below main)
#   calls, nameless in Debian's stripped binary);
# - no 'N clone of main, Py_BytesMain or Py_RunMain: they do not recurse,
#   and fake recursion ('N clones) is the arm64 signature of wrong returns;
# - folded stacks (graph mode, built from the edges) adding up to the
#   profile's summary.
run_python() {   # run_python SRC
   local src=$1 name dir bin py total folded main bad=0 kinds=""
   # On a cross architecture, Debian's python of that architecture from
   # the sysroot (scripts/cross-setup.sh), run under qemu-user.
   case $ARCH in
      x86_64) py=${PYTHON:-/usr/bin/python3} ;;
      *)      py=${CROSS_PYTHON_BIN:-$BUILD/$ARCH/sysroot/usr/bin/$CROSS_PYTHON} ;;
   esac
   name=$(basename "$src" .py); dir=$OUT/runtime; bin=$dir/$name
   mkdir -p "$dir"; rm -f "$bin.kinds"
   [ -x "$py" ] || { echo "no $py (scripts/deps.sh base installs python3)"; echo missing-runtime > "$bin.kinds"; return 1; }
   # shellcheck disable=SC2086
   if ! run_valgrind --tool=callgrind --callgrind-out-file="$bin.callgrind" ${VG_ARGS:-} \
         "$py" -S -E "$src" > "$bin.stdout" 2> "$bin.stderr"; then
      tail -5 "$bin.stderr"; echo run-failed > "$bin.kinds"; return 1
   fi
   "$UTILS" edges --names function "$bin.callgrind" > "$bin.edges" || return 1
   if ! grep -q -- '-> _PyEval_EvalFrameDefault ' "$bin.edges"; then
      echo "_PyEval_EvalFrameDefault is not called in the profile"; bad=1; kinds="missing "
   fi
   # Debian's python3 has no symbol for main: take the caller of
   # Py_BytesMain, and (below main) must call it.  On arm64 the address
   # libc calls as main is a 'nop; b main' trampoline that lies inside
   # _start's symbol, so that caller is (below main)'2 there: a name
   # with a space, hence the parsing by ' -> '.
   main=$(awk -F' -> ' 'NF == 2 {
            callee = $2; sub(/ [0-9]+ [0-9]+$/, "", callee)
            if (callee == "Py_BytesMain") { n++; split($2, w, " "); c = $1 "\t" w[length(w) - 1] } }
         END { if (n == 1) print c }' "$bin.edges")
   local calls=${main##*$'\t'}
   main=${main%$'\t'*}
   if [ "$calls" != 1 ]; then
      echo "Py_BytesMain is not called once, by one caller:"
      grep -- '-> Py_BytesMain' "$bin.edges" | head -5; bad=1; kinds="${kinds}counts "
   elif ! awk -F' -> ' -v c="$main" '$1 == "(below main)" && index($2, c " 1 ") == 1 { ok = 1 } END { exit !ok }' "$bin.edges"; then
      # A node between them that the program does not call (upstream
      # arm64 makes the trampoline's plain B a call).
      echo "Py_BytesMain is not called by the function (below main) calls:"
      grep -- '-> Py_BytesMain' "$bin.edges" | head -5; bad=1; kinds="${kinds}phantom "
   fi
   # An extra clone of those, at a name boundary ('main'2, not 'main'2'3
   # of a caller named main'2).
   if awk -F' -> ' -v m="${main:-main}" '
         function clone(name, b) { return index(name, b "'"'"'") == 1 && substr(name, length(b) + 2) ~ /^[0-9]+$/ }
         NF == 2 { callee = $2; sub(/ [0-9]+ [0-9]+$/, "", callee)
                   for (i = 1; i <= 3; i++) { b = i == 1 ? m : i == 2 ? "Py_BytesMain" : "Py_RunMain"
                      if (clone($1, b) || clone(callee, b)) { print; break } } }' "$bin.edges" > "$bin.clones" &&
      [ -s "$bin.clones" ]; then
      echo "clones of non-recursive functions:"; head -5 "$bin.clones"; bad=1; kinds="${kinds}clones "
   fi
   total=$(sed -n 's/^summary: *//p' "$bin.callgrind" | awk '{ print $1 }')
   # fold's default --min-fraction: a share below it follows its heaviest
   # caller, so the sum is kept and the stacks stay bounded (with 0,
   # python3.13's graph on riscv64 reconstructs past 50 million frames in
   # some runs and not in others)
   folded=$("$UTILS" fold --all-frames --mode graph "$bin.callgrind" | awk '{ s += $NF } END { print s + 0 }')
   if [ "$total" != "$folded" ]; then
      echo "folded stacks add up to $folded, the summary is $total"; bad=1; kinds="${kinds}totals "
   fi
   echo "$kinds" > "$bin.kinds"
   [ "$bad" = 0 ]
}

# node runs src/NAME.js (which checks its own result) with
# --perf-basic-prof, so V8 writes /tmp/perf-PID.map for the code it
# compiles.  Symbolized with that map, the profile must name a JS
# function of our script (fib, 'JS:<tier>fib PATH:LINE:COL'), and show it
# calling itself: JIT code calling JIT code is a call in the graph.
# Only optimized code (TurboFan, '*fib') calls fib directly: baseline
# code ('^fib') calls it through a chain of Builtins_Call* trampolines.
# By default V8 optimizes on a background thread, and under Valgrind,
# which runs one thread at a time, whether that job finishes before the
# script does depends on the scheduling: the check went either way from
# run to run.  --no-concurrent-recompilation optimizes on the main thread
# as soon as fib is hot, so the run is the same every time.
run_node() {   # run_node SRC
   local src=$1 name dir bin node=${NODE:-node} sym bad=0 kinds="" fib
   name=$(basename "$src" .js); dir=$OUT/runtime; bin=$dir/$name
   mkdir -p "$dir"; rm -f "$bin.kinds"
   command -v "$node" > /dev/null || { echo "no node (scripts/deps.sh base installs nodejs)"; echo missing-runtime > "$bin.kinds"; return 1; }
   # From $dir: V8 writes an isolate-*-v8.log into the working directory.
   # shellcheck disable=SC2086
   if ! (cd "$dir" && run_valgrind --tool=callgrind --separate-recs=1 --callgrind-out-file="$bin.callgrind" \
         ${VG_ARGS:-} "$node" --perf-basic-prof --no-concurrent-recompilation "$src" > "$bin.stdout" 2> "$bin.stderr"); then
      tail -5 "$bin.stderr"; echo run-failed > "$bin.kinds"; return 1
   fi
   sym=$(symbolize_profile "$bin.callgrind") || { echo symbolize > "$bin.kinds"; return 1; }
   "$UTILS" edges --names function "$sym" > "$bin.edges" || return 1
   # A JS function of the script: V8's tag ('JS:' in node 20; older V8s,
   # like bookworm's node 18, say 'LazyCompile:' or 'Function:'), the tier
   # mark (~ ^ + *), the name and where it is defined.
   fib="[A-Za-z]+:[~^+*]?fib $src(:[0-9]+)+"
   if ! grep -Eq "(^|-> )$fib " "$bin.edges"; then
      echo "no JS function fib of $src in the symbolized profile"; bad=1; kinds="missing "
   elif ! grep -Eq "^$fib -> $fib [0-9]+ " "$bin.edges"; then
      echo "fib never calls fib:"; grep -E "$fib" "$bin.edges" | head -5; bad=1; kinds="${kinds}missing "
   fi
   echo "$kinds" > "$bin.kinds"
   [ "$bad" = 0 ]
}

mkdir -p "$OUT"
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || mapfile -t fixtures < "$E2E/fixtures"

# record OPT FIXTURE ok|FAIL|skip KINDS: one line of E2E_RESULTS.
record() {
   [ -n "${E2E_RESULTS:-}" ] || return 0
   printf '%s %s %s %s %s\n' "$ARCH" "$1" "$2" "$3" "$4" >> "$E2E_RESULTS"
}

passed=0 failed=0 skipped=0 known=0
for f in "${fixtures[@]}"; do
   opts=$OPTS
   case $(fixture_source "$f") in *.py|*.js) opts=- ;; esac
   for opt in $opts; do
      if [ "$opt" = - ] && [ "$ARCH" != x86_64 ] && [ "$f" = node ]; then
         echo "skip $ARCH $f (node runs on x86_64 only: docs/e2e.md)"
         record "$opt" "$f" skip ""; skipped=$((skipped + 1)); continue
      fi
      archs=$(fixture_opt "$(fixture_source "$f")" arch)
      if [ -n "$archs" ] && ! printf ' %s ' $archs | grep -q " $ARCH "; then
         echo "skip $ARCH -$opt $f (e2e-arch: $archs)"
         record "$opt" "$f" skip ""; skipped=$((skipped + 1)); continue
      fi
      kfile=$OUT/$opt/$f.kinds
      [ "$opt" = - ] && kfile=$OUT/runtime/$f.kinds
      label="-$opt"; [ "$opt" = - ] && label=native
      kind=$(known_kind "e2e/${opt/#-/runtime}/$f")
      if out=$(run_fixture "$f" "$opt" 2>&1); then
         echo "ok   $ARCH $label $f"; passed=$((passed + 1))
         record "$opt" "$f" ok ""
         if [ "$kind" = fail ]; then
            echo "listed as failing but passed (remove it from $KNOWN): e2e/${opt/#-/runtime}/$f"
            failed=$((failed + 1))
         fi
      else
         if [ -n "$kind" ]; then
            echo "known failure ($kind): $ARCH $label $f (kept in ${OUT#"$TOP"/}/${opt/#-/runtime})"
            known=$((known + 1))
         else
            echo "FAIL $ARCH $label $f (kept in ${OUT#"$TOP"/}/${opt/#-/runtime})"
            failed=$((failed + 1))
         fi
         printf '%s\n' "$out" | sed 's/^/     /'
         record "$opt" "$f" FAIL "$(cat "$kfile" 2>/dev/null | xargs)"
      fi
   done
done
[ $known = 0 ] || echo "e2e $ARCH: $known known failure(s), listed with their reasons in ${KNOWN#"$TOP"/}"
echo "e2e $ARCH: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
