#!/bin/sh
# browser.sh - the flame graph in a real browser: headless Chromium (the
# system one, /usr/bin/chromium) driven by playwright-core.
#
# Skips (exit 77) when node, chromium or playwright-core is missing, unless
# CGU_BROWSER_REQUIRED=1 (CI), where that is a failure.  Install with
#   apt-get install -y chromium && callgrind-utils/tests/browser/install.sh
# Environment: CGU (the binary), CGU_BROWSER_MODULES (node_modules with
# playwright-core), CGU_BROWSER_OUT (where the SVG and the screenshot go),
# CHROMIUM (the browser, default /usr/bin/chromium).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

# build/browser of the repository (install.sh puts playwright-core there):
# up from the source folder, which may itself be a copy under build/.
find_install() {
	d=$here
	while [ "$d" != / ]; do
		for c in "$d/build/browser" "$d/browser"; do
			[ -d "$c/node_modules/playwright-core" ] && { echo "$c"; return; }
		done
		d=$(dirname "$d")
	done
}
install_dir=$(find_install)
modules=${CGU_BROWSER_MODULES:-${install_dir:-$PWD/browser}/node_modules}
out=${CGU_BROWSER_OUT:-${install_dir:-$PWD/browser}}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
CGU=${CGU:-callgrind-utils}

missing() {
	if [ "${CGU_BROWSER_REQUIRED:-0}" = 1 ]; then
		echo "FAIL: browser test: $1" >&2
		exit 1
	fi
	echo "SKIP: browser test: $1"
	exit 77
}
command -v node >/dev/null 2>&1 || missing "node not found (apt-get install nodejs npm)"
[ -x "$CHROMIUM" ] || missing "$CHROMIUM not found (apt-get install chromium)"
[ -d "$modules/playwright-core" ] ||
	missing "playwright-core not in $modules (run callgrind-utils/tests/browser/install.sh)"

mkdir -p "$out"
"$CGU" flamegraph --width 1000 --title "Browser test" \
	-o "$out/flamegraph.svg" "$here/browser/known.folded"
"$CGU" flamegraph --width 1000 --flamechart \
	-o "$out/flamechart.svg" "$here/browser/chart.folded"
"$CGU" flamegraph --width 1000 --minwidth 15% \
	-o "$out/minwidth.svg" "$here/browser/known.folded"
export CGU_BROWSER_MODULES="$modules" CGU_BROWSER_OUT="$out" CHROMIUM
exec node --test "$here/browser/flamegraph.test.cjs"
