#!/bin/sh
# annotate-functions.sh - 'callgrind-utils summary' against
# callgrind_annotate on real profiles of tests/prog/annotate-prog.c made
# with the option sets users give: the self cost of every function, for
# every event, and the inclusive cost of the program's functions that
# are not recursive (callgrind_annotate adds a recursive call's cost
# again to its callee; callgrind-utils does not).
#
# The profiles come from VALGRIND (default from PATH) and, when it is
# there and another version, from OLD_VALGRIND (default /usr/bin/valgrind:
# Debian's own, 3.19 on bookworm), so files of both versions are read.
# callgrind_annotate (CALLGRIND_ANNOTATE, default from PATH) names a
# function "file:function", and splits the cost of code inlined from
# another file into a row of that file; the rows are summed by function
# name on both sides.  With --inclusive=yes it can print a function
# twice, under its file's full and its relative name, with the same
# costs.
#
# An unpatched callgrind_annotate takes the inclusive cost line of a
# 'calls=0' arc (an arc whose calls were made before the part, written by
# dumps during the run) for self cost (patch 0036 fixes it); for the
# profile with several parts those arcs are left out of the copy
# callgrind_annotate reads, which leaves the self costs as they are, so
# that any callgrind_annotate gives the same (and the test checks that
# it found some).
set -u
. "$(dirname "$0")/valgrind-tools.sh"
CALLGRIND_ANNOTATE=${CALLGRIND_ANNOTATE:-callgrind_annotate}
command -v "$CALLGRIND_ANNOTATE" >/dev/null 2>&1 ||
	{ echo "SKIP: $CALLGRIND_ANNOTATE not found"; exit 77; }
command -v perl >/dev/null 2>&1 || { echo "SKIP: perl not found"; exit 77; }
OLD_VALGRIND=${OLD_VALGRIND:-/usr/bin/valgrind}

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cgu-functions.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0 passes=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { passes=$((passes + 1)); }

cp "$here/prog/annotate-prog.c" .
$CC -g -O0 -fno-inline -o prog annotate-prog.c || exit 1

nevents() { awk '/^events:/ { print NF - 1; exit }' "$1"; }

# "function: self costs" per function name, zero rows left out: the
# rows "costs<TAB>name" summed by name.
sum_by_name() {   # NEVENTS
	awk -F '\t' -v nev="$1" '
	{
		if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
		split($1, c, " ")
		for (i = 1; i <= nev; i++)
			s[$2, i] += c[i]
	}
	END {
		for (k = 1; k <= n; k++) {
			out = ""; any = 0
			for (i = 1; i <= nev; i++) {
				out = out " " s[order[k], i] + 0
				if (s[order[k], i]) any = 1
			}
			if (any) print order[k] ":" out
		}
	}' | LC_ALL=C sort
}
from_callgrind_annotate() {   # PROFILE NEVENTS
	"$CALLGRIND_ANNOTATE" --inclusive=no --threshold=100 --show-percs=no \
		--auto=no "$1" 2>/dev/null | tr -d ',' | awk -v nev="$2" '
	/file:function$/ { on = 1; getline; next }
	on && NF == 0 { exit }
	on {
		name = $0; out = ""
		for (i = 1; i <= nev; i++) {
			sub(/^ *[^ ]+/, "", name)
			out = out " " ($i == "." ? 0 : $i)
		}
		sub(/^  /, "", name)
		sub(/ \[[^]]*\]$/, "", name)
		print out "\t" substr(name, index(name, ":") + 1)
	}' | sum_by_name "$2"
}
from_cgu() {   # PROFILE NEVENTS
	"$CGU" summary -n 0 --names function "$1" | awk -v nev="$2" '
	/^#/ { next }
	{
		name = $0; out = ""
		for (i = 1; i <= 2 * nev + 2; i++)
			sub(/^ *[^ ]+/, "", name)
		for (i = 1; i <= nev; i++)
			out = out " " $i
		sub(/^  /, "", name)
		print out "\t" name
	}' | sum_by_name "$2"
}
# The inclusive costs of FUNCTION, every event, from each side.
incl_callgrind_annotate() {   # PROFILE NEVENTS FUNCTION
	"$CALLGRIND_ANNOTATE" --inclusive=yes --threshold=100 --show-percs=no \
		--auto=no "$1" 2>/dev/null | tr -d ',' | awk -v nev="$2" -v fn="$3" '
	/file:function$/ { on = 1; getline; next }
	on && NF == 0 { exit }
	on && $(nev + 1) ~ ("annotate-prog\\.c:" fn "$") {
		out = ""
		for (i = 1; i <= nev; i++) out = out " " ($i == "." ? 0 : $i)
		print fn ":" out
	}' | sort -u
}
incl_cgu() {   # PROFILE NEVENTS FUNCTION
	"$CGU" summary -n 0 --names function "$1" 2>/dev/null | awk -v nev="$2" -v fn="$3" '
	!/^#/ && $NF == fn && NF == 2 * nev + 3 {
		out = ""
		for (i = nev + 2; i <= 2 * nev + 1; i++) out = out " " $i
		print fn ":" out
	}'
}

