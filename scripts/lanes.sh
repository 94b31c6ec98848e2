#!/bin/bash
# Run test stages side by side, one a core: each one's output goes to a
# log of its own, printed whole, under a header, when the stage ends.
#
#   scripts/lanes.sh NAME 'COMMAND' NAME 'COMMAND' ...
#
# A regtest or an e2e suite runs one Valgrind (or one qemu-user) at a
# time and so keeps one core busy; two such stages of the same
# architecture share nothing (the regtest runs in the build tree, the e2e
# suite from the install and build/e2e/ARCH) and run side by side here.
# The stages must not build anything: the caller builds first, and the
# commands run make with NOBUILD=1 (two builds of the same tree at once
# would overwrite binaries the other stage is running).
#
# Exit status: 0 when every command exited 0, else 1 (every stage still
# runs to its end; a signal kills them all).  LANES_LOGS is the folder of
# the logs (default build/lanes); they are kept.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] || die "usage: $0 NAME COMMAND [NAME COMMAND]..."
LOGS=${LANES_LOGS:-$BUILD/lanes}
mkdir -p "$LOGS"

declare -A name_of start_of
pids=()
stop() {
   trap - INT TERM
   [ ${#pids[@]} = 0 ] || kill -TERM -- "${pids[@]/#/-}" 2> /dev/null
   exit 130
}
trap stop INT TERM

# Each stage in a process group of its own (set -m), so that a signal
# reaches its make, its Valgrind and its qemu.
set -m
while [ $# -gt 0 ]; do
   name=$1 cmd=$2; shift 2
   log=$LOGS/$name.log
   bash -c "$cmd" > "$log" 2>&1 < /dev/null &
   pids+=($!)
   name_of[$!]=$name
   start_of[$!]=$(date +%s)
   say "lanes: $name started (pid $!; log ${log#"$TOP"/})"
done
set +m

bad=0
while [ ${#pids[@]} -gt 0 ]; do
   wait -n -p done "${pids[@]}"
   rc=$?
   [ -n "${done:-}" ] || continue
   name=${name_of[$done]}
   echo "==== $name: exit $rc after $(( $(date +%s) - ${start_of[$done]} )) s"
   cat "$LOGS/$name.log"
   echo "==== end of $name"
   [ "$rc" = 0 ] || bad=1
   rest=()
   for p in "${pids[@]}"; do [ "$p" = "$done" ] || rest+=("$p"); done
   pids=("${rest[@]+"${rest[@]}"}")
done
exit $bad
