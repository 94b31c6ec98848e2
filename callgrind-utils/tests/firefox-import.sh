#!/bin/sh
# firefox-import.sh - the firefox command's files imported by the Firefox
# Profiler itself: its command-line client (@firefox-devtools/profiler-cli,
# the profiler's importer, upgraders and call tree under node) loads them,
# and the costs it shows for every function of every event's track must
# be those of 'callgrind-utils fold': self (the stacks ending in it) and
# total (the stacks holding it), and they add up to the profile's totals.
# On tests/data/shapes.out with its exact stacks, and on a profile of a
# real run (VALGRIND, --cache-sim=yes --collect-stacks=yes) when there is
# a Valgrind.
#
# Skips (exit 77) when node or profiler-cli is missing, unless
# CGU_FIREFOX_REQUIRED=1 (CI), where that is a failure.  Install with
#   callgrind-utils/tests/firefox/install.sh   (npm, into build/firefox)
# Environment: CGU, TEST_DATA, VALGRIND, PROFILER_CLI (the client's
# script; default: found in build/firefox up from here).
set -u
: "${CGU:?CGU must name the callgrind-utils binary}"
: "${TEST_DATA:?}"
here=$(cd "$(dirname "$0")" && pwd)
D=$TEST_DATA

find_cli() {
	d=$here
	while [ "$d" != / ]; do
		for c in "$d/build/firefox" "$d/firefox"; do
			f=$c/node_modules/@firefox-devtools/profiler-cli/dist/profiler-cli.js
			[ -f "$f" ] && { echo "$f"; return; }
		done
		d=$(dirname "$d")
	done
}
missing() {
	if [ "${CGU_FIREFOX_REQUIRED:-0}" = 1 ]; then
		echo "FAIL: firefox import: $1" >&2
		exit 1
	fi
	echo "SKIP: firefox import: $1"
	exit 77
}
PROFILER_CLI=${PROFILER_CLI:-$(find_cli)}
command -v node >/dev/null 2>&1 || missing "node not found (apt-get install nodejs npm)"
command -v python3 >/dev/null 2>&1 || missing "python3 not found"
[ -n "$PROFILER_CLI" ] && [ -f "$PROFILER_CLI" ] ||
	missing "profiler-cli not found (run callgrind-utils/tests/firefox/install.sh)"

. "$here/check-lib.sh"
export PROFILER_CLI_SESSION_DIR="$tmp/sessions"
trap 'node "$PROFILER_CLI" stop --all >/dev/null 2>&1; rm -rf "$tmp"' EXIT
pq() { timeout 120 node "$PROFILER_CLI" "$@"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# compare FOLDED FUNCTIONS-JSON: self and total of every function
cat >"$tmp/compare.py" <<'EOF_PY'
import json, sys
self_, total = {}, {}
for line in open(sys.argv[1]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    frames, count = stack.split(";"), int(count)
    self_[frames[-1]] = self_.get(frames[-1], 0) + count
    for f in set(frames):
        total[f] = total.get(f, 0) + count
got = json.load(open(sys.argv[2]))
if got["weightType"] != "samples":
    sys.exit("weightType %s" % got["weightType"])
seen, bad = {}, []
for f in got["functions"]:
    seen[f["name"]] = (f["selfSamples"], f["totalSamples"])
for name in total:
    want = (self_.get(name, 0), total[name])
    if seen.get(name) != want:
        bad.append("%s: self, total %s in the profiler, %s in fold" % (name, seen.get(name), want))
for name in seen:
    if name not in total:
        bad.append("%s: in the profiler only" % name)
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
EOF_PY

# check NAME PROFILE [OPTIONS]: every event's track as fold says, with
# the same options
check_import() {
	name=$1 prof=$2
	shift 2
	"$CGU" firefox "$@" -o "$tmp/f.json" "$prof" 2>"$tmp/err" || { bad "$name: firefox: $(cat "$tmp/err")"; return; }
	pq load "$tmp/f.json" >"$tmp/load" 2>&1 || { bad "$name: profiler-cli load: $(tail -3 "$tmp/load")"; return; }
	i=0
	for ev in $("$CGU" json "$prof" | python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["events"]))'); do
		"$CGU" fold -e "$ev" "$@" "$prof" >"$tmp/fold"
		pq thread functions --thread "t-$i" --json --limit 100000 >"$tmp/fn.json" 2>"$tmp/err" ||
			{ bad "$name: thread functions t-$i: $(cat "$tmp/err")"; i=$((i + 1)); continue; }
		if python3 "$tmp/compare.py" "$tmp/fold" "$tmp/fn.json" >"$tmp/diff"; then
			passes=$((passes + 1))
		else
			bad "$name, $ev (t-$i):"; cat "$tmp/diff"
		fi
		i=$((i + 1))
	done
	pq stop >/dev/null 2>&1
}

check_import "shapes.out, exact stacks" "$D/shapes.out"
cp "$D/basic.out" "$tmp/basic.out"
check_import "basic.out, reconstructed" "$tmp/basic.out"
check_import "shapes.out, --hide x" "$D/shapes.out" --hide '^x$'

VALGRIND=${VALGRIND:-valgrind}
if command -v "$VALGRIND" >/dev/null 2>&1 &&
   "$VALGRIND" --tool=callgrind --help 2>/dev/null | grep -q -- --collect-stacks; then
	cp "$D/../prog/stacks-prog.c" "$tmp/"
	(cd "$tmp" && ${CC:-cc} -g -O1 -pthread -o stacks-prog stacks-prog.c &&
	 "$VALGRIND" --tool=callgrind --cache-sim=yes --collect-stacks=yes \
		--callgrind-out-file=cg.out ./stacks-prog >/dev/null 2>valgrind.log) ||
		{ cat "$tmp/valgrind.log"; exit 1; }
	check_import "a real run, nine events" "$tmp/cg.out"
	check_import "a real run, --all-frames --names full" "$tmp/cg.out" --all-frames --names full
	check_import "a real run, --focus worker --hide fib" "$tmp/cg.out" --focus worker --hide '^fib$'
else
	echo "SKIP: no Valgrind with --collect-stacks: the fixtures only"
fi

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
