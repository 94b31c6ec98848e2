#!/bin/sh
# compress-cli.sh - profiles, stacks files and folded stacks compressed
# with gzip, xz, bzip2 and zstd (their own tools, each skipped when it
# is not installed): every command gives what it gives for the plain
# file, from the file and from stdin; a profile's compressed stacks are
# found beside it; cut short it exits 2 naming the file; past --max-input
# too.
set -u
CGU=${CGU:-./callgrind-utils}
D=${TEST_DATA:-$(dirname "$0")/data}
. "$(dirname "$0")/check-lib.sh"

gzip -dc "$D/real-prog.out.gz" >"$tmp/real.out"
cp "$D/shapes.out" "$D/shapes.out.stacks" "$D/flame-after.folded" "$tmp/"
# what the plain files give
"$CGU" json "$tmp/real.out" >"$tmp/real.json"
"$CGU" fold "$tmp/real.out" >"$tmp/real.fold"
"$CGU" summary -n 0 --inclusive "$tmp/real.out" >"$tmp/real.sum"
"$CGU" fold -v "$tmp/shapes.out" >"$tmp/shapes.fold" 2>"$tmp/shapes.err"
grep -q 'exact stacks from' "$tmp/shapes.err" || { echo "FAIL: shapes.out without exact stacks"; exit 1; }
"$CGU" flamegraph "$tmp/flame-after.folded" >"$tmp/folded.svg"

ran=0
for tool in gzip xz bzip2 zstd; do
	command -v "$tool" >/dev/null 2>&1 || { echo "note: no $tool, not run"; continue; }
	ran=$((ran + 1))
	case $tool in
	gzip) ext=gz ;; bzip2) ext=bz2 ;; zstd) ext=zst ;; *) ext=$tool ;;
	esac
	z=$tmp/real.out.$ext
	"$tool" -c <"$tmp/real.out" >"$z"
	check "$tool json" 0 "$tmp/real.json" "$CGU" json "$z"
	check "$tool json from stdin" 0 "$tmp/real.json" sh -c "\"$CGU\" json - <\"$z\""
	check "$tool fold" 0 "$tmp/real.fold" "$CGU" fold "$z"
	check "$tool summary from a pipe" 0 "$tmp/real.sum" \
		sh -c "cat \"$z\" | \"$CGU\" summary -n 0 --inclusive"

	# the profile and its stacks file, both compressed
	mkdir "$tmp/$tool"
	"$tool" -c <"$tmp/shapes.out" >"$tmp/$tool/shapes.out.$ext"
	"$tool" -c <"$tmp/shapes.out.stacks" >"$tmp/$tool/shapes.out.stacks.$ext"
	check "$tool exact stacks beside" 0 "$tmp/shapes.fold" "$CGU" fold -v "$tmp/$tool/shapes.out.$ext"
	check_err "$tool exact stacks found" \
		"callgrind-utils fold: exact stacks from $tmp/$tool/shapes.out.stacks.$ext"

	# folded stacks for the flame graph, from a file and from stdin
	"$tool" -c <"$tmp/flame-after.folded" >"$tmp/folded.$ext"
	check "$tool folded flamegraph" 0 "$tmp/folded.svg" "$CGU" flamegraph "$tmp/folded.$ext"
	check "$tool folded flamegraph from stdin" 0 "$tmp/folded.svg" \
		sh -c "\"$CGU\" flamegraph <\"$tmp/folded.$ext\""

	# cut short: an error naming the file, whatever reads it
	size=$(wc -c <"$z")
	head -c $((size / 2)) "$z" >"$tmp/cut.$ext"
	check "$tool cut short" 2 - "$CGU" summary "$tmp/cut.$ext"
	check_err "$tool cut short message" \
		"callgrind-utils: $tmp/cut.$ext: cannot read: $tool data cut short (truncated file?)"
	check "$tool cut short flamegraph" 2 - "$CGU" flamegraph "$tmp/cut.$ext"
	check_err "$tool cut short flamegraph message" \
		"callgrind-utils: $tmp/cut.$ext: cannot read: $tool data cut short (truncated file?)"

	# past --max-input
	check "$tool --max-input" 2 - "$CGU" edges --max-input 64k "$z"
	check_err "$tool --max-input message" \
		"callgrind-utils: $z: $tool data decompresses to more than 65536 bytes; expected at most that (see --max-input)"
	check "$tool within --max-input" 0 "$tmp/real.fold" "$CGU" fold --max-input 1M "$z"
done
check "--max-input not a size" 1 - "$CGU" edges --max-input 12q "$tmp/real.out"

echo "$passes passed, $fails failed"
[ "$ran" -gt 0 ] || { echo "SKIP: no compression tool"; exit 77; }
[ "$fails" = 0 ]
