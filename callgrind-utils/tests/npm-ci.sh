#!/bin/sh
# npm-ci.sh SRC DEST - install the npm packages of SRC/package.json, at
# the versions of SRC/package-lock.json, into DEST/node_modules (never
# into the source tree); nothing to do when DEST has them already.
set -eu
src=$(cd "$1" && pwd)
mkdir -p "$2"
dir=$(cd "$2" && pwd)
if [ -d "$dir/node_modules" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
	echo "$(basename "$src"): the packages of $src/package-lock.json already in $dir/node_modules"
	exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dir/"
cd "$dir"
npm ci --no-audit --no-fund --omit=dev
echo "$(basename "$src"): the packages of $src/package-lock.json installed in $dir/node_modules"
