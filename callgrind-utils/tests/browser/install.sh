#!/bin/sh
# install.sh DIR - install playwright-core for the browser test into DIR
# (default: build/browser at the top of the repository), never into the
# source tree.  playwright-core brings no browser; the test uses the
# system Chromium (Debian: apt-get install chromium).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../../../build/browser}
mkdir -p "$dir"
cp "$here/package.json" "$dir/package.json"
cd "$dir"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --omit=dev
echo "playwright-core installed in $(pwd)/node_modules"
