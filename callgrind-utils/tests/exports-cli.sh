#!/bin/sh
# exports-cli.sh - pprof, firefox and dot on the hand-written profiles,
# read back by their consumers: pprof's profile through protoc --decode
# (with the messages of profile.proto written in export-lib.sh), the
# Firefox Profiler file through a reader of its processed format
# (python3), the DOT graph through Graphviz' dot.  The stacks they read
# must be those of 'callgrind-utils fold', event by event; the DOT graph
# must keep exactly the functions and calls over its thresholds, as
# 'summary' and 'edges' give their costs.  Bad input exits 2 with
# file:line, bad options 1.  A consumer that is not installed skips its
# checks (scripts/deps.sh base installs them all).
set -u
CGU=${CGU:-./callgrind-utils}
D=${TEST_DATA:-$(dirname "$0")/data}
. "$(dirname "$0")/check-lib.sh"
. "$(dirname "$0")/export-lib.sh"

ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
have() { command -v "$1" >/dev/null 2>&1 || { echo "SKIP: no $1: $2"; return 1; }; }

# same NAME FILE1 FILE2: the two (folded) files are equal
same() {
	if cmp -s "$2" "$3"; then ok; else bad "$1"; diff -u "$2" "$3" | head -20; fi
}

# events FILE: the event names of a profile, one a line
events() { "$CGU" json "$1" | python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["events"]))'; }

# round_trip NAME PROFILE [OPTIONS]: pprof and firefox of PROFILE (every
# event) read back equal fold's stacks of every event
round_trip() {
	name=$1 prof=$2
	shift 2
	"$CGU" pprof "$@" -o "$tmp/p.pb.gz" "$prof" 2>"$tmp/err" || { bad "$name: pprof: $(cat "$tmp/err")"; return; }
	"$CGU" firefox "$@" -o "$tmp/f.json" "$prof" 2>"$tmp/err" || { bad "$name: firefox: $(cat "$tmp/err")"; return; }
	[ -n "$have_protoc" ] && pprof_decode "$tmp/p.pb.gz" >"$tmp/p.txt" ||
		{ [ -n "$have_protoc" ] && bad "$name: protoc cannot decode"; }
	i=0
	for ev in $(events "$prof"); do
		# --separate-parts: the first part, as speedscope takes it
		"$CGU" fold -e "$ev" "$@" "$prof" |
			awk '/^# part: / { if (++part > 1) exit; next } { print }' |
			LC_ALL=C sort >"$tmp/want"
		if [ -n "$have_protoc" ]; then
			decoded_fold "$i" <"$tmp/p.txt" >"$tmp/got"
			same "$name: pprof $ev stacks" "$tmp/want" "$tmp/got"
		fi
		firefox_fold "$tmp/f.json" "$i" >"$tmp/got" || bad "$name: firefox file"
		same "$name: firefox $ev stacks" "$tmp/want" "$tmp/got"
		i=$((i + 1))
	done
}

have_protoc=
have protoc "pprof read by the fold of python only" && have_protoc=1
have python3 "no round trips" || exit 77

cp "$D/shapes.out" "$tmp/lone.out"      # no stacks beside it
# parts.out starts with a comment, which the exports (as flamegraph and
# speedscope) would take for folded stacks: a first line as Callgrind's
{ echo '# callgrind format'; cat "$D/parts.out"; } >"$tmp/parts.out"
for f in "$D/shapes.out" "$tmp/lone.out" "$D/basic.out" "$D/threads.out" \
	 "$tmp/parts.out" "$D/shapes.out.stacks"; do
	round_trip "$(basename "$f")" "$f"
done
round_trip "shapes.out --reconstructed" "$D/shapes.out" --reconstructed
round_trip "shapes.out --per-thread" "$D/shapes.out" --per-thread
round_trip "parts.out --separate-parts" "$tmp/parts.out" --separate-parts

