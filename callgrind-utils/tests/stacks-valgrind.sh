#!/bin/sh
# stacks-valgrind.sh - the exact stacks of a real run: Valgrind (VALGRIND,
# default from PATH) profiles tests/prog/stacks-prog.c with
# --collect-stacks=yes, and the stacks callgrind-utils draws must be the
# program's: they add up to the profile's totals (also read compressed
# with xz and zstd), the threads' work is not under main, spin is called from a 100 times more than from b, the
# signal handler runs below "[signal 10]".  The reconstructed stacks of
# the same profile draw no function wider than its inclusive cost.  With
# --separate-threads=yes, flamegraph --per-thread draws a lane a thread.
# Skipped (77) when the Valgrind has no --collect-stacks.
set -u
. "$(dirname "$0")/valgrind-stacks.sh"
cp "$TEST_DATA/../prog/stacks-prog.c" .
$CC -g -O1 -pthread -o stacks-prog stacks-prog.c || exit 1

# the frames of a folded line, one a line, then its value
frames() { sed 's/ [0-9]*$//' | tr ';' '\n'; }
# inclusive cost of function $1 in summary -n 0 output $2
inclusive() {
	awk -v f="$1" '!/^#/ { l = $0; sub(/^ *[0-9]+ +[0-9.]+% +/, "", l)
		incl = l; sub(/ .*/, "", incl)
		name = l; sub(/^[0-9]+ +[0-9.]+%  /, "", name)
		if (name == f) { print incl; exit } }' "$2"
}

"$VALGRIND" --tool=callgrind --collect-stacks=yes --callgrind-out-file=cg.out \
	./stacks-prog >/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }
[ -f cg.out.stacks ] || { echo "FAIL: no cg.out.stacks"; exit 1; }
total=$(awk '/^totals:/ { print $2 }' cg.out)

"$CGU" fold cg.out >exact.fold 2>err || { cat err; fail "fold"; }
[ "$(awk '{ s += $NF } END { print s }' exact.fold)" = "$total" ] ||
	fail "exact stacks do not add up to the totals, $total"
grep worker exact.fold | frames | grep -qx main &&
	fail "worker drawn under main"
[ "$(drawn worker exact.fold)" -gt 0 ] || fail "no worker stack"
grep -q ';\[signal 10\];on_usr1;spin [0-9]*$' exact.fold ||
	fail "no [signal 10];on_usr1;spin stack"
sa=$(grep '^main;a;spin [0-9]*$' exact.fold | awk '{ print $NF }')
sb=$(grep '^main;b;spin [0-9]*$' exact.fold | awk '{ print $NF }')
[ -n "$sa" ] && [ -n "$sb" ] && [ "$sa" -gt $((sb * 50)) ] ||
	fail "spin: $sa from a, $sb from b"
"$CGU" summary -n 0 cg.out >exact.sum 2>err || fail "summary"
grep -q "^# stacks: exact, from cg.out.stacks$" exact.sum || fail "summary label"
"$CGU" flamegraph cg.out >exact.svg 2>err || fail "flamegraph"
grep -q 'Ir, exact stacks</text>' exact.svg || fail "flamegraph label"

"$CGU" fold --reconstructed cg.out >graph.fold 2>err || fail "fold --reconstructed"
"$CGU" summary -n 0 --reconstructed cg.out >graph.sum 2>err || fail "summary --reconstructed"
for f in main worker spin a b; do
	d=$(drawn "$f" graph.fold) i=$(inclusive "$f" graph.sum)
	[ -n "$i" ] && [ "$d" -le "$i" ] ||
		fail "reconstructed $f drawn $d wide, inclusive cost ${i:-?}"
done

