#!/bin/sh
# Compare 'callgrind-utils edges' with what callgrind_annotate --tree=caller
# shows for a real profile of tests/prog/annotate-prog.c.
#
# VALGRIND and CALLGRIND_ANNOTATE name the tools (default: from PATH), so
# the project's own build can be tested: VALGRIND=build/install/bin/valgrind.
# callgrind_annotate names a function "file:function" and prints, for each
# function, its callers as "COST < file:caller (Nx) [object]".  Only edges
# touching the test program's own functions are compared: inside glibc,
# callgrind_annotate names code inlined from another file after that file
# (fi=/fe=), while callgrind-utils keeps it in the function it is part of.
set -eu
: "${CGU:?CGU must name the callgrind-utils binary}"
: "${TEST_DATA:?}"
VALGRIND=${VALGRIND:-valgrind}
CALLGRIND_ANNOTATE=${CALLGRIND_ANNOTATE:-callgrind_annotate}
CC=${CC:-cc}
for tool in "$VALGRIND" "$CALLGRIND_ANNOTATE" "$CC"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool not found"
		exit 77
	fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/cgu-annotate.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$TEST_DATA/../prog/annotate-prog.c" "$work/"
cd "$work"
$CC -g -O0 -fno-inline -o annotate-prog annotate-prog.c
"$VALGRIND" --tool=callgrind --callgrind-out-file=cg.out ./annotate-prog \
	>/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }

# callgrind_annotate: blocks of "< caller" lines ended by the "*" line.
"$CALLGRIND_ANNOTATE" --tree=caller --inclusive=yes --threshold=100 cg.out |
	tr -d ',' | awk '
	/^ *[0-9]+ \([ 0-9.]+%\)  < / {
		line = $0
		sub(/^ *[0-9]+ \([ 0-9.]+%\)  < /, "", line)
		sub(/ \[[^]]*\]$/, "", line)
		n = match(line, / \([0-9]+x\)$/)
		callers[++nc] = substr(line, 1, n - 1)
		calls[nc] = substr(line, n + 2, RLENGTH - 4)
		cost[nc] = $1
		next
	}
	/^ *[0-9]+ \([ 0-9.]+%\)  \*  / {
		fn = $0
		sub(/^ *[0-9]+ \([ 0-9.]+%\)  \*  /, "", fn)
		sub(/ \[[^]]*\]$/, "", fn)
		for (i = 1; i <= nc; i++)
			print callers[i] " -> " fn " " calls[i] " " cost[i]
	}
	/^$/ { nc = 0 }' | sed "s|$work/||g" | grep 'annotate-prog\.c:' |
	LC_ALL=C sort >annotate.txt

"$CGU" edges --names=file cg.out | sed "s|$work/||g" |
	grep 'annotate-prog\.c:' | LC_ALL=C sort >edges.txt

if [ "$(wc -l <edges.txt)" -lt 8 ]; then
	echo "FAIL: too few edges found"; cat edges.txt; exit 1
fi
if ! diff -u annotate.txt edges.txt; then
	echo "FAIL: edges differ from callgrind_annotate --tree=caller"
	exit 1
fi
echo "PASS: $(wc -l <edges.txt) edges match callgrind_annotate"
