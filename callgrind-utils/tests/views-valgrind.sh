#!/bin/sh
# views-valgrind.sh - the views of real profiles: Valgrind (VALGRIND,
# default from PATH) profiles tests/prog/views-a.c + views-b.c with the
# options users give (--cache-sim=yes, --compress-strings=no,
# --collect-stacks=yes, --separate-recs, --separate-callers), and
#  - stacks start at main (or [start-up]), --all-frames shows the rest;
#  - the two static check_match functions stay two functions;
#  - summary shows every event, sorts by --sort, stops at --threshold;
#  - --focus, --ignore and --hide keep, drop and thin out stacks;
#  - --merge folds recursion levels and caller contexts into functions;
#  - callers and callees list a function's neighbours.
# Skipped (77) when the Valgrind has no --collect-stacks.
set -u
. "$(dirname "$0")/valgrind-stacks.sh"
cp "$TEST_DATA/../prog/views-a.c" "$TEST_DATA/../prog/views-b.c" .
$CC -g -O1 -o views views-a.c views-b.c || exit 1
# run NAME COMMAND...: stdout to NAME, a failure reported
run() {
	out=$1; shift
	"$@" >"$out" 2>err || { fail "$* exited $?: $(cat err)"; return 1; }
}
profile() {      # profile OUT OPTIONS...: callgrind OUT of ./views
	out=$1; shift
	"$VALGRIND" --tool=callgrind --callgrind-out-file="$out" "$@" ./views \
		>/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }
}
sum() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
# the first frames of the lines of a folded file, once each
roots() { sed 's/[; ].*//' "$1" | sort -u | tr '\n' ' '; }
# column $2 (1 = the first count) of the line of function $1 of a summary $3
column() {
	awk -v f="$1" -v c="$2" '!/^#/ && $NF == f { print $(c); exit }' "$3"
}

profile cg.out --collect-stacks=yes --cache-sim=yes --compress-strings=no
[ -f cg.out.stacks ] || { echo "FAIL: no cg.out.stacks"; exit 1; }
total=$(awk '/^totals:/ { print $2 }' cg.out)

# --- 3: the stacks start at main; the start-up frames are one option away
for how in "" --reconstructed; do
	run fold.txt "$CGU" fold $how cg.out || continue
	[ "$(sum fold.txt)" = "$total" ] || fail "fold $how: $(sum fold.txt), not $total"
	[ "$(roots fold.txt)" = "[start-up] main " ] ||
		fail "fold $how: roots $(roots fold.txt), expected [start-up] and main"
	grep -Eq '\(below main\)|__libc_start_main|(^|;)_start[; ]' fold.txt &&
		fail "fold $how: start-up frames left: $(grep -m1 'below main' fold.txt)"
	run all.txt "$CGU" fold $how --all-frames cg.out || continue
	[ "$(sum all.txt)" = "$total" ] || fail "fold $how --all-frames does not add up"
	grep -q '^main;' all.txt && fail "fold $how --all-frames: main is a root"
	grep -q '(below main);.*;main;from_a' all.txt ||
		fail "fold $how --all-frames: no (below main) below main"
	[ "$(drawn main all.txt)" = "$(drawn main fold.txt)" ] ||
		fail "fold $how: main is $(drawn main fold.txt) wide, $(drawn main all.txt) with all frames"