# the same profile and stacks compressed, as a user keeps them: the same
# exact stacks (cg.out.xz finds cg.out.stacks.xz beside it)
for tool in xz zstd; do
	command -v "$tool" >/dev/null 2>&1 || continue
	"$tool" -q -k cg.out cg.out.stacks || { fail "$tool"; continue; }
	ext=$(ls cg.out.stacks.* | sed 's/.*\.//')
	"$CGU" fold cg.out."$ext" >z.fold 2>err || { cat err; fail "fold cg.out.$ext"; }
	cmp -s exact.fold z.fold || fail "fold of cg.out.$ext differs from cg.out's"
	rm -f cg.out."$ext" cg.out.stacks."$ext"
done

# several dumps in one file: the parts add up, merged or apart
"$VALGRIND" --tool=callgrind --collect-stacks=yes --combine-dumps=yes \
	--dump-every-bb=20000 --callgrind-out-file=parts.out ./stacks-prog \
	>/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }
total=$(awk '/^totals:/ { s += $2 } END { print s }' parts.out)
"$CGU" fold parts.out >parts.fold 2>err || { cat err; fail "fold parts"; }
[ "$(awk '{ s += $NF } END { print s }' parts.fold)" = "$total" ] ||
	fail "the parts do not add up to $total"
"$CGU" fold --separate-parts parts.out >apart.fold 2>err || { cat err; fail "fold --separate-parts"; }
[ "$(grep -v '^#' apart.fold | awk '{ s += $NF } END { print s }')" = "$total" ] ||
	fail "the parts apart do not add up to $total"

# --separate-threads=yes: a file a thread (th.out-01, -02, ...: main and
# the workers); flamegraph takes them all, and with --per-thread
# draws a lane a thread, from their exact stacks or, without them,
# reconstructed from each thread's own profile; the lanes' widths are the
# threads' totals either way
"$VALGRIND" --tool=callgrind --collect-stacks=yes --separate-threads=yes \
	--callgrind-out-file=th.out ./stacks-prog >/dev/null 2>valgrind.log ||
	{ cat valgrind.log; exit 1; }
set -- $(ls th.out-[0-9]* | grep -v '\.stacks$')
[ "$#" -ge 2 ] || fail "--separate-threads=yes wrote $# profiles: $*"
lanes() {   # lanes SVG: "[thread N] WIDTH" for every lane, by N
	grep -o 'data-w="[0-9]*" data-s="[0-9]*" data-d="1" data-n="\[thread [0-9]*\]"' "$1" |
		sed 's/data-w="\([0-9]*\)".*data-n="\(.*\)"/\2 \1/' | sort
}
for t in "$@"; do
	echo "[thread $(awk '/^thread:/ { print $2 }' "$t")] $(awk '/^totals:/ { print $2 }' "$t")"
done | sort >lanes.exp
for how in "" --reconstructed; do
	"$CGU" flamegraph --per-thread $how "$@" >th.svg 2>err || { cat err; fail "flamegraph --per-thread $how"; }
	lanes th.svg >lanes.got
	cmp -s lanes.exp lanes.got || { fail "flamegraph --per-thread $how: lanes"; diff lanes.exp lanes.got; }
done
grep -q 'reconstructed stacks' th.svg || fail "--per-thread --reconstructed: subtitle"
# without --per-thread the threads merge: main and the workers' start_thread
"$CGU" flamegraph "$@" >merged.svg 2>err || { cat err; fail "flamegraph of the thread files"; }
grep -q 'data-d="1" data-n="start_thread"' merged.svg && grep -q 'data-d="1" data-n="main"' merged.svg ||
	fail "flamegraph of the thread files: not main and start_thread at the root"
# a profile that is not a thread's (no thread: line) has no lane
"$CGU" flamegraph --per-thread --reconstructed cg.out >/dev/null 2>err &&
	fail "--per-thread of a profile of all threads, without stacks, drew lanes"
grep -q "has no thread: line" err || fail "--per-thread without threads: $(cat err)"

[ "$fails" = 0 ] && echo "PASS: exact stacks of a real run" && exit 0
exit 1
