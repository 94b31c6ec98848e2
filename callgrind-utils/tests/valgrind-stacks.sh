# valgrind-stacks.sh - sourced by the tests that profile a program of
# tests/prog with a Valgrind that has --collect-stacks (VALGRIND,
# default from PATH): checks the tools, skips (77) without them, and
# makes a work folder, removed on exit, as the current folder.
# Sets VALGRIND, CC, work, fails; defines fail() and drawn().
: "${TEST_DATA:?}"
. "$(dirname "$0")/valgrind-tools.sh"
if ! "$VALGRIND" --tool=callgrind --help 2>/dev/null | grep -q -- --collect-stacks; then
	echo "SKIP: $VALGRIND has no --collect-stacks"
	exit 77
fi

scratch_dir cgu-valgrind
# value of the lines of folded file $2 whose stack holds frame $1
drawn() {
	awk -v f="$1" '{ c = $NF; s = $0; sub(/ [0-9]+$/, "", s)
		n = split(s, a, ";"); for (i = 1; i <= n; i++) if (a[i] == f) { t += c; break } }
		END { print t + 0 }' "$2"
}
