#!/bin/sh
# install.sh [DIR] - install the Firefox Profiler's command-line client
# (@firefox-devtools/profiler-cli: the profiler's own importer and call
# tree, run by node) for the firefox-import test into DIR (default:
# build/firefox at the top of the repository), never into the source
# tree.  The version is that of package-lock.json here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../npm-ci.sh" "$here" "${1:-$here/../../../build/firefox}"
