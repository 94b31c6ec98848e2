#!/bin/sh
# flame-cli.sh - flamegraph, speedscope and diff from the command line:
# exact outputs, and exit status 1 for usage errors, 2 for bad input.
set -u
CGU=${CGU:-./callgrind-utils}
D=${TEST_DATA:-$(dirname "$0")/data}
. "$(dirname "$0")/check-lib.sh"

for cmd in flamegraph speedscope diff; do
	check "$cmd --help" 0 - "$CGU" "$cmd" --help
	grep -q "^Usage: callgrind-utils $cmd " "$tmp/out" || { echo "FAIL: $cmd --help text"; fails=$((fails + 1)); }
done

# --- bad input and usage
check "broken folded" 2 - "$CGU" flamegraph "$D/flame-bad.folded"
check_err "broken folded message" \
	"callgrind-utils: $D/flame-bad.folded:2: expected a non-negative integer count, got 'x'"
printf 'a;;b 3\n' >"$tmp/empty-frame.folded"
check "empty frame" 2 - "$CGU" flamegraph "$tmp/empty-frame.folded"
check_err "empty frame message" \
	"callgrind-utils: $tmp/empty-frame.folded:1: expected a frame name between ';' separators"
check "missing file" 2 - "$CGU" flamegraph "$tmp/none.folded"
check_err "missing file message" "callgrind-utils: $tmp/none.folded: cannot open: No such file or directory"
check "unknown event" 1 - "$CGU" flamegraph -e Bc "$D/flame.out"
check "speedscope broken" 2 - "$CGU" speedscope "$D/flame-bad.folded"
check "diff broken" 2 - "$CGU" diff "$D/flame-before.folded" "$D/flame-bad.folded"
# empty input (a file, stdin, blank lines) is an error, not an empty graph
: >"$tmp/empty"
printf '\n\n' >"$tmp/blank"
for cmd in flamegraph speedscope; do
	check "$cmd empty file" 2 - "$CGU" "$cmd" "$tmp/empty"
	check_err "$cmd empty file message" \
		"callgrind-utils: $tmp/empty: no stacks; expected folded stacks ('a;b;c 123' lines), a Callgrind profile or a stacks file"
	check "$cmd empty stdin" 2 - sh -c "\"$CGU\" $cmd </dev/null"
	check_err "$cmd empty stdin message" \
		"callgrind-utils: <stdin>: no stacks; expected folded stacks ('a;b;c 123' lines), a Callgrind profile or a stacks file"
	check "$cmd blank lines" 2 - "$CGU" "$cmd" - <"$tmp/blank"
done
check "diff with an empty input" 2 - "$CGU" diff "$tmp/empty" "$D/flame-after.folded"
check "bad palette" 1 - "$CGU" flamegraph --colors rainbow "$D/flame-after.folded"
check "bad width" 1 - "$CGU" flamegraph --width abc "$D/flame-after.folded"
check "diff one input" 1 - "$CGU" diff "$D/flame-before.folded"
check "minwidth over 100%" 1 - "$CGU" flamegraph --minwidth 101% "$D/flame-after.folded"
check_err "minwidth over 100% message" \
	"callgrind-utils flamegraph: --minwidth expects pixels or a percent from 0% to 100%, got '101%'"
check "minwidth bare %" 1 - "$CGU" flamegraph --minwidth % "$D/flame-after.folded"
# a profile has no time order: --flamechart is refused, for its exact
# stacks too
check "flamechart of a profile" 1 - "$CGU" flamegraph --flamechart "$D/flame.out"
check_err "flamechart of a profile message" \
	"callgrind-utils flamegraph: --flamechart: a Callgrind profile does not record when calls happened (it sums each call path's cost over the run, and its exact stacks are a tree in name order); it takes folded stacks whose lines are in time order"
check "flamechart of exact stacks" 1 - "$CGU" flamegraph --flamechart "$D/shapes.out"
"$CGU" diff --folded "$D/flame-before.folded" "$D/flame-after.folded" >"$tmp/diff.folded"
check "flamechart of differential stacks" 1 - "$CGU" flamegraph --flamechart "$tmp/diff.folded"
check "diff --flamechart" 1 - "$CGU" diff --flamechart "$D/flame-before.folded" "$D/flame-after.folded"
# --minwidth N%: frames under N percent of the total are not in the SVG
# (flame-after.folded: total 200, parse and malloc 10% each)
check "minwidth percent" 0 - "$CGU" flamegraph --minwidth 10.5% "$D/flame-after.folded"
grep -o 'data-n="[^"]*"' "$tmp/out" | sort >"$tmp/names.pct"
printf '%s\n' 'data-n="all"' 'data-n="main"' 'data-n="render"' >"$tmp/names.exp"
check "minwidth percent frames" 0 "$tmp/names.exp" cat "$tmp/names.pct"

# --- flamegraph straight from a profile: fold -> folded text -> SVG
check "flamegraph profile" 0 - "$CGU" flamegraph --width 1000 "$D/flame.out"
grep -o '<g class="f"[^>]*><title>[^<]*</title><rect x="[^"]*" y="[^"]*" width="[^"]*"' "$tmp/out" |
	sed 's/ y="[^"]*"//' >"$tmp/frames"
