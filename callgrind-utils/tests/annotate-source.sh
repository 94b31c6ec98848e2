#!/bin/sh
# annotate-source.sh - annotate (--source) on real profiles of
# tests/prog/source-prog.c, compiled here with -g: made by VALGRIND with
# --cache-sim=yes (nine events, lines only) and with --dump-instr=yes,
# both with --separate-recs=1: callgrind_annotate shows under a line the
# calls of only the first function with cost there, and a recursive
# function's levels (depth, depth'2) share their lines.
# Every line's self costs and every call under a line ("=> callee (Nx)"
# with the calls' inclusive costs) must be those callgrind_annotate
# --auto=yes shows for the same files (CALLGRIND_ANNOTATE, default from
# PATH), the inline function of source-prog.h included.  Then bad input:
# a source that cannot be read (one warning a file, costs without text),
# --include, a source shorter than the profile says, a profile without
# line positions, a malformed profile, bad options.
set -u
. "$(dirname "$0")/valgrind-tools.sh"
CALLGRIND_ANNOTATE=${CALLGRIND_ANNOTATE:-callgrind_annotate}
command -v "$CALLGRIND_ANNOTATE" >/dev/null 2>&1 ||
	{ echo "SKIP: $CALLGRIND_ANNOTATE not found"; exit 77; }
command -v perl >/dev/null 2>&1 || { echo "SKIP: perl not found"; exit 77; }

here=$(cd "$(dirname "$0")" && pwd)
scratch_dir cgu-source

cp "$here/prog/source-prog.c" "$here/prog/source-prog.h" .
$CC -g -O0 -fno-inline -o prog source-prog.c || exit 1
"$VALGRIND" --tool=callgrind --separate-recs=1 --cache-sim=yes --callgrind-out-file=lines.out \
	./prog >/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }
"$VALGRIND" --tool=callgrind --separate-recs=1 --dump-instr=yes --callgrind-out-file=instr.out \
	./prog >/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }

# "FILE LINE costs..." for a line's self cost, "FILE LINE => CALLEE (Nx)
# costs..." for the calls made on it; costs without thousands separators,
# "." as 0 (callgrind_annotate leaves out the events a line has no count
# for), lines with no cost left out.
# callgrind_annotate: the rows of each "Auto-annotated source:" section,
# counted from line 1 ("-- line N ----" moves the count).
from_callgrind_annotate() {   # PROFILE NEVENTS
	"$CALLGRIND_ANNOTATE" --auto=yes --show-percs=no --context=100000 \
		"$1" 2>/dev/null | tr -d ',' | awk -v nev="$2" '
	/^-- Auto-annotated source: / { file = $4; skip = 3; line = 0; next }
	file == "" { next }
	skip > 0 { skip--; next }
	/^-- line [0-9]+ -+$/ { line = $3 - 1; next }
	/^--------------------/ { file = ""; next }
	NF == 0 { next }
	{
		costs = ""; any = 0
		for (i = 1; i <= nev; i++) {
			c = $i == "." ? 0 : $i; costs = costs " " c
			if (c != 0) any = 1
		}
		rest = $0
		for (i = 1; i <= nev; i++)
			sub(/^ *[^ ]+/, "", rest)
		sub(/^  /, "", rest)
		if (rest ~ /^=> /) { if (any) print file, line, rest costs; next }
		line++
		if (any) print file, line costs
	}' | LC_ALL=C sort
}
# callgrind-utils: every function of the two files, no context lines;
# the costs of a line summed over the functions (as callgrind_annotate
# annotates files, not functions).
from_cgu() {   # PROFILE NEVENTS
	"$CGU" annotate --names=file --function 'source-prog\.[ch]:' --context 0 \
		"$1" | awk -v nev="$2" '
	/^-- / || NF == 0 { next }
	$(nev + 1) == "line" { file = $(nev + 2); next }
	{
		costs = ""; any = 0
		for (i = 1; i <= nev; i++) {
			c = $i == "." ? 0 : $i; costs = costs " " c
			if (c != 0) any = 1
		}
		if ($(nev + 1) == "=>") {
			rest = $0
			sub(/^.*=> /, "=> ", rest)
			key = file " " line " " rest
		} else {
			line = $(nev + 1); key = file " " line
		}
		if (!any) next
		if (!(key in sum)) { order[++n] = key; sum[key] = costs; next }
		split(sum[key], a, " "); split(costs, b, " "); s = ""
		for (i = 1; i <= nev; i++) s = s " " a[i] + b[i]
		sum[key] = s
	}
	END { for (i = 1; i <= n; i++) print order[i] sum[order[i]] }' |
	LC_ALL=C sort
}
compare() {   # NAME PROFILE NEVENTS
	from_callgrind_annotate "$2" "$3" | sed "s|$work/||g" | grep '^source-prog\.[ch] ' >"$1.ca"
	from_cgu "$2" "$3" | sed "s|$work/||g" >"$1.cgu"
	if [ "$(grep -c '^source-prog\.c .* => ' "$1.ca")" -lt 8 ] ||
	   [ "$(grep -c '^source-prog\.h ' "$1.ca")" -lt 3 ]; then
		fail "$1: too few lines in callgrind_annotate's output"; cat "$1.ca"
	elif diff -u "$1.ca" "$1.cgu"; then
		pass
	else
		fail "$1: line costs differ from callgrind_annotate --auto=yes"
	fi
}
compare lines lines.out 9
compare instr instr.out 1

