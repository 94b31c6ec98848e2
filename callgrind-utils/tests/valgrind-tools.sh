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
