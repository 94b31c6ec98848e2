#!/bin/bash
# Run upstream's tests/vg_regtest on a built tree, with what vg_regtest
# lacks: a per-test timeout, clean file descriptors, and a known-failures
# list that is checked both ways.
#
#   TREE=build/x86_64/tree KNOWN=tests/known-failures/x86_64.txt \
#   TIMEOUT=300 scripts/regtest.sh callgrind cachegrind none/tests/foo ...
#
# Arguments are tool directories (callgrind means callgrind/tests) or test
# names (with or without .vgtest).  The result is one line
# 'N passed, N failed, N skipped', where failed counts the unexpected
# outcomes (a failure that is not listed, or a pass of a test listed as
# 'fail'); listed failures are counted on a line of their own.  The exit
# status is non-zero on any unexpected outcome or when vg_regtest broke.
#
# Known-failures file: one line per test, '#' comments allowed:
#   <test path> <fail|flaky> <reason...>
# 'fail' must fail (a pass is reported, so the list cannot rot);
# 'flaky' may pass or fail (timing-dependent tests), a reason is required.
#
# Runs on the same tree take turns (a lock file in the tree): a second
# run waits for the first to finish.
#
# VALGRIND_WRAPPER_PREFIX, when set, is a command put in front of the
# valgrind launcher (the arm64 harness uses it to run under emulation).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

TREE=$(cd "${TREE:-$BUILD/x86_64/tree}" && pwd) || exit 1
KNOWN=${KNOWN:-}
TIMEOUT=${TIMEOUT:-300}
LOG=${LOG:-$TREE/regtest.log}

# vg_regtest has no per-test timeout, and a test killed from outside is
# reported as passed because its output files are gone.  This wrapper
# kills a hung valgrind and writes a line that no .exp file contains, so
# the test fails instead.  It is Perl, not a shell: a shell reports a
# child killed by a signal ("Segmentation fault") on stderr, which would
# break the many tests whose program is meant to die by a signal, and
# only a timer of our own tells a timeout from a program's own SIGKILL.
make_wrapper() {
   local w=$TREE/.regtest-valgrind
   cat > "$w" <<EOF
#!/usr/bin/perl
use strict;
use warnings;
my \$timeout = $TIMEOUT;
my @cmd = (split(' ', '${VALGRIND_WRAPPER_PREFIX:-}'), '$TREE/coregrind/valgrind', @ARGV);
my \$pid = fork();
die "fork: \$!" unless defined \$pid;
if (\$pid == 0) { exec { \$cmd[0] } @cmd or die "exec \$cmd[0]: \$!"; }
my \$timed_out = 0;
\$SIG{ALRM} = sub { \$timed_out = 1; kill 'KILL', \$pid; };
alarm \$timeout;
while (waitpid(\$pid, 0) == -1 && \$!{EINTR}) { }
my \$status = \$?;
alarm 0;
if (\$timed_out) {
   print STDERR "REGTEST-TIMEOUT: valgrind killed after \${timeout}s\\n";
   if (open(my \$fh, '>>', '$TREE/.regtest-timeouts')) {
      print \$fh scalar(gmtime()), " timeout: ", \$ENV{PWD} // '.', " @ARGV\\n";
   }
   exit 137;
}
exit(\$status & 127 ? 128 + (\$status & 127) : \$status >> 8);
EOF
   chmod +x "$w"
   printf '%s\n' "$w"
}

# Inherited descriptors above 2 make fdleak_* and other tests fail.
close_inherited_fds() {
   local fd n
   for fd in /proc/$$/fd/*; do
      n=${fd##*/}
      [ "$n" -gt 2 ] 2>/dev/null || continue
      eval "exec $n>&-" 2>/dev/null || true
   done
}

# Map each argument to a path vg_regtest accepts, relative to TREE.
targets() {
   local a
   for a in "$@"; do
      a=${a%.vgtest}
      if [ -d "$TREE/$a/tests" ] && [ "${a#*/}" = "$a" ]; then
         printf '%s/tests\n' "$a"
      elif [ -d "$TREE/$a" ] || [ -f "$TREE/$a.vgtest" ]; then
         printf '%s\n' "$a"
      else
         die "no such test or directory in $TREE: $a"
      fi
   done
}

# The tests vg_regtest's closing summary lists as failed, one a line.
# The summary is the authority: vg_regtest 3.27 writes PASS to the .trs
# file of a test that failed only its post check.
summary_failures() {
   awk '/^== [0-9]+ tests?, / { on = 1; next }
        on && NF == 2 && $2 ~ /^\((stdout|stderr|stdoutB|stderrB|post)\)$/ { print $1 }' "$LOG" | sort -u
}

