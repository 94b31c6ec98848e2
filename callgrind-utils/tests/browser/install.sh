#!/bin/sh
# install.sh [DIR] - install playwright-core for the browser test into DIR
# (default: build/browser at the top of the repository), never into the
# source tree.  The versions are those of package-lock.json here.
# playwright-core brings no browser: the test uses the system Chromium
# (Debian: apt-get install chromium).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../../../build/browser}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
want=$(sed -n 's/.*"playwright-core": "\(.*\)".*/\1/p' "$here/package.json")
have=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' \
	"$dir/node_modules/playwright-core/package.json" 2>/dev/null || true)
if [ "$have" = "$want" ]; then
	echo "playwright-core $have already in $dir/node_modules"
	exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dir/"
cd "$dir"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --omit=dev
echo "playwright-core $want installed in $dir/node_modules"
