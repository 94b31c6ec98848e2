#!/bin/sh
# elf-valgrind.sh - annotate --asm and symbolize --elf on a real profile
# (VALGRIND, default from PATH, with --dump-instr=yes), which has
# functions in "???", Callgrind's unknown object, as every real profile
# has: they are left out with one warning, not the end of the run, and
# the program's own functions are annotated.  Skipped (77) without
# Valgrind or without libelf and capstone.
set -u
. "$(dirname "$0")/valgrind-tools.sh"
if "$CGU" annotate --help | grep -q "not in this build"; then
	echo "SKIP: built without libelf and capstone"
	exit 77
fi

scratch_dir cgu-elf

cat >prog.c <<'EOF_C'
int sink;
__attribute__((noinline)) void work(int n) { for (int i = 0; i < n; i++) sink += i; }
int main(void) { work(100000); return 0; }
EOF_C
$CC -O1 -g -o prog prog.c || exit 1
"$VALGRIND" --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out \
	./prog >/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }
grep -q '^c\{0,1\}ob=.*???$' cg.out || { echo "SKIP: no ??? object in this profile"; exit 77; }

"$CGU" annotate --asm -n 0 cg.out >annotate.txt 2>err || fail "annotate --asm exited $?: $(cat err)"
grep -q "^-- work ($work/prog)$" annotate.txt || fail "work not annotated"
grep -q "^-- main ($work/prog)$" annotate.txt || fail "main not annotated"
[ "$(grep -c '^callgrind-utils: warning: ???: ' err)" = 1 ] ||
	fail "not one warning for ???: $(cat err)"
[ "$(sed 's/;.*//' err | sort | uniq -d)" = "" ] || fail "an object warned twice: $(cat err)"

"$CGU" symbolize --elf cg.out >named.out 2>err || fail "symbolize --elf exited $?: $(cat err)"
[ "$(grep -c '^callgrind-utils: warning: ???: ' err)" -le 1 ] || fail "??? warned twice: $(cat err)"
"$CGU" edges named.out >edges.txt 2>err || fail "edges of the symbolized profile: $(cat err)"
grep -q '^main -> work 1 ' edges.txt || fail "no main -> work edge after symbolize"

[ "$fails" = 0 ] && echo "PASS: annotate and symbolize a real profile with ??? objects" && exit 0
exit 1
