#!/bin/sh
# elf-cli.sh - symbolize --elf: 0x names of a fixed-address program, of a
# PIE at Valgrind's load address, and of a stripped program whose debug file
# is found by build-id; a missing object, a non-ELF object, one without
# symbols and "???" keep their 0x names with one warning each, and the
# other objects are symbolized.
set -u
CGU=${CGU:-./callgrind-utils}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

if ! "$CGU" symbolize --help | grep -q -- '--elf'; then
	echo "SKIP: built without libelf"
	exit 77
fi
for tool in nm objcopy strip readelf; do
	command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done

cat >"$tmp/prog.c" <<'EOF_C'
int sink;
__attribute__((noinline)) void work(void) { sink++; }
int main(void) { work(); return 0; }
EOF_C

addr() {   # addr BINARY SYMBOL OFFSET: run-time address in hex
	printf '%x' $((0x$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }') + $3))
}

profile() {   # profile OBJECT MAIN WORK > FILE
	cat <<EOF_P
# callgrind format
version: 1
events: Ir
ob=$1
fl=???
fn=0x$2
1 10
cfn=0x$3
calls=1 0
1 100
fn=0x$3
1 100
EOF_P
}

expect() {   # expect NAME STATUS EXPECTED-OUTPUT CMD...
	name=$1 want=$2 exp=$3
	shift 3
	out=$("$@" 2>"$tmp/err")
	got=$?
	if [ "$got" != "$want" ] || [ "$out" != "$exp" ]; then
		echo "FAIL: $name: exit $got (expected $want)"
		echo "  got:      $out $(cat "$tmp/err")"
		echo "  expected: $exp"
		fails=$((fails + 1))
	else
		passes=$((passes + 1))
	fi
}

edges() {   # edges PROFILE [symbolize options]: symbolize, then edges
	p=$1
	shift
	"$CGU" symbolize "$@" "$p" >"$tmp/named.out" || return $?
	"$CGU" edges "$tmp/named.out"
}

# a fixed-address executable: run-time address = symbol value
$CC -O1 -g -no-pie -o "$tmp/exec" "$tmp/prog.c"
profile "$tmp/exec" "$(addr "$tmp/exec" main 0)" "$(addr "$tmp/exec" work 0)" >"$tmp/exec.out"
expect "fixed-address executable" 0 "main -> work 1 100" edges "$tmp/exec.out" --elf

# a PIE, loaded by Valgrind at 0x108000: the offset is inferred
$CC -O1 -g -fPIE -pie -o "$tmp/pie" "$tmp/prog.c"
profile "$tmp/pie" "$(addr "$tmp/pie" main 0x108000)" "$(addr "$tmp/pie" work 0x108000)" >"$tmp/pie.out"
expect "PIE at 0x108000" 0 "main -> work 1 100" edges "$tmp/pie.out" --elf

# stripped: the symbols come from the debug file, found by build-id
id=$(readelf -n "$tmp/pie" | sed -n 's/.*Build ID: *//p')
mkdir -p "$tmp/nix/.build-id/${id%"${id#??}"}" "$tmp/extra/.build-id/${id%"${id#??}"}"
objcopy --only-keep-debug "$tmp/pie" "$tmp/nix/.build-id/${id%"${id#??}"}/${id#??}.debug"
cp "$tmp/nix/.build-id/${id%"${id#??}"}/${id#??}.debug" "$tmp/extra/.build-id/${id%"${id#??}"}/"
cp "$tmp/pie" "$tmp/stripped"
strip --strip-all "$tmp/stripped"
sed "s|^ob=.*|ob=$tmp/stripped|" "$tmp/pie.out" >"$tmp/stripped.out"
expect "debug file in NIX_DEBUG_INFO_DIRS" 0 "main -> work 1 100" \
	env NIX_DEBUG_INFO_DIRS="/nonexistent:$tmp/nix" sh -c \
	"\"$CGU\" symbolize --elf \"$tmp/stripped.out\" | \"$CGU\" edges -"
expect "debug file in --debug-dir" 0 "main -> work 1 100" \
	edges "$tmp/stripped.out" --debug-dir "$tmp/extra"

# an object that cannot be read keeps its 0x names, with one warning
# naming it, and the others are symbolized: every real profile has
# functions in "???", Callgrind's unknown object
warned() {   # warned NAME LINE: stderr is that one line
	if [ "$(cat "$tmp/err")" = "$2" ]; then
		passes=$((passes + 1))
	else
		echo "FAIL: $1: stderr: $(cat "$tmp/err")"; echo "  expected: $2"
		fails=$((fails + 1))
	fi
}
expect "stripped without debug file" 0 "0x$(addr "$tmp/pie" main 0x108000) -> 0x$(addr "$tmp/pie" work 0x108000) 1 100" \
	edges "$tmp/stripped.out" --elf
warned "stripped message" "callgrind-utils: warning: $tmp/stripped: expected a symbol table in the object or in a debug file found by its build-id; its 0x names are kept"
sed "s|^ob=.*|ob=$tmp/missing|" "$tmp/pie.out" >"$tmp/missing.out"
expect "missing object" 0 "0x$(addr "$tmp/pie" main 0x108000) -> 0x$(addr "$tmp/pie" work 0x108000) 1 100" \
	edges "$tmp/missing.out" --elf
warned "missing message" "callgrind-utils: warning: $tmp/missing: cannot read object: No such file or directory; its 0x names are kept"
sed "s|^ob=.*|ob=$tmp/prog.c|" "$tmp/pie.out" >"$tmp/notelf.out"
expect "not an ELF object" 0 "0x$(addr "$tmp/pie" main 0x108000) -> 0x$(addr "$tmp/pie" work 0x108000) 1 100" \
	edges "$tmp/notelf.out" --elf
warned "not-ELF message" "callgrind-utils: warning: $tmp/prog.c: cannot read object: not an ELF file; its 0x names are kept"
# "???" and a missing object first, each with two 0x names, then the PIE
{
	printf '# callgrind format\nversion: 1\nevents: Ir\n'
	printf 'ob=???\nfl=???\nfn=0x4001000\n1 5\nfn=0x4001030\n1 5\n'
	printf 'ob=%s\nfn=0x1000\n1 5\nfn=0x1010\n1 5\n' "$tmp/missing"
	sed 1,3d "$tmp/pie.out"
} >"$tmp/mixed.out"
expect "??? and a missing object, then the PIE" 0 "$(printf '%s\n' "main -> work 1 100")" \
	sh -c "\"$CGU\" symbolize --elf \"$tmp/mixed.out\" | \"$CGU\" edges -"
warned "one warning per object" "$(printf '%s\n%s' \
	"callgrind-utils: warning: ???: cannot read object: an object Callgrind could not name, not a file; its 0x names are kept" \
	"callgrind-utils: warning: $tmp/missing: cannot read object: No such file or directory; its 0x names are kept")"
"$CGU" symbolize --elf "$tmp/mixed.out" 2>/dev/null | grep -c '^fn=.*0x40010[03]0$' >"$tmp/n"
[ "$(cat "$tmp/n")" = 2 ] && passes=$((passes + 1)) ||
	{ echo "FAIL: the 0x names of ??? are not kept"; fails=$((fails + 1)); }

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
