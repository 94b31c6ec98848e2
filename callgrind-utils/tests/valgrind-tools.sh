# valgrind-tools.sh - sourced by the tests that run Valgrind (VALGRIND,
# default from PATH) on a program they compile (CC, default cc): sets
# both, and skips the test (77) when one is missing.
: "${CGU:?CGU must name the callgrind-utils binary}"
VALGRIND=${VALGRIND:-valgrind}
CC=${CC:-cc}
for tool in "$VALGRIND" "$CC"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool not found"
		exit 77
	fi
done

# A scratch folder NAME.XXXXXX, removed at exit, made the current one;
# fails and passes counted by fail MESSAGE and pass.
scratch_dir() {   # NAME
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	cd "$work" || exit 1
	fails=0 passes=0
}
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { passes=$((passes + 1)); }