# the view options, which fold takes too: where stacks start, the names,
# the stacks kept and the frames shown, merged names (the same options on
# both sides)
for how in "" --reconstructed; do
	for view in --all-frames "--names full" "--names file" "--names function" \
		    "--focus ^b$" "--ignore ^b$" "--hide ^x$" "--focus x --hide ^(a|b)$" \
		    "--names file --focus ^shapes.c:leaf$"; do
		# shellcheck disable=SC2086 # the options are words
		round_trip "shapes.out $how $view" "$D/shapes.out" $how $view
	done
done
round_trip "shapes.out --per-thread --hide ^x$" "$D/shapes.out" --per-thread --hide '^x$'
round_trip "shapes.out.stacks --focus ^a$" "$D/shapes.out.stacks" --focus '^a$'
{ echo '# callgrind format'; cat "$D/context.out"; } >"$tmp/context.out"
for m in recursion callers all; do
	round_trip "context.out --merge $m" "$tmp/context.out" --merge "$m"
done
round_trip "threads.out --names full" "$D/threads.out" --names full

# --event keeps one event; folded input is one event, "samples"
"$CGU" pprof -e Dr -o "$tmp/dr.pb.gz" "$D/shapes.out" && [ -n "$have_protoc" ] &&
	pprof_decode "$tmp/dr.pb.gz" >"$tmp/dr.txt" && {
	sorted_fold -e Dr "$D/shapes.out" >"$tmp/want"
	decoded_fold 0 <"$tmp/dr.txt" >"$tmp/got"
	same "pprof -e Dr" "$tmp/want" "$tmp/got"
	[ "$(decoded_sums <"$tmp/dr.txt")" = "$(awk '/^totals:/ { print $3 }' "$D/shapes.out")" ] ||
		bad "pprof -e Dr: one value a sample, the totals"
	grep -q '^string_table: "Dr"$' "$tmp/dr.txt" && ! grep -q '^string_table: "Ir"$' "$tmp/dr.txt" ||
		bad "pprof -e Dr: the sample type"
	grep -q '^string_table: "./shapes - exact stacks"$' "$tmp/dr.txt" || bad "pprof: no comment"
}
"$CGU" fold "$D/basic.out" >"$tmp/in.folded"
round_trip "folded input" "$tmp/in.folded" 2>/dev/null <&- || true
"$CGU" firefox --hide '^work$' -o "$tmp/f.json" "$tmp/in.folded" && firefox_fold "$tmp/f.json" 0 >"$tmp/got" &&
	sorted_fold --hide '^work$' "$D/basic.out" >"$tmp/want" && same "firefox of folded stacks --hide" "$tmp/want" "$tmp/got"
"$CGU" firefox -o "$tmp/f.json" "$tmp/in.folded" && firefox_fold "$tmp/f.json" 0 >"$tmp/got" &&
	LC_ALL=C sort "$tmp/in.folded" >"$tmp/want" && same "firefox of folded stacks" "$tmp/want" "$tmp/got"

