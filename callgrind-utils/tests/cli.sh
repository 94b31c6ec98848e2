#!/bin/sh
# The command-line shell: help, version, exit codes, stdin/stdout, -o.
set -u
: "${CGU:?CGU must name the callgrind-utils binary}"
: "${TEST_DATA:?}"
fails=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgu-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# expect STATUS COMMAND...: run, compare the exit status
expect() {
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: '$*' exited $got, expected $want"; cat "$tmp/err"
		fails=$((fails + 1))
	fi
}

# same_output FILE COMMAND...: stdout of the command must equal FILE
same_output() {
	want=$1; shift
	"$@" >"$tmp/same" 2>&1
	if ! cmp -s "$want" "$tmp/same"; then
		echo "FAIL: output of '$*' differs:"; diff "$want" "$tmp/same"
		fails=$((fails + 1))
	fi
}

expect 0 "$CGU" --version
grep -q '^callgrind-utils [0-9]' "$tmp/out" || { echo "FAIL: --version"; fails=$((fails + 1)); }
expect 0 "$CGU" --help
expect 1 "$CGU"
expect 1 "$CGU" no-such-command
for cmd in summary edges json fold symbolize redact callers callees; do
	expect 0 "$CGU" "$cmd" --help
	grep -q "^Usage: callgrind-utils $cmd" "$tmp/out" ||
		{ echo "FAIL: $cmd --help"; fails=$((fails + 1)); }
	expect 1 "$CGU" "$cmd" --no-such-option
done

d=$TEST_DATA
expect 0 "$CGU" edges "$d/basic.out"
printf 'main -> leaf 1 50\nmain -> work 2 500\nwork -> leaf 4 200\n' >"$tmp/basic.edges"
same_output "$tmp/basic.edges" "$CGU" edges "$d/basic.out"
same_output "$tmp/basic.edges" sh -c "\"$CGU\" edges - <\"$d/basic.out\""
same_output "$tmp/basic.edges" sh -c "\"$CGU\" edges <\"$d/basic.out\""
expect 0 "$CGU" edges -o "$tmp/o.txt" "$d/basic.out"
cmp -s "$tmp/o.txt" "$tmp/basic.edges" || { echo "FAIL: -o"; fails=$((fails + 1)); }
expect 0 "$CGU" edges -o - "$d/basic.out"

# output beyond the output buffer: a call chain 600 deep folds to 1.8 MB
awk 'BEGIN { print "events: Ir"
	for (i = 0; i < 600; i++) {
		printf "fn=f%d\n0 1\n", i
		if (i < 599) printf "cfn=f%d\ncalls=1 0\n0 %d\n", i + 1, 599 - i
	} }' >"$tmp/chain.out"
expect 0 "$CGU" fold -o "$tmp/chain.folded" "$tmp/chain.out"
sh -c "\"$CGU\" fold \"$tmp/chain.out\" | cat >\"$tmp/chain.pipe\""
cmp -s "$tmp/chain.folded" "$tmp/chain.pipe" || { echo "FAIL: fold -o and stdout differ"; fails=$((fails + 1)); }
[ "$(wc -l <"$tmp/chain.folded")" = 600 ] &&
	[ "$(tail -n 1 "$tmp/chain.folded" | awk -F';' '{ print NF, $NF }')" = "600 f599 1" ] ||
	{ echo "FAIL: chain folded wrong"; fails=$((fails + 1)); }
# a write error is reported and exits 2, to stdout or to -o
if [ -w /dev/full ]; then
	expect 2 sh -c "\"$CGU\" fold \"$tmp/chain.out\" >/dev/full"
	grep -q '<stdout>: write error' "$tmp/err" || { echo "FAIL: stdout write error"; fails=$((fails + 1)); }
	expect 2 "$CGU" fold -o /dev/full "$tmp/chain.out"
	grep -q '/dev/full: write error' "$tmp/err" || { echo "FAIL: -o write error"; fails=$((fails + 1)); }
fi

# bad input exits 2 with file:line, usage errors exit 1
expect 2 "$CGU" edges "$d/err-truncated.out"
grep -q 'err-truncated.out:10: ' "$tmp/err" || { echo "FAIL: no file:line"; fails=$((fails + 1)); }
expect 2 "$CGU" summary "$d/err-unknown-id.out"
expect 2 "$CGU" fold /nonexistent/file.out
expect 1 "$CGU" edges --event NoSuchEvent "$d/basic.out"
expect 1 "$CGU" fold --mode nonsense "$d/basic.out"
expect 1 "$CGU" edges --names nonsense "$d/basic.out"
expect 1 "$CGU" symbolize "$d/jit.out"
expect 2 "$CGU" symbolize --perf-map /nonexistent.map "$d/jit.out"
expect 2 "$CGU" edges -o /nonexistent/dir/out "$d/basic.out"
expect 0 "$CGU" edges --no-check-totals "$d/err-totals.out"
# summary: off totals: (Callgrind's --cache-sim=yes): a warning, exit 0
expect 0 "$CGU" summary "$d/summary-off.out"
[ "$(cat "$tmp/err")" = "callgrind-utils: warning: $d/summary-off.out:8: summary: gives Ir=652 but totals: (line 19) gives 650; taking totals:, which the cost lines add up to" ] ||
	{ echo "FAIL: summary: off totals: warning"; cat "$tmp/err"; fails=$((fails + 1)); }
grep -q '^# events Ir Dr, totals 650 [0-9]*, by self Ir$' "$tmp/out" || { echo "FAIL: totals: taken"; fails=$((fails + 1)); }
expect 0 "$CGU" flamegraph -o /dev/null "$d/summary-off.out"
grep -q 'summary-off.out:8: summary: gives Ir=652' "$tmp/err" || { echo "FAIL: flamegraph warning"; fails=$((fails + 1)); }
expect 2 "$CGU" edges --max-line 100 "$d/err-long-line.out"
expect 1 "$CGU" edges --max-line zero "$d/basic.out"

# every command on the same input
expect 0 "$CGU" summary -n 2 --inclusive -e Dr "$d/basic.out"
expect 0 "$CGU" json "$d/real-prog.out.gz"
expect 0 "$CGU" fold --mode graph --min-fraction 0.01 "$d/real-prog.out.gz"
printf 'main 10\nmain;a 20\nmain;a;c 40\nmain;b 10\nmain;b;c 20\n' >"$tmp/ctx.fold"
same_output "$tmp/ctx.fold" "$CGU" fold "$d/context.out"
same_output "$tmp/basic.edges" sh -c "\"$CGU\" redact \"$d/basic.out\" | \"$CGU\" edges -"
expect 0 "$CGU" symbolize --perf-map "$d/jit.map" "$d/jit.out"
grep -q 'fn=(2) LazyCompile:~outer' "$tmp/out" || { echo "FAIL: symbolize"; fails=$((fails + 1)); }
expect 0 "$CGU" redact --root /home/alice/proj "$d/redact.out"
grep -q 'ld.so' "$tmp/out" || { echo "FAIL: redact"; fails=$((fails + 1)); }

# several parts apart
expect 0 "$CGU" edges --separate-parts "$d/parts.out"
[ "$(grep -c '^# part: ' "$tmp/out")" = 2 ] || { echo "FAIL: parts"; fails=$((fails + 1)); }

[ "$fails" = 0 ] && echo "PASS: cli" && exit 0
exit 1
