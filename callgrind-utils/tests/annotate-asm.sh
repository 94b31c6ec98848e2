#!/bin/sh
# annotate-asm.sh - annotate --asm on hand-written assembly, so the
# instructions are known: x86_64, and arm64 when a cross assembler is
# there.  A profile without instruction positions exits 2; a missing
# object, "???" and an unknown architecture leave their functions out with
# one warning an object, and exit 2 only when nothing is left.
set -u
CGU=${CGU:-./callgrind-utils}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

if "$CGU" annotate --help | grep -q "not in this build"; then
	echo "SKIP: built without libelf and capstone"
	exit 77
fi

expect() {   # expect NAME STATUS EXPECTED-FILE CMD...
	name=$1 want=$2 exp=$3
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$want" ] || ! diff -u "$exp" "$tmp/out"; then
		echo "FAIL: $name: exit $got (expected $want) $(cat "$tmp/err")"
		fails=$((fails + 1))
	else
		passes=$((passes + 1))
	fi
}

expect_err() {   # expect_err NAME LINE: the first line of stderr
	if [ "$(head -n 1 "$tmp/err")" = "$2" ]; then
		passes=$((passes + 1))
	else
		echo "FAIL: $1: $(cat "$tmp/err")"; echo "  expected: $2"
		fails=$((fails + 1))
	fi
}

sym() { printf '%x' "0x$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }')"; }

profile() {   # profile OBJECT WORK-ADDR MAIN-ADDR SIZE1 SIZE2: a --dump-instr=yes profile
	cat <<EOF_P
# callgrind format
version: 1
positions: instr line
events: Ir Dr
ob=$1
fl=prog.s
fn=work
0x$2 1 100
+$4 2 100 10
+$5 3 100
fn=main
0x$3 10 3
EOF_P
}

# ---- x86_64: work is mov (5 bytes), add (2), ret
cat >"$tmp/x86.s" <<'EOF_S'
	.text
	.globl work
	.type work, @function
work:
	movl $1, %eax
	addl %eax, %eax
	ret
	.size work, .-work
	.globl main
	.type main, @function
main:
	call work
	xorl %eax, %eax
	ret
	.size main, .-main
	.section .note.GNU-stack,"",@progbits
EOF_S
$CC -no-pie -o "$tmp/x86" "$tmp/x86.s"
w=$(sym "$tmp/x86" work) m=$(sym "$tmp/x86" main)
profile "$tmp/x86" "$w" "$m" 5 2 >"$tmp/x86.out"
{
	echo "-- work ($tmp/x86)"
	echo "          Ir          Dr  address   instruction"
	printf '%12s%12s  0x%x  %s\n' 100 0 $((0x$w)) "mov eax, 1" \
		100 10 $((0x$w + 5)) "add eax, eax" 100 0 $((0x$w + 7)) "ret"
} >"$tmp/x86.exp"
expect "x86_64 top 1" 0 "$tmp/x86.exp" "$CGU" annotate --asm -n 1 "$tmp/x86.out"
{
	cat "$tmp/x86.exp"
	echo
	echo "-- main ($tmp/x86)"
	echo "          Ir          Dr  address   instruction"
	printf '%12s%12s  0x%x  %s\n' 3 0 $((0x$m)) "call 0x$w" \
		0 0 $((0x$m + 5)) "xor eax, eax" 0 0 $((0x$m + 7)) "ret"
} >"$tmp/x86-all.exp"
expect "x86_64 all" 0 "$tmp/x86-all.exp" "$CGU" annotate --asm "$tmp/x86.out"

# ---- arm64 object read on this host: work is mov, add, ret (4 bytes each)
if command -v aarch64-linux-gnu-as >/dev/null 2>&1 && command -v aarch64-linux-gnu-ld >/dev/null 2>&1; then
	cat >"$tmp/a64.s" <<'EOF_S'
	.text
	.globl work
	.type work, %function
work:
	mov w0, #1
	add w0, w0, w0
	ret
	.size work, .-work
	.globl main
	.type main, %function
main:
	bl work
	ret
	.size main, .-main