# --- dot: Graphviz reads it; the thresholds keep what summary and edges say
# kept_nodes DOTFILE: the functions drawn, sorted
kept_nodes() { sed -n 's/^  n[0-9]* \[label="\([^"\\]*\)\\n.*/\1/p' "$1" | LC_ALL=C sort; }
# over THRES SUMMARY: the functions whose inclusive cost is at least THRES%
over() {
	awk -v t="$1" '/^# event/ { total = $5; sub(/,/, "", total) } !/^#/ {
		l = $0; sub(/^ *[0-9]+ +[0-9.]+% +/, "", l); incl = l; sub(/ .*/, "", incl)
		name = l; sub(/^[0-9]+ +[0-9.]+%  /, "", name)
		if (incl > 0 && incl * 100 >= t * total) print name }' "$2" | LC_ALL=C sort
}
for prof in "$D/shapes.out" "$D/basic.out" "$D/threads.out"; do
	first=$(events "$prof" | sed -n 1p)
	for opt in "" --reconstructed; do
		# dot's event: the first (summary's columns would be every event)
		"$CGU" summary -e "$first" -n 0 $opt "$prof" >"$tmp/sum"
		for t in 0 0.5 5 30 60; do
			name="dot $opt --node-thres $t $(basename "$prof")"
			"$CGU" dot $opt --node-thres "$t" --edge-thres 0 "$prof" >"$tmp/g.dot" 2>"$tmp/err" ||
				{ bad "$name: $(cat "$tmp/err")"; continue; }
			kept_nodes "$tmp/g.dot" >"$tmp/got"
			over "$t" "$tmp/sum" >"$tmp/want"
			same "$name: the functions kept" "$tmp/want" "$tmp/got"
			if have dot "DOT not rendered" >/dev/null; then
				dot -Tsvg "$tmp/g.dot" >"$tmp/g.svg" 2>"$tmp/err" && ! [ -s "$tmp/err" ] ||
					bad "$name: dot -Tsvg: $(cat "$tmp/err")"
			fi
		done
	done
	# calls: those of edges over the threshold, between functions kept
	total=$(awk '/^# event/ { t = $5; sub(/,/, "", t); print t }' "$tmp/sum")
	for t in 0 1 20; do
		"$CGU" dot --reconstructed --node-thres 5 --edge-thres "$t" "$prof" >"$tmp/g.dot"
		kept_nodes "$tmp/g.dot" >"$tmp/kept"
		sed -n 's/^  n\([0-9]*\) \[label="\([^"\\]*\)\\n.*/n\1 \2/p' "$tmp/g.dot" >"$tmp/ids"
		awk 'NR == FNR { id[$1] = $2; next } / -> / { print id[$1] " -> " id[$3] }' \
			"$tmp/ids" "$tmp/g.dot" | LC_ALL=C sort >"$tmp/got"
		"$CGU" edges "$prof" | awk -v t="$t" -v total="$total" 'NR == FNR { k[$0] = 1; next }
			k[$1] && k[$3] && $5 * 100 >= t * total { print $1 " -> " $3 }' "$tmp/kept" - |
			LC_ALL=C sort >"$tmp/want"
		same "dot --edge-thres $t $(basename "$prof"): the calls kept" "$tmp/want" "$tmp/got"
	done
done

times=$(printf '\303\227')     # the x of '12x calls' (U+00D7)
# dot's view options, as summary's: --names, --merge, and --focus,
# --ignore, --hide (the graph of the stacks they keep, no calls drawn)
for v in "--names file" "--names full" "--focus ^b$" "--ignore ^b$" "--hide ^x$" \
	 "--names file --focus shapes.c:a"; do
	for opt in "" --reconstructed; do
		name="dot $opt $v shapes.out"
		# shellcheck disable=SC2086 # the options are words
		"$CGU" summary -e Ir -n 0 $opt $v "$D/shapes.out" >"$tmp/sum" &&
		"$CGU" dot --node-thres 0 --edge-thres 0 $opt $v "$D/shapes.out" >"$tmp/g.dot" 2>"$tmp/err" ||
			{ bad "$name: $(cat "$tmp/err")"; continue; }
		kept_nodes "$tmp/g.dot" >"$tmp/got"
		over 0 "$tmp/sum" >"$tmp/want"
		same "$name: the functions" "$tmp/want" "$tmp/got"
		case $v in
		*--focus*|*--ignore*|*--hide*)
			grep -q "$times" "$tmp/g.dot" && bad "$name: calls drawn for a graph of stacks"
			grep -q 'the graph of the stacks --focus/--ignore/--hide keep' "$tmp/g.dot" ||
				bad "$name: the label does not say what the graph is" ;;
		*) grep -q "\\\\n[0-9]*$times\"" "$tmp/g.dot" || bad "$name: no calls drawn" ;;
		esac
	done
done
"$CGU" dot --node-thres 0 --hide '^x$' "$D/shapes.out" >"$tmp/g.dot"
grep -q 'n[0-9]* -> n[0-9]* \[label="64.10%"' "$tmp/g.dot" ||
	bad "dot --hide x: no b -> leaf of the 200 of the stacks through b and x"
"$CGU" dot --node-thres 0 --merge all "$tmp/context.out" >"$tmp/g.dot"
[ "$(kept_nodes "$tmp/g.dot" | tr '\n' ' ')" = "a b c main " ] ||
	bad "dot --merge all: $(kept_nodes "$tmp/g.dot" | tr '\n' ' ')"