check() {   # NAME PROFILE
	name=$1 prof=$2
	nev=$(nevents "$prof")
	ca=$prof
	if grep -q '^calls=0 ' "$prof"; then
		ca=$prof.ca
		awk '/^calls=0 / { skip = 1; next } skip { skip = 0; next } { print }' \
			"$prof" >"$ca"
	fi
	from_callgrind_annotate "$ca" "$nev" >"$name.ca"
	from_cgu "$prof" "$nev" >"$name.cgu"
	if [ "$(wc -l <"$name.ca")" -lt 2 ] || ! grep -q "^twice[:']" "$name.ca"; then
		fail "$name: too few functions in callgrind_annotate's output"
		head -5 "$name.ca"
	elif diff -u "$name.ca" "$name.cgu" >"$name.diff"; then
		pass
	else
		fail "$name: self costs differ from callgrind_annotate"
		head -20 "$name.diff"
	fi
	for fn in main twice leaf apply; do
		incl_callgrind_annotate "$prof" "$nev" "$fn" >a.txt
		incl_cgu "$prof" "$nev" "$fn" >b.txt
		[ -s a.txt ] || continue   # a context name (--separate-callers)
		if [ "$(wc -l <b.txt)" = 1 ] && cmp -s a.txt b.txt; then
			pass
		else
			fail "$name: inclusive cost of $fn"; cat a.txt b.txt
		fi
	done
}
profile() {   # VALGRIND NAME OPTIONS...
	vg=$1 name=$2
	shift 2
	"$vg" --tool=callgrind "$@" --callgrind-out-file="$name.out" ./prog \
		>/dev/null 2>"$name.log" || { cat "$name.log"; exit 1; }
	check "$name" "$name.out"
}

profile "$VALGRIND" default
profile "$VALGRIND" cache --cache-sim=yes --branch-sim=yes
profile "$VALGRIND" plain --cache-sim=yes --compress-strings=no --compress-pos=no
profile "$VALGRIND" instr --dump-instr=yes --collect-jumps=yes
profile "$VALGRIND" contexts --separate-callers=3 --separate-recs=4
profile "$VALGRIND" toggle --toggle-collect=twice
profile "$VALGRIND" systime --collect-systime=nsec --collect-bus=yes
# Several parts in one file: a dump every 20,000 blocks.
profile "$VALGRIND" parts --dump-every-bb=20000 --combine-dumps=yes
[ "$(grep -c '^part:' parts.out)" -ge 2 ] && [ -f parts.out.ca ] && pass ||
	fail "parts: expected several parts and calls=0 arcs in parts.out"

if [ -x "$OLD_VALGRIND" ] &&
   [ "$("$OLD_VALGRIND" --version)" != "$("$VALGRIND" --version)" ]; then
	echo "also $("$OLD_VALGRIND" --version) ($OLD_VALGRIND)"
	profile "$OLD_VALGRIND" old-default
	profile "$OLD_VALGRIND" old-cache --cache-sim=yes --branch-sim=yes
	profile "$OLD_VALGRIND" old-plain --compress-strings=no --dump-instr=yes
else
	echo "SKIP: no other Valgrind at $OLD_VALGRIND (OLD_VALGRIND)"
fi

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