# The layout: a function's lines in its file, a call under its line, the
# inlined lines in a section of their own file, context around them.
"$CGU" annotate --function '^main$' instr.out >main.txt 2>main.err
sed "s|$work/||g" main.txt >main.rel
if grep -qx '          Ir    line  source-prog.c' main.rel &&
   grep -qx '         200      41  		total += sum_squares(i) + mix(i, total);' main.rel &&
   grep -q '^        3110          => sum_squares (20x)$' main.rel &&
   grep -qx '          Ir    line  source-prog.h' main.rel &&
   grep -qx '         100       5  	int r = a \* 31;' main.rel &&
   grep -qx '           .      34  ' main.rel && [ ! -s main.err ]; then
	pass
else
	fail "layout of main"; cat main.rel main.err
fi

# ---- bad input
expect() {   # NAME STATUS STDERR-LINE CMD...: exit status and first line of stderr
	name=$1 want=$2 msg=$3
	shift 3
	"$@" >out.txt 2>err.txt
	got=$?
	if [ "$got" = "$want" ] && [ "$(head -n 1 err.txt)" = "$msg" ]; then
		pass
	else
		fail "$name: exit $got (expected $want): $(cat err.txt)"; echo "  expected: $msg"
	fi
}

# The source gone: one warning for the file (main and the other
# functions of source-prog.c share it), the costs still shown.
mkdir gone && sed "s|$work/source-prog|$work/gone/source-prog|" lines.out >gone.out
expect "missing source" 0 \
	"callgrind-utils: warning: $work/gone/source-prog.c: cannot read source: No such file or directory; its lines are shown without text" \
	"$CGU" annotate --function 'source-prog\.c' --names=file gone.out
[ "$(grep -c 'gone/source-prog.c:' err.txt)" = 1 ] && [ "$(wc -l <err.txt)" = 2 ] &&
	grep -q "          Ir.*line  $work/gone/source-prog.c (source not read)" out.txt &&
	grep -qE '^ +200 .* +41$' out.txt && pass ||
	{ fail "missing source: one warning a file, costs kept"; cat err.txt out.txt; }

# A relative path, found through --include (-I) only.
sed "s|$work/source-prog|source-prog|" lines.out >relative.out
mkdir elsewhere
(cd elsewhere && "$CGU" annotate --function '^main$' -I "$work" ../relative.out >../rel.txt 2>../rel.err)
grep -q 'total += sum_squares' rel.txt && [ ! -s rel.err ] && pass ||
	{ fail "--include"; cat rel.txt rel.err; }
(cd elsewhere && "$CGU" annotate --function '^main$' ../relative.out >../rel.txt 2>../rel.err)
[ "$(head -n 1 rel.err)" = "callgrind-utils: warning: source-prog.c: cannot read source: No such file or directory (in the current directory; -I DIR looks in DIR too); its lines are shown without text" ] &&
	pass || { fail "relative path without --include"; cat rel.err; }

# A source shorter than the profile says (edited since the build).
mkdir short && head -n 20 source-prog.c >short/source-prog.c && cp source-prog.h short/
sed "s|$work/source-prog|$work/short/source-prog|" lines.out >short.out
expect "short source" 0 \
	"callgrind-utils: warning: $work/short/source-prog.c: has 20 lines, the profile has costs on line 24 (is the source newer than the program?); its lines are shown without text" \
	"$CGU" annotate --function "^depth$" short.out
[ "$(wc -l <err.txt)" = 1 ] && pass || { fail "short source: one warning"; cat err.txt; }

# A file name that is a directory, and a line number far past any file:
# a warning, no hang.
printf 'events: Ir\nfl=%s\nfn=f\n999999999999 5\nfl=/\nfn=g\n1 3\n' "$work/source-prog.c" >odd.out
expect "odd lines" 0 \
	"callgrind-utils: warning: $work/source-prog.c: has 48 lines, the profile has costs on line 999999999999 (is the source newer than the program?); its lines are shown without text" \
	"$CGU" annotate odd.out
[ "$(sed -n 2p err.txt)" = "callgrind-utils: warning: /: cannot read source: Is a directory; its lines are shown without text" ] &&
	pass || { fail "a directory as source"; cat err.txt; }

printf 'positions: instr\nevents: Ir\nfl=a.c\nfn=f\n0x10 5\n' >instr-only.out
expect "no line positions" 2 \
	"callgrind-utils: expected a profile with line positions ('positions: line' or 'instr line', valgrind's default), got 'positions: instr'" \
	"$CGU" annotate instr-only.out
printf 'events: Ir\nfl=a.c\nfn=f\n3 5\n4 x\n' >bad.out
expect "malformed profile" 2 "callgrind-utils: bad.out:5: expected a number for event Ir, got 'x'" \
	"$CGU" annotate bad.out
expect "no function matches" 1 "callgrind-utils: no function matches" \
	"$CGU" annotate --function '^nothing$' lines.out
expect "bad --context" 1 "callgrind-utils annotate: --context expects a number from 0 to 10000, got 'x'" \
	"$CGU" annotate --context x lines.out
expect "--source with --asm" 1 "callgrind-utils annotate: --asm and --source: choose one" \
	"$CGU" annotate --source --asm lines.out

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