EOF_S
	aarch64-linux-gnu-as -o "$tmp/a64.o" "$tmp/a64.s"
	aarch64-linux-gnu-ld -e main -o "$tmp/a64" "$tmp/a64.o"
	w=$(sym "$tmp/a64" work) m=$(sym "$tmp/a64" main)
	profile "$tmp/a64" "$w" "$m" 4 4 >"$tmp/a64.out"
	{
		echo "-- work ($tmp/a64)"
		echo "          Ir          Dr  address   instruction"
		printf '%12s%12s  0x%x  %s\n' 100 0 $((0x$w)) "movz w0, #0x1" \
			100 10 $((0x$w + 4)) "add w0, w0, w0" 100 0 $((0x$w + 8)) "ret"
	} >"$tmp/a64.exp"
	expect "arm64 object" 0 "$tmp/a64.exp" "$CGU" annotate --asm -n 1 "$tmp/a64.out"
else
	echo "note: no aarch64-linux-gnu-as, arm64 case not run"
fi

# ---- errors
: >"$tmp/empty.exp"
printf 'events: Ir\nob=%s\nfn=work\n1 100\n' "$tmp/x86" >"$tmp/lines.out"
expect "no instruction positions" 2 "$tmp/empty.exp" "$CGU" annotate --asm "$tmp/lines.out"
expect_err "no instruction positions message" \
	"callgrind-utils: expected a profile with instruction positions ('positions: instr ...', from valgrind --dump-instr=yes)"
# an object that cannot be read: one warning, its functions left out;
# when that leaves nothing, exit 2
sed "s|^ob=.*|ob=$tmp/gone|" "$tmp/x86.out" >"$tmp/gone.out"
expect "missing object" 2 "$tmp/empty.exp" "$CGU" annotate --asm "$tmp/gone.out"
expect_err "missing object message" "callgrind-utils: warning: $tmp/gone: cannot read object: No such file or directory; its functions are left out"
[ "$(sed -n 2p "$tmp/err")" = "callgrind-utils: none of the 2 functions could be annotated (see the warnings)" ] &&
	[ "$(wc -l <"$tmp/err")" = 2 ] && passes=$((passes + 1)) ||
	{ echo "FAIL: missing object: $(cat "$tmp/err")"; fails=$((fails + 1)); }
cp "$tmp/x86" "$tmp/riscv"
printf '\363\000' | dd of="$tmp/riscv" bs=1 seek=18 conv=notrunc 2>/dev/null   # EM_RISCV
sed "s|^ob=.*|ob=$tmp/riscv|" "$tmp/x86.out" >"$tmp/riscv.out"
expect "unknown architecture" 2 "$tmp/empty.exp" sh -c "\"$CGU\" annotate --asm -n 1 \"$tmp/riscv.out\" >/dev/null"
expect_err "unknown architecture message" \
	"callgrind-utils: warning: $tmp/riscv: unknown architecture (ELF machine 243); expected x86_64, i386 or arm64; its functions are left out"
# the hottest functions in "???" (every real profile has some) and in a
# missing object come first: left out with one warning per object, and
# the x86_64 functions are annotated as above
{
	sed -n '1,4p' "$tmp/x86.out"
	printf 'ob=???\nfl=???\nfn=0x4001000\n0x4001000 1 900\nfn=0x4001030\n0x4001030 1 800\n'
	printf 'ob=%s\nfn=lost\n0x1000 1 700\n' "$tmp/gone"
	sed '1,4d' "$tmp/x86.out"
} >"$tmp/mixed.out"
expect "??? and a missing object first" 0 "$tmp/x86-all.exp" "$CGU" annotate --asm "$tmp/mixed.out"
[ "$(cat "$tmp/err")" = "$(printf '%s\n%s' \
	"callgrind-utils: warning: ???: cannot read object: an object Callgrind could not name, not a file; its functions are left out" \
	"callgrind-utils: warning: $tmp/gone: cannot read object: No such file or directory; its functions are left out")" ] &&
	passes=$((passes + 1)) || { echo "FAIL: mixed warnings: $(cat "$tmp/err")"; fails=$((fails + 1)); }
expect "--asm with --function" 1 "$tmp/empty.exp" "$CGU" annotate --asm --function work "$tmp/x86.out"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