check "dot --all-frames" 1 - "$CGU" dot --all-frames "$D/shapes.out"
check "dot --focus (" 1 - "$CGU" dot --focus '(' "$D/shapes.out"

# names that need escaping in DOT: quotes, backslashes, bytes that are
# not UTF-8; Graphviz reads them and shows them
printf '%s\n' 'events: Ir' 'fl=a.c' 'fn=main' '1 5' 'cfn=say "hi" \n\' \
	'calls=1 1' '1 50' 'fn=say "hi" \n\' '1 50' >"$tmp/names.out"
printf 'fn=bad\377byte\n1 3\n' >>"$tmp/names.out"
check "dot of odd names" 0 - "$CGU" dot --node-thres 0 "$tmp/names.out"
if have dot "odd names not rendered"; then
	dot -Tsvg "$tmp/out" >"$tmp/g.svg" 2>"$tmp/err" && ! [ -s "$tmp/err" ] ||
		bad "dot -Tsvg of odd names: $(cat "$tmp/err")"
	grep -qF 'say &quot;hi&quot; \n\' "$tmp/g.svg" || bad "dot: the quoted name is not drawn as it is"
	grep -qF "bad$(printf '\357\277\275')byte" "$tmp/g.svg" || bad "dot: the byte that is not UTF-8"
fi

# --- bad input: the file and line; bad options: exit 1
for cmd in pprof firefox dot; do
	check "$cmd of a truncated profile" 2 - "$CGU" $cmd -o "$tmp/x" "$D/err-truncated.out"
	grep -q 'err-truncated.out:10: ' "$tmp/err" || bad "$cmd: no file:line in $(cat "$tmp/err")"
	check "$cmd of garbage" 2 - "$CGU" $cmd -o "$tmp/x" "$D/err-garbage.out"
	check "$cmd --event NOPE" 1 - "$CGU" $cmd -e NOPE -o "$tmp/x" "$D/shapes.out"
	printf '# callgrind stacks\nversion: 1\nevents: Ir Dr\nbogus\n' >"$tmp/lone.out.stacks"
	check "$cmd with bad stacks beside" 2 - "$CGU" $cmd -o "$tmp/x" "$tmp/lone.out"
	grep -q 'lone.out.stacks:[0-9]*: ' "$tmp/err" || bad "$cmd: bad stacks: no file:line in $(cat "$tmp/err")"
	rm -f "$tmp/lone.out.stacks"
done
check "pprof of two files" 1 - "$CGU" pprof -o "$tmp/x" "$D/shapes.out" "$D/basic.out"
check "pprof --max-frames 0" 1 - "$CGU" pprof --max-frames 0 -o "$tmp/x" "$D/shapes.out"
check "pprof over --max-frames" 2 - "$CGU" pprof --max-frames 3 -o "$tmp/x" "$D/shapes.out"
grep -q 'more than 3 (pprof --max-frames' "$tmp/err" || bad "pprof --max-frames: $(cat "$tmp/err")"
check "pprof of an empty folded file" 2 - sh -c "'$CGU' pprof -o '$tmp/x' </dev/null"
check "dot --node-thres 101" 1 - "$CGU" dot --node-thres 101 "$D/shapes.out"
check "dot --edge-thres x" 1 - "$CGU" dot --edge-thres x "$D/shapes.out"
check "dot --per-thread" 1 - "$CGU" dot --per-thread "$D/shapes.out"
for cmd in pprof firefox; do
	check "$cmd --focus (" 1 - "$CGU" $cmd --focus '(' -o "$tmp/x" "$D/shapes.out"
	grep -q -- "--focus '(': bad regular expression" "$tmp/err" || bad "$cmd --focus (: $(cat "$tmp/err")"
	check "$cmd --merge x" 1 - "$CGU" $cmd --merge x -o "$tmp/x" "$D/shapes.out"
	check "$cmd --names x" 1 - "$CGU" $cmd --names x -o "$tmp/x" "$D/shapes.out"
done
check "firefox, output not writable" 2 - "$CGU" firefox -o "$tmp/no/such/dir" "$D/shapes.out"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
