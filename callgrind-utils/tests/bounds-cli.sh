#!/bin/sh
# bounds-cli.sh - pathological call graphs (made by gen-graph.sh) cost
# bounded memory and output: a reconstructed fold that would explode
# stops with an error naming the option that raises the bound; a call
# chain deeper than folded stacks go ends in one [deeper] frame, so its
# flame graph is one lane; the flame graph draws at most --max-depth
# levels and --max-frames frames, and says what it left out.  Commands
# run under a 4 GB address-space limit where the binary starts under one
# (not with ASan) and a time limit, so a regression fails instead of
# eating the machine.
set -u
CGU=${CGU:-./callgrind-utils}
D=${TEST_DATA:-$(dirname "$0")/data}
GEN=$(dirname "$0")/gen-graph.sh
. "$(dirname "$0")/check-lib.sh"

limit=
if (ulimit -v 4000000 && "$CGU" --version) >/dev/null 2>&1; then
	limit="ulimit -v 4000000;"
fi
tmo=
command -v timeout >/dev/null 2>&1 && tmo="timeout 300"
bounded() {   # bounded CMD...: run under the limits
	sh -c "$limit exec $tmo \"\$@\"" bounded "$@"
}
# frames of the folded line(s) on stdin, and the last line's count
frames() { awk '{ sub(/ [0-9]+$/, ""); print split($0, a, ";") }'; }

# --- a ladder 40 levels deep, every function called by both of the
# level above: 2^39 paths to each leaf, which no pruning makes a fold of
# 2^40 stacks
sh "$GEN" ladder 40 >"$tmp/ladder.out"
check "ladder, no pruning" 2 - bounded "$CGU" fold --min-fraction 0 "$tmp/ladder.out"
check_err "ladder, no pruning: message" \
	"callgrind-utils: the stacks reconstructed from the call graph pass 50000000 frames; expected fewer (fold --max-frames raises the bound, a larger --min-fraction splits fewer shares)"
check "ladder, default pruning" 0 - bounded "$CGU" fold "$tmp/ladder.out"
[ "$(awk '{ s += $NF } END { printf "%.0f", s }' "$tmp/out")" = "$(awk '/^0 [1-9]/ && $2 > 2^49 { s += $2 } END { printf "%.0f", s }' "$tmp/ladder.out")" ] ||
	{ echo "FAIL: ladder fold does not add up to the leaves' cost"; fails=$((fails + 1)); }
check "ladder flamegraph" 0 - bounded "$CGU" flamegraph -o "$tmp/ladder.svg" "$tmp/ladder.out"
# the bound is an option
check "--max-frames below a fold's size" 2 - "$CGU" fold --max-frames 100 --mode graph "$D/real-prog.out.gz"
check "--max-frames 0" 1 - "$CGU" fold --max-frames 0 "$D/basic.out"

# --- a call chain 10000 deep: folded stacks keep 4095 frames from the
# root, then [deeper] with the cost of the frames below
n=10000
sh "$GEN" chain $n >"$tmp/chain.out"
check "chain fold" 0 - bounded "$CGU" fold "$tmp/chain.out"
mv "$tmp/out" "$tmp/chain.folded"
[ "$(wc -l <"$tmp/chain.folded")" = 4096 ] ||
	{ echo "FAIL: chain folds to $(wc -l <"$tmp/chain.folded") lines, expected 4096"; fails=$((fails + 1)); }
[ "$(awk '{ s += $NF } END { print s }' "$tmp/chain.folded")" = $n ] ||
	{ echo "FAIL: chain fold does not add up to $n"; fails=$((fails + 1)); }
deep=$(grep ';\[deeper\] [0-9]*$' "$tmp/chain.folded")
[ "$(printf '%s\n' "$deep" | frames)" = 4096 ] &&
	[ "${deep%%;*}" = f0 ] &&
	[ "${deep##*;f4094;}" = "[deeper] $((n - 4095))" ] ||
	{ echo "FAIL: chain [deeper] line: $(printf '%s' "$deep" | cut -c1-40)...$(printf '%s' "$deep" | tail -c 40)"; fails=$((fails + 1)); }
# so its flame graph is one lane of 4096 frames (it was 6 GB)
check "chain flamegraph" 0 - bounded sh -c "\"$CGU\" flamegraph \"$tmp/chain.out\" | head -c 20000000"
[ "$(wc -c <"$tmp/out")" -lt 5000000 ] ||
	{ echo "FAIL: chain flame graph of $(wc -c <"$tmp/out") bytes"; fails=$((fails + 1)); }
[ "$(grep -c '<g class="f"' "$tmp/out")" = 4097 ] ||
	{ echo "FAIL: chain flame graph has $(grep -c '<g class="f"' "$tmp/out") frames, expected 4097"; fails=$((fails + 1)); }

# --- the flame graph's own bounds, on folded stacks of a chain
sh "$GEN" folded-chain $n >"$tmp/chain.txt"
check "folded chain, --max-depth 100" 0 - "$CGU" flamegraph --max-depth 100 "$tmp/chain.txt"
[ "$(grep -c '<g class="f"' "$tmp/out")" = 101 ] &&
	grep -q 'data-w="'$((n - 99))'" data-s="'$((n - 99))'" data-d="100" data-n="\[deeper\]"' "$tmp/out" ||
	{ echo "FAIL: --max-depth 100: no [deeper] frame of $((n - 99)) at depth 100"; fails=$((fails + 1)); }
check "folded chain, default depth" 0 - "$CGU" flamegraph "$tmp/chain.txt"
grep -q 'data-d="4096" data-n="\[deeper\]"' "$tmp/out" ||
	{ echo "FAIL: default depth: no [deeper] frame at depth 4096"; fails=$((fails + 1)); }
check "folded chain, no depth limit" 0 - "$CGU" flamegraph --max-depth 0 "$tmp/chain.txt"
grep -q 'data-d="'$n'" data-n="f'$((n - 1))'"' "$tmp/out" && ! grep -q 'deeper' "$tmp/out" ||
	{ echo "FAIL: --max-depth 0: not $n deep"; fails=$((fails + 1)); }
check "folded chain, --max-frames 50" 0 - "$CGU" flamegraph --max-frames 50 "$tmp/chain.txt"
[ "$(grep -c '<g class="f"' "$tmp/out")" = 50 ] &&
	grep -q '<text id="subtitle"[^>]*>'$((1 + 4096 - 50))' frames narrower than [0-9.]* px left out (more than --max-frames 50)</text>' "$tmp/out" ||
	{ echo "FAIL: --max-frames 50: $(grep -c '<g class="f"' "$tmp/out") frames drawn, $(grep -o '<text id="subtitle"[^<]*' "$tmp/out")"; fails=$((fails + 1)); }
printf 'f0 1 1\nf0;[deeper] %d %d\n' $((n - 1)) $((n - 1)) >"$tmp/diff.exp"
check "diff --max-depth 2" 0 "$tmp/diff.exp" "$CGU" diff --folded --max-depth 2 "$tmp/chain.txt" "$tmp/chain.txt"
check "bad --max-depth" 1 - "$CGU" flamegraph --max-depth x "$tmp/chain.txt"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