# flame.out has no stacks file beside it: the subtitle says the stacks
# are an estimate, and how to get exact ones
grep -q '>cmd: ./flame, event: Ir, reconstructed stacks: an estimate (exact ones with callgrind --collect-stacks=yes)</text>' "$tmp/out" ||
	{ echo "FAIL: subtitle"; fails=$((fails + 1)); }
cat >"$tmp/frames.exp" <<'EXP'
<g class="f" data-x="0" data-w="1000" data-s="0" data-d="0" data-n="all"><title>all (1000 Ir, 100.00%)</title><rect x="10.00" width="980.00"
<g class="f" data-x="0" data-w="1000" data-s="100" data-d="1" data-n="main" data-o="/usr/bin/flame" data-f="flame.c"><title>main (1000 Ir, 100.00%)</title><rect x="10.00" width="980.00"
<g class="f" data-x="0" data-w="600" data-s="600" data-d="2" data-n="compute" data-o="/usr/bin/flame" data-f="flame.c"><title>compute (600 Ir, 60.00%)</title><rect x="10.00" width="588.00"
<g class="f" data-x="600" data-w="300" data-s="300" data-d="2" data-n="malloc" data-o="/lib/x86_64-linux-gnu/libc.so.6" data-f="malloc.c"><title>malloc (300 Ir, 30.00%)</title><rect x="598.00" width="294.00"
EXP
check "flamegraph profile frames" 0 "$tmp/frames.exp" cat "$tmp/frames"
# A profile whose first line is another comment than "# callgrind
# format" (any '#' line may come first): read as the profile it is, not
# as folded stacks, by every command that takes both
{ echo '# profiled by hand, see flame.c'; echo; sed 1d "$D/flame.out"; } >"$tmp/comment.out"
for cmd in flamegraph speedscope pprof firefox; do
	"$CGU" "$cmd" -o "$tmp/plain.$cmd" "$D/flame.out"
	check "$cmd of a profile after a comment" 0 - "$CGU" "$cmd" -o "$tmp/comment.$cmd" "$tmp/comment.out"
	cmp -s "$tmp/plain.$cmd" "$tmp/comment.$cmd" && passes=$((passes + 1)) ||
		{ echo "FAIL: $cmd: a comment first changes the output"; fails=$((fails + 1)); }
done
# ... and folded stacks whose first frame starts with '#' stay folded
printf '#define;x 3\nmain;y 2\n' >"$tmp/hash.folded"
check "folded with a '#' frame first" 0 - "$CGU" flamegraph "$tmp/hash.folded"
grep -q 'data-n="#define"' "$tmp/out" && passes=$((passes + 1)) ||
	{ echo "FAIL: '#define' frame"; fails=$((fails + 1)); }
check "flamegraph -e Dr from stdin" 0 - sh -c "\"$CGU\" flamegraph -e Dr - <\"$D/flame.out\""
grep -q '<title>compute (60 Dr, 60.00%)</title>' "$tmp/out" || { echo "FAIL: -e Dr"; fails=$((fails + 1)); }

