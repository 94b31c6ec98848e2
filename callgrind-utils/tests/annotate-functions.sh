#!/bin/sh
# annotate-functions.sh - 'callgrind-utils summary' against
# callgrind_annotate on real profiles of tests/prog/annotate-prog.c made
# with the option sets users give (a late start with zeroed costs
# among them): the self cost of every function, for
# every event, and the inclusive cost of every function that does not
# call itself (callgrind_annotate adds such a call's cost to the
# function's inclusive cost again; callgrind-utils does not) and whose
# name is one function's on both sides.
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
scratch_dir cgu-functions

cp "$here/prog/annotate-prog.c" .
$CC -g -O0 -fno-inline -o prog annotate-prog.c || exit 1
prog=./prog

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
# callgrind_annotate's rows "costs<TAB>function", self (no) or
# inclusive (yes) costs.
ca_rows() {   # PROFILE NEVENTS no|yes
	"$CALLGRIND_ANNOTATE" --inclusive="$3" --threshold=100 --show-percs=no \
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
	}'
}
from_callgrind_annotate() {   # PROFILE NEVENTS
	ca_rows "$1" "$2" no | sum_by_name "$2"
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
# "function: inclusive costs" of every function from each side, by
# name.  callgrind_annotate can print a function twice with the same
# costs (under its file's full and relative name): sort -u.
incl_callgrind_annotate() {   # PROFILE NEVENTS
	ca_rows "$1" "$2" yes | awk -F '\t' '{ print $2 ":" $1 }' |
		LC_ALL=C sort -u
}
incl_cgu() {   # PROFILE NEVENTS
	"$CGU" summary -n 0 --names function "$1" 2>/dev/null | awk -v nev="$2" '
	/^#/ { next }
	{
		name = $0; out = ""
		for (i = 1; i <= 2 * nev + 2; i++)
			sub(/^ *[^ ]+/, "", name)
		for (i = nev + 2; i <= 2 * nev + 1; i++)
			out = out " " $i
		sub(/^  /, "", name)
		print name ":" out
	}' | LC_ALL=C sort
}
# The functions that call themselves (callgrind_annotate adds the cost
# of such a call to the function's inclusive cost again).
self_callers() {   # PROFILE
	"$CGU" edges --names function "$1" 2>/dev/null | awk '{
		i = index($0, " -> ")
		callee = substr($0, i + 4)
		sub(/( [0-9]+)+$/, "", callee)
		if (substr($0, 1, i - 1) == callee) print callee
	}'
}
# The inclusive costs of every function whose name is one function's on
# both sides and that does not call itself.
compare_inclusive() {   # NAME PROFILE NEVENTS
	incl_callgrind_annotate "$2" "$3" >"$1.ica"
	incl_cgu "$2" "$3" >"$1.icgu"
	self_callers "$2" >"$1.self"
	awk '
	FILENAME == ARGV[1] { skip[$0] = 1; next }
	{
		name = $0
		sub(/: [0-9 ]*$/, "", name)
		key = FILENAME == ARGV[2] ? "a" : "b"
		n[key, name]++
		row[key, name] = $0
		names[name] = 1
	}
	END {
		for (name in names) {
			if (name in skip || n["a", name] != 1 || n["b", name] != 1)
				continue
			compared++
			if (row["a", name] != row["b", name]) {
				print "  callgrind_annotate " row["a", name]
				print "  callgrind-utils    " row["b", name]
				bad++
			}
		}
		print compared + 0, bad + 0 >"/dev/stderr"
	}' "$1.self" "$1.ica" "$1.icgu" >"$1.idiff" 2>"$1.icount"
	read -r compared bad <"$1.icount"
	if [ "$compared" -lt 2 ] || ! grep -q "^twice[:']" "$1.icgu"; then
		fail "$1: only $compared functions to compare inclusive costs of"
	elif [ "$bad" = 0 ]; then
		pass
	else
		fail "$1: inclusive costs of $bad of $compared functions differ"
		head -20 "$1.idiff"
	fi
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
	# Valgrind 3.19 writes the call to _Exit, which does not return,
	# with more inclusive cost than _Exit has (6 Ir against its 4 with
	# --cache-sim=yes): callgrind_annotate shows the call's cost and
	# callgrind-utils _Exit's own, so the older files are compared by
	# self cost only.
	case $name in
	old-*) ;;
	*) compare_inclusive "$name" "$prof" "$nev" ;;
	esac
}
profile() {   # VALGRIND NAME OPTIONS...
	vg=$1 name=$2
	shift 2
	"$vg" --tool=callgrind "$@" --callgrind-out-file="$name.out" "$prog" \
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
# A late start (CALLGRIND_START_INSTRUMENTATION in main) whose first
# cost is zeroed (CALLGRIND_ZERO_STATS), with the client requests'
# header of VALGRIND's prefix.
inc=$(dirname "$(command -v "$VALGRIND")")/../include
if [ -f "$inc/valgrind/callgrind.h" ] &&
   $CC -g -O0 -fno-inline -DLATE_START -I"$inc" -o late annotate-prog.c; then
	vg_late() { prog=./late; profile "$@"; prog=./prog; }
	vg_late "$VALGRIND" late --instr-atstart=no --cache-sim=yes
else
	echo "SKIP: no valgrind/callgrind.h in $inc: no late start"
fi
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