done
run flame.svg "$CGU" flamegraph cg.out
grep -q 'data-d="1" data-n="main"' flame.svg || fail "flamegraph: main is not a root"
grep -q 'data-n="[^"]*(below main)"' flame.svg && fail "flamegraph: (below main) drawn"
run flame.svg "$CGU" flamegraph --all-frames cg.out
grep -q 'data-n="[^"]*(below main)"' flame.svg || fail "flamegraph --all-frames: no (below main)"
# the two (below main) are two functions: the program's _start (no debug
# information) and glibc's __libc_start_call_main, which Valgrind both
# names so; the flame graph tells them apart
[ "$(grep -o 'data-n="[^"]*(below main)"' flame.svg | sort -u | wc -l)" = 2 ] ||
	fail "flamegraph --all-frames: not two (below main) functions"

# --- 8: functions of the same name in two files stay apart
run fold.txt "$CGU" fold cg.out
a=$(drawn views-a.c:check_match fold.txt) b=$(drawn views-b.c:check_match fold.txt)
[ "$a" -gt 0 ] && [ "$b" -gt "$a" ] || fail "check_match of views-a.c $a, of views-b.c $b"
grep -q '^main;from_a;views-a.c:check_match [0-9]*$' fold.txt || fail "no main;from_a;views-a.c:check_match"
run sum.txt "$CGU" summary -n 0 -e Ir cg.out
[ "$(grep -c ' views-[ab].c:check_match$' sum.txt)" = 2 ] || fail "summary: not two check_match"
grep -q ' fib$' sum.txt || fail "summary: fib is not named fib alone"
run sum.txt "$CGU" summary -n 0 -e Ir --names function cg.out
[ "$(grep -c ' check_match$' sum.txt)" -ge 2 ] || fail "summary --names function: check_match not listed twice"
run flame.svg "$CGU" flamegraph cg.out
grep -q 'data-n="views-b.c:check_match" data-o="[^"]*views" data-f="[^"]*views-b.c"' flame.svg ||
	fail "flamegraph: views-b.c:check_match without its object and file"
run edges.txt "$CGU" edges cg.out
grep -q '^from_a -> views-a.c:check_match 1 ' edges.txt || fail "edges: from_a -> views-a.c:check_match"

# --- 4: summary: every event, --sort, --threshold
events=$(awk '/^events:/ { $1 = ""; print }' cg.out | sed 's/^ //')
n=$(echo "$events" | wc -w)
run sum.txt "$CGU" summary -n 0 cg.out
grep -q "^# events $events, totals $total [0-9 ]*, by self Ir$" sum.txt || fail "summary: header $(head -1 sum.txt)"
awk -v n="$n" '!/^#/ && $NF == "main" && NF != 2 * n + 3 { exit 1 }' sum.txt ||
	fail "summary: not $n events on main's line"
[ "$(grep -c ' main$' sum.txt)" = 1 ] || fail "summary: no main line"
[ "$(column views-b.c:check_match 1 sum.txt)" = "$(awk '/^totals:/ { print $2 }' cg.out | head -1)" ] &&
	fail "summary: check_match has all the cost"
# Dr is the second event: the lines in Dr order with --sort Dr
run sum.txt "$CGU" summary -n 0 --sort Dr cg.out
grep -q '^# events .*, by self Dr$' sum.txt || fail "summary --sort Dr header"
awk '!/^#/ { if (seen && $2 > last) exit 1; last = $2; seen = 1 }' sum.txt ||
	fail "summary --sort Dr: not in Dr order"
run incl.txt "$CGU" summary -n 0 --sort Dr --inclusive cg.out
awk -v n="$n" '!/^#/ { c = $(n + 3); if (seen && c > last) exit 1; last = c; seen = 1 }' incl.txt ||
	fail "summary --sort Dr --inclusive: not in inclusive Dr order"
# --threshold 50: the lines before the last hold less than half of Ir
run all.txt "$CGU" summary -n 0 -e Ir cg.out
run half.txt "$CGU" summary -n 0 -e Ir --threshold 50 cg.out
lines=$(grep -vc '^#' half.txt)
[ "$lines" -ge 1 ] && [ "$lines" -lt "$(grep -vc '^#' all.txt)" ] || fail "--threshold 50 shows $lines lines"
grep -v '^#' half.txt | awk -v t="$total" '{ s += $1; if (NR < n) before = s } END {
	if (!(before * 2 < t && s * 2 >= t)) exit 1 }' n="$lines" || fail "--threshold 50 stops at the wrong line"
grep -q '^# event Ir, total [0-9]*, by self, threshold 50%$' half.txt || fail "--threshold header"
if [ -n "${CALLGRIND_ANNOTATE:-}" ] && command -v "$CALLGRIND_ANNOTATE" >/dev/null 2>&1; then
	"$CALLGRIND_ANNOTATE" --threshold=50 --auto=no cg.out 2>/dev/null >ca.txt
	ca=$(awk '/file:function/ { on = 1; next } on && /[0-9]/ && /:/ { n++ } END { print n + 0 }' ca.txt)
	[ "$ca" = "$lines" ] || fail "--threshold 50: $lines functions, callgrind_annotate $ca"
fi
for bad in -1 101 x; do
	"$CGU" summary --threshold "$bad" cg.out >/dev/null 2>err; rc=$?
	[ "$rc" = 1 ] && grep -q -- '--threshold' err || fail "--threshold $bad exited $rc"
done
"$CGU" summary --sort NoSuch cg.out >/dev/null 2>err; rc=$?
[ "$rc" = 1 ] && grep -q "no event 'NoSuch'" err || fail "--sort NoSuch exited $rc: $(cat err)"

# --- 5: focus, ignore, hide
run fold.txt "$CGU" fold cg.out
fb=$(drawn from_b fold.txt)
run focus.txt "$CGU" fold --focus '^from_b$' cg.out
[ "$(sum focus.txt)" = "$fb" ] || fail "--focus from_b: $(sum focus.txt), not $fb"
grep -v ';from_b' focus.txt && fail "--focus from_b kept other stacks"
run ignore.txt "$CGU" fold --ignore '^from_b$' cg.out
[ "$(sum ignore.txt)" = $((total - fb)) ] || fail "--ignore from_b: $(sum ignore.txt)"
grep -q 'from_b' ignore.txt && fail "--ignore from_b kept from_b"
run hide.txt "$CGU" fold --hide 'check_match' cg.out
[ "$(sum hide.txt)" = "$total" ] || fail "--hide changed the total"
grep -q 'check_match' hide.txt && fail "--hide check_match left a check_match"
grep -q '^main;from_b [0-9]*$' hide.txt || fail "--hide: no main;from_b"
run focus.txt "$CGU" fold --reconstructed --focus 'from_a' cg.out
grep -v ';from_a' focus.txt && fail "--reconstructed --focus from_a kept other stacks"
run flame.svg "$CGU" flamegraph --focus from_b cg.out
grep -q 'data-n="from_a"' flame.svg && fail "flamegraph --focus from_b drew from_a"
grep -q 'data-n="from_b"' flame.svg || fail "flamegraph --focus from_b: no from_b"
run ss.json "$CGU" speedscope --ignore check_match cg.out
grep -q check_match ss.json && fail "speedscope --ignore check_match"
run sum.txt "$CGU" summary -n 0 -e Ir --focus '^from_b$' cg.out
[ "$(column main 3 sum.txt)" = "$fb" ] || fail "summary --focus from_b: main's inclusive $(column main 3 sum.txt), not $fb"
grep -q 'from_a\|^# .*keep '"$fb of $total"' Ir$' sum.txt || fail "summary --focus: no note on what is kept"
grep -q ' from_a$' sum.txt && fail "summary --focus from_b lists from_a"
# folded input: focus without a profile
run f2.txt "$CGU" fold --all-frames cg.out
run flame.svg "$CGU" flamegraph --focus from_b f2.txt
grep -q 'data-n="from_a"' flame.svg && fail "flamegraph of folded input --focus drew from_a"
for cmd in fold flamegraph speedscope summary; do
	"$CGU" $cmd --focus '(' cg.out >/dev/null 2>err; rc=$?
	[ "$rc" = 1 ] && grep -q -- "--focus '(': bad regular expression" err ||
		fail "$cmd --focus '(' exited $rc: $(cat err)"
done

# --- 6: merging recursion levels and caller contexts
profile ctx.out --separate-recs=10 --separate-callers=2
run sum.txt "$CGU" summary -n 0 -e Ir ctx.out
grep -q "fib'2" sum.txt || fail "no fib'2 in a --separate-recs profile"
fibs=$(awk '!/^#/ && /%  fib('"'"'|$)/ { s += $1 } END { print s }' sum.txt)
run merged.txt "$CGU" summary -n 0 -e Ir --merge all ctx.out
[ "$(column fib 1 merged.txt)" = "$fibs" ] || fail "--merge all: fib $(column fib 1 merged.txt), not $fibs"
grep -v '^#' merged.txt | grep -q "'" && fail "--merge all left a ' name"
run rec.txt "$CGU" edges --merge recursion ctx.out
grep -q "^fib'main'(below main) -> fib'main'(below main) " rec.txt ||
	fail "edges --merge recursion: fib's levels do not call fib"
grep -q "fib'[0-9]" rec.txt && fail "edges --merge recursion left a level"
run calls.txt "$CGU" edges --merge callers ctx.out
grep -q "^fib -> fib'2 " calls.txt || fail "edges --merge callers: no fib -> fib'2"
run fold.txt "$CGU" fold --merge all ctx.out
[ "$(sum fold.txt)" = "$(awk '/^totals:/ { print $2 }' ctx.out)" ] || fail "fold --merge all does not add up"
# the exact stacks merge too: fib's recursion, a chain of fib frames in
# them, is one fib frame with --merge recursion, as in the stacks drawn
# from the call graph, whose levels fib'2, fib'3... merge into fib
profile ctxs.out --separate-recs=10 --collect-stacks=yes
run plain.txt "$CGU" fold ctxs.out
grep -q '^main;fib;fib ' plain.txt || fail "exact stacks without --merge: no main;fib;fib"
for input in ctxs.out ctxs.out.stacks; do
	run fold.txt "$CGU" fold --merge recursion "$input" || continue
	grep -q 'fib;fib' fold.txt && fail "fold --merge recursion $input: fib under fib: $(grep -m1 'fib;fib' fold.txt)"
	[ "$(sum fold.txt)" = "$(awk '/^totals:/ { print $2 }' ctxs.out)" ] ||
		fail "fold --merge recursion $input does not add up"
done
run recon.txt "$CGU" fold --reconstructed --merge recursion ctxs.out
[ "$(grep '^main;fib ' fold.txt)" = "$(grep '^main;fib ' recon.txt)" ] ||
	fail "--merge recursion: exact $(grep '^main;fib ' fold.txt), reconstructed $(grep '^main;fib ' recon.txt)"
for cmd in flamegraph speedscope; do
	run merged.out "$CGU" $cmd --merge all ctxs.out
	[ "$(grep -o '"fib"' merged.out | wc -l)" = 1 ] ||
		fail "$cmd --merge all: fib drawn $(grep -o '"fib"' merged.out | wc -l) times"
done
"$CGU" summary --merge everything ctx.out >/dev/null 2>err; rc=$?
[ "$rc" = 1 ] && grep -q -- '--merge: expected' err || fail "--merge everything exited $rc"

# --- 2: callers and callees of one function
run callers.txt "$CGU" callers --function 'views-.\.c:check_match$' cg.out
[ "$(grep -c '^views-[ab].c:check_match: self ' callers.txt)" = 2 ] || fail "callers: not both check_match"
grep -A2 '^views-a.c:check_match:' callers.txt | grep -q '^ *1 *60005 .*  from_a$' ||
	fail "callers: from_a does not call views-a.c:check_match once for 60005 Ir"
run callees.txt "$CGU" callees --function '^main$' -e Dr cg.out
grep -q '^# event Dr, ' callees.txt || fail "callees -e Dr"
[ "$(grep -A4 '^main:' callees.txt | awk '$NF ~ /^(from_a|from_b|fib)$/' | wc -l)" = 3 ] ||
	fail "callees of main: not from_a, from_b and fib"
grep -A3 '^main:' callees.txt | sed -n 3p | grep -q ' from_b$' || fail "callees: from_b is not the heaviest"
for bad in "--function (" "--function no_such_function" ""; do
	"$CGU" callers $bad cg.out >/dev/null 2>err; rc=$?
	[ "$rc" = 1 ] && [ -s err ] || fail "callers $bad exited $rc"
done

[ "$fails" = 0 ] && echo "PASS: views of real profiles" && exit 0
exit 1