# --- speedscope: every event as its own profile
cat >"$tmp/speedscope.exp" <<'EXP'
{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main","file":"flame.c"},{"name":"compute","file":"flame.c"},{"name":"malloc","file":"malloc.c"}]},"profiles":[{"type":"sampled","name":"Ir","unit":"none","startValue":0,"endValue":1000,"samples":[[0],[0,1],[0,2]],"weights":[100,600,300]},{"type":"sampled","name":"Dr","unit":"none","startValue":0,"endValue":100,"samples":[[0],[0,1],[0,2]],"weights":[10,60,30]}],"name":"./flame - reconstructed stacks: an estimate (exact ones with callgrind --collect-stacks=yes)","activeProfileIndex":0,"exporter":"callgrind-utils 0.1.0"}
EXP
check "speedscope profile" 0 "$tmp/speedscope.exp" "$CGU" speedscope "$D/flame.out"

# --- diff
cat >"$tmp/diff.exp" <<'EXP'
main 0 10
main;old 10 0
main;parse 40 20
main;render 50 150
main;render;malloc 0 20
EXP
check "diff --folded" 0 "$tmp/diff.exp" "$CGU" diff --folded "$D/flame-before.folded" "$D/flame-after.folded"
cat >"$tmp/diffn.exp" <<'EXP'
main 0 10
main;old 20 0
main;parse 80 20
main;render 100 150
main;render;malloc 0 20
EXP
check "diff --folded --normalize" 0 "$tmp/diffn.exp" \
	"$CGU" diff --folded --normalize "$D/flame-before.folded" "$D/flame-after.folded"
check "diff svg" 0 - "$CGU" diff -o "$tmp/diff.svg" "$D/flame-before.folded" "$D/flame-after.folded"
grep -q 'data-n="render"[^>]*><title>render (170 samples, 85.00%, before 50)</title><rect [^>]*fill="rgb(255,45,45)"' "$tmp/diff.svg" ||
	{ echo "FAIL: diff svg render frame"; fails=$((fails + 1)); }
# diff --folded output read back by flamegraph: the differential graph
# diff draws itself, not frames named "render 50"
check "diff --folded | flamegraph" 0 - sh -c "\"$CGU\" diff --folded \"$D/flame-before.folded\" \"$D/flame-after.folded\" | \"$CGU\" flamegraph -"
cp "$tmp/out" "$tmp/dff.svg"
check "it is diff's graph" 0 "$tmp/diff.svg" cat "$tmp/dff.svg"
grep -q '>Differential Flame Graph</text>' "$tmp/dff.svg" && ! grep -q 'data-n="[a-z]* [0-9]*"' "$tmp/dff.svg" ||
	{ echo "FAIL: differential folded input drawn as plain stacks"; fails=$((fails + 1)); }
"$CGU" diff --folded "$D/flame.out" "$D/flame-after.folded" >"$tmp/pd.folded"
"$CGU" diff -o "$tmp/pd.svg" "$D/flame.out" "$D/flame-after.folded"
check "diff --folded of a profile | flamegraph" 0 - "$CGU" flamegraph -o "$tmp/pdf.svg" "$tmp/pd.folded"
# (folded text carries no objects and files: compare the rest)
frames_of() { grep -o '<g class="f"[^>]*>' "$1" | sed 's/ data-[of]="[^"]*"//g'; }
frames_of "$tmp/pd.svg" >"$tmp/pd.frames"
check "the same frames as diff's" 0 "$tmp/pd.frames" frames_of "$tmp/pdf.svg"
printf 'main 0 10\nmain;a 5\n' >"$tmp/half.folded"
check "differential, then one count" 2 - "$CGU" flamegraph "$tmp/half.folded"
check_err "differential, then one count: message" \
	"callgrind-utils: $tmp/half.folded:2: expected 'STACK BEFORE AFTER' (two counts, as the first line has: differential folded stacks)"
# one count on the first line: a number before it stays in the name
printf 'main;a 7\nmain;b 2 3\n' >"$tmp/named.folded"
check "one count, a number in a name" 0 - "$CGU" flamegraph "$tmp/named.folded"
grep -q 'data-n="b 2"' "$tmp/out" || { echo "FAIL: 'b 2' frame"; fails=$((fails + 1)); }
check "speedscope takes AFTER" 0 - sh -c "\"$CGU\" diff --folded \"$D/flame-before.folded\" \"$D/flame-after.folded\" | \"$CGU\" speedscope -"
check_err "speedscope warning" \
	"callgrind-utils: warning: <stdin>: differential folded stacks ('STACK BEFORE AFTER'); speedscope takes their AFTER counts"
grep -q '"endValue":200,' "$tmp/out" || { echo "FAIL: speedscope AFTER total"; fails=$((fails + 1)); }
printf 'main 100 100\nmain;compute 600 600\nmain;malloc 300 300\n' >"$tmp/self.exp"
check "diff profile to itself" 0 "$tmp/self.exp" "$CGU" diff --folded "$D/flame.out" "$D/flame.out"

# --- names that are not UTF-8 or hold control characters: json,
# speedscope and the SVG stay valid UTF-8 JSON and XML (checked by
# python3's strict parsers when it is there)
printf 'events: Ir\nob=/bin/a\376\nfl=a.c\nfn=main\n1 10\ncfn=bad\377\303(\001\033[31m\177)\ncalls=1 1\n1 5\ncfn=caf\303\251\ncalls=1 1\n1 5\nfn=bad\377\303(\001\033[31m\177)\n1 5\nfn=caf\303\251\n1 5\n' >"$tmp/names.out"
check "json of odd names" 0 - "$CGU" json "$tmp/names.out"
grep -q '"function":"bad\\ufffd\\ufffd(\\u0001\\u001b\[31m\\u007f)"' "$tmp/out" ||
	{ echo "FAIL: json odd name"; grep -o '"function":"bad[^"]*"' "$tmp/out"; fails=$((fails + 1)); }
cp "$tmp/out" "$tmp/names.json"
check "speedscope of odd names" 0 - "$CGU" speedscope -o "$tmp/names.speedscope" "$tmp/names.out"
check "flamegraph of odd names" 0 - "$CGU" flamegraph -o "$tmp/names.svg" "$tmp/names.out"
grep -q 'data-n="bad&#xfffd;&#xfffd;(&#xfffd;&#xfffd;\[31m&#127;)"' "$tmp/names.svg" ||
	{ echo "FAIL: svg odd name"; fails=$((fails + 1)); }
if command -v python3 >/dev/null 2>&1; then
	for f in names.json names.speedscope; do
		check "$f is valid JSON" 0 - python3 -c 'import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/$f"
	done
	check "names.svg is valid XML" 0 - python3 -c 'import sys, xml.etree.ElementTree as ET
ET.fromstring(open(sys.argv[1], "rb").read())' "$tmp/names.svg"
else
	echo "note: no python3, JSON and XML not parsed"
fi

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