# The result of every test that ran: '<test> <PASS|FAIL|SKIP>'.
collect_results() {
   local t
   for t in "$@"; do
      if [ -d "$TREE/$t" ]; then
         find "$TREE/$t" -name '*.vgtest.trs'
      else
         printf '%s\n' "$TREE/$t.vgtest.trs"
      fi
   done | sort -u | while read -r trs; do
      [ -f "$trs" ] || continue
      local name=${trs#"$TREE"/} res
      name=${name%.vgtest.trs}
      res=$(sed -n 's/^:test-result: //p' "$trs")
      if printf '%s\n' "$failed_list" | grep -qxF -- "$name"; then res=FAIL; fi
      printf '%s %s\n' "$name" "$res"
   done
}

main() {
   [ $# -gt 0 ] || die "usage: $0 DIR|TEST..."
   [ -x "$TREE/tests/vg_regtest" ] || die "$TREE/tests/vg_regtest missing: build the tree first"
   check_known_list
   # One run a tree at a time: vg_regtest writes every test's output
   # files, its .trs files and the log into the tree, and the wrapper
   # holds this run's TIMEOUT, so a second run on the same tree would mix
   # its results with the first's.  It waits instead.  (The subshell that
   # runs vg_regtest closes this descriptor; the lock stays with us.)
   # The arm64 VM, which runs one regtest and has no flock, goes without.
   if command -v flock > /dev/null; then
      exec 9> "$TREE/.regtest.lock"
      if ! flock -n 9; then
         say "another regtest is running on $TREE: waiting for it to finish"
         flock 9
      fi
   fi
   local wrapper ts
   wrapper=$(make_wrapper)
   mapfile -t ts < <(targets "$@")
   rm -f "$TREE/.regtest-timeouts"
   for t in "${ts[@]}"; do
      if [ -d "$TREE/$t" ]; then
         find "$TREE/$t" -name '*.vgtest.trs' -delete
      else
         rm -f "$TREE/$t.vgtest.trs"
      fi
   done
   # gdbserver_tests run ./vgdb and a gdb of their own: upstream's
   # 'make regtest' links them in first.
   if printf '%s\n' "${ts[@]}" | grep -q '^gdbserver_tests'; then
      (cd "$TREE" && gdbserver_tests/make_local_links "$(command -v gdb || echo gdb)") \
         >> "$LOG.links" 2>&1 || say "gdbserver_tests/make_local_links failed, see $LOG.links"
   fi
   say "running vg_regtest on ${ts[*]} (log: $LOG)"
   (
      close_inherited_fds
      cd "$TREE" && perl tests/vg_regtest --valgrind="$wrapper" "${ts[@]}"
   ) > "$LOG" 2>&1 < /dev/null
   local vgrc=$?

   local pass=0 fail=0 skip=0 known=0 bad=0 name res kind failed_list
   failed_list=$(summary_failures)
   while read -r name res; do
      kind=$(known_kind "$name")
      case $res in
         PASS)
            pass=$((pass + 1))
            if [ "$kind" = fail ]; then
               say "listed as failing but passed (remove it from $KNOWN): $name"
               fail=$((fail + 1)); bad=1
            fi ;;
         SKIP) skip=$((skip + 1)) ;;
         *)
            if [ -n "$kind" ]; then
               say "known failure ($kind): $name"
               known=$((known + 1))
            else
               say "FAILED: $name (see $TREE/$name.*.diff)"
               fail=$((fail + 1)); bad=1
            fi ;;
      esac
   done < <(collect_results "${ts[@]}")

   if [ -s "$TREE/.regtest-timeouts" ]; then
      say "timeouts:"; sed 's/^/   /' "$TREE/.regtest-timeouts" >&2
   fi
   if [ $((pass + fail + skip + known)) = 0 ]; then
      tail -n 20 "$LOG" >&2
      die "vg_regtest ran no test"
   fi
   # vg_regtest exits 1 on any failure; anything else means it broke.
   if [ $vgrc -gt 1 ]; then
      tail -n 20 "$LOG" >&2
      say "vg_regtest exited $vgrc"; bad=1
   fi
   [ $known = 0 ] || echo "regtest: $known known failure(s), listed with their reasons in ${KNOWN#"$TOP"/}"
   echo "regtest: $pass passed, $fail failed, $skip skipped"
   return $bad
}

main "$@"
