#!/bin/sh
# install.sh [DIR] - install playwright-core for the browser test into DIR
# (default: build/browser at the top of the repository), never into the
# source tree.  The versions are those of package-lock.json here.
# playwright-core brings no browser: the test uses the system Chromium
# (Debian: apt-get install chromium).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 exec sh "$here/../npm-ci.sh" "$here" \
	"${1:-$here/../../../build/browser}"
