#!/bin/bash
# Build Debian binary packages.
#
#   scripts/deb.sh valgrind   Debian's source package of the pinned version,
#                             with our series appended to debian/patches,
#                             built 64-bit only into build/deb/
#   scripts/deb.sh utils      callgrind-utils from this tree, with the
#                             packaging in callgrind-utils/packaging/debian,
#                             into build/deb-utils/
#
# Both end with lintian on the .debs (errors fail the build).  Needs root
# for the build dependencies the first time (scripts/deps.sh deb, then
# apt-get build-dep on the edited source); the build itself runs under
# the shared CPU lock.  Environment: JOBS, DEB_SUFFIX (default
# +callgraph1), LOCK (default build/.cpu.lock).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_pin

JOBS=${JOBS:-$(nproc)}
DEB_SUFFIX=${DEB_SUFFIX:-+callgraph1}
LOCK=${LOCK:-$BUILD/.cpu.lock}
SERIES=${SERIES:-$TOP/patches/series}
MAINT="Callgraph Team <team@callgraph.invalid>"

# The build dependencies of the unpacked source in $1, installed from
# its own debian/control (so our edits to it count).
build_deps() {
   local dir=$1
   "$TOP/scripts/deps.sh" deb
   (cd "$dir" && dpkg-checkbuilddeps >/dev/null 2>&1) && return 0
   if [ "$(id -u)" != 0 ]; then
      say "build dependencies missing; install them with:"
      say "   sudo apt-get build-dep -y $dir"
      exit 2
   fi
   say "apt-get build-dep $dir"
   DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq "$dir" >&2
}

# The date of the last commit that touched the given paths, RFC 2822
# (changelog dates do not change from one rebuild to the next).
commit_date() {
   git -C "$TOP" log -1 --format=%aD -- "$@" 2>/dev/null | grep . || date -R
}

# DEP-3 copy of a git format-patch file: Description from the subject and
# body, Author from From:, Forwarded and Last-Update from the trailers,
# then the diffstat and diff unchanged.
dep3() {
   awk '
      function flush_body(   i, n) {
         # drop trailing blank lines of the body
         n = nb; while (n > 0 && body[n] == "") n--
         for (i = 1; i <= n; i++) print (body[i] == "" ? " ." : " " body[i])
      }
      state == 0 && /^From [0-9a-f]+ / { next }
      state == 0 && /^From: /    { author = substr($0, 7); last = "from"; next }
      state == 0 && /^Subject: / { subj = substr($0, 10); sub(/^\[PATCH[^]]*\] */, "", subj); last = "subj"; next }
      state == 0 && /^[ \t]/     { if (last == "subj") subj = subj " " substr($0, 2); next }
      state == 0 && /^$/         { state = 1; next }
      state == 0                 { last = ""; next }
      state == 1 && /^---$/      { state = 2
         printf "Description: %s\n", subj
         flush_body()
         printf "Author: %s\n", author
         # DEP-3 takes no, not-needed or a URL; "not yet" and the like are no.
         if (fwd !~ /^(no|not-needed|[a-z]+:\/\/.*)$/) fwd = "no"
         printf "Forwarded: %s\n", fwd
         if (upd != "") printf "Last-Update: %s\n", upd
         print "---"; next }
      state == 1 && /^Forwarded: /   { fwd = substr($0, 12); next }
      state == 1 && /^Last-Update: / { upd = substr($0, 14); next }
      state == 1                 { body[++nb] = $0; next }
      state == 2                 { print }
      END { if (state != 2) exit 1 }' "$1"
}

# A changelog stanza on top of debian/changelog.
add_changelog() {   # add_changelog DIR SOURCE VERSION DATE TEXT...
   local dir=$1 src=$2 ver=$3 when=$4; shift 4
   {
      printf '%s (%s) UNRELEASED; urgency=medium\n\n' "$src" "$ver"
      local line
      for line in "$@"; do printf '  %s\n' "$line"; done
      printf '\n -- %s  %s\n\n' "$MAINT" "$when"
      [ -f "$dir/debian/changelog" ] && cat "$dir/debian/changelog"
   } > "$dir/debian/changelog.new"
   mv "$dir/debian/changelog.new" "$dir/debian/changelog"
}

build_and_lint() {   # build_and_lint DIR OUTDIR: dpkg-buildpackage, then lintian
   local dir=$1 out=$2 start log=$2/build.log
   start=$(date +%s)
   say "dpkg-buildpackage -b -uc -us in $dir (log: $log)"
   (cd "$dir" && DEB_BUILD_OPTIONS="parallel=$JOBS nocheck ${DEB_BUILD_OPTIONS:-}" \
       flock "$LOCK" dpkg-buildpackage -b -uc -us) > "$log" 2>&1 ||
      { tail -n 40 "$log" >&2; die "dpkg-buildpackage failed, see $log"; }
   say "built in $(( $(date +%s) - start )) s:"
   ls "$out"/*.deb >&2
   say "lintian"
   local rc=0
   lintian --fail-on error --suppress-tags bad-distribution-in-changes-file \
      "$out"/*.deb > "$out/lintian.log" 2>&1 || rc=$?
   cat "$out/lintian.log" >&2
   [ $rc = 0 ] || die "lintian reports errors (see $out/lintian.log)"
}

valgrind_deb() {
   local out=$BUILD/deb upver=${VG_DEB_VERSION#*:} dsc dir ver p n=0
   local debver=${upver}$DEB_SUFFIX
   dsc=${VG_DEB_SOURCE}_$upver.dsc
   "$TOP/scripts/fetch-upstream.sh" >/dev/null
   rm -rf "$out"; mkdir -p "$out"
   # The cached orig tarball is reused: apt-get source skips a file that
   # is already there with the right checksum.
   ln -f "$CACHE/$VG_TARBALL" "$out/" 2>/dev/null || cp "$CACHE/$VG_TARBALL" "$out/"
   if [ -f "$CACHE/$dsc" ]; then
      cp "$CACHE/$dsc" "$CACHE/${VG_DEB_SOURCE}_$upver".debian.tar.* "$out/"
   else
      say "apt-get source --download-only $VG_DEB_SOURCE=$VG_DEB_VERSION"
      (cd "$out" && apt-get source -qq --download-only "$VG_DEB_SOURCE=$VG_DEB_VERSION" >&2) ||
         die "apt-get source $VG_DEB_SOURCE=$VG_DEB_VERSION failed: run 'sudo make fetch' with no" \
             "cached tarball (it adds the deb-src lines), or put $dsc and its debian tarball in $CACHE"
   fi
   dir=$out/$VG_DEB_SOURCE-$VG_VERSION
   (cd "$out" && dpkg-source -q -x "$dsc" "$dir" >&2) || die "dpkg-source -x $dsc failed"

   # Our series after Debian's, each patch with a DEP-3 header.
   while read -r p; do
      dep3 "$p" > "$dir/debian/patches/${p##*/}" || die "${p##*/}: not a git format-patch file"
      printf '%s\n' "${p##*/}" >> "$dir/debian/patches/series"
      n=$((n + 1))
   done < <(series_patches "$SERIES")
   [ "$n" -gt 0 ] || die "the series $SERIES is empty"

   # 64-bit only: Debian builds the 32-bit x86 half too, which needs
   # gcc-multilib, and on bookworm that removes the arm64 cross compilers.
   sed -i -e '/^ gcc-multilib \[amd64\],$/d' -e '/^ libc6-dev-i386 \[amd64\],$/d' "$dir/debian/control"
   grep -q 'gcc-multilib\|libc6-dev-i386' "$dir/debian/control" &&
      die "debian/control still needs gcc-multilib or libc6-dev-i386: update scripts/deb.sh"
   grep -q '^	dh_auto_configure -- --enable-tls ' "$dir/debian/rules" ||
      die "debian/rules has no dh_auto_configure line to extend: update scripts/deb.sh"
   sed -i 's/^	dh_auto_configure -- --enable-tls /&--enable-only64bit /' "$dir/debian/rules"
   # ... so the overrides for the x86 files would be unused.
   sed -i '/-x86-linux/d' "$dir/debian/valgrind.lintian-overrides"
   # debhelper compat 13 runs dh_autoreconf: the Makefile.am edits of
   # the series take effect.  Check, since we rely on it.
   grep -q 'debhelper-compat (= 1[3-9])' "$dir/debian/control" ||
      die "debhelper compat below 13 does not autoreconf: update scripts/deb.sh"

   local names=()
   mapfile -t names < <(series_patches "$SERIES" | sed 's|.*/|  - |')
   add_changelog "$dir" "$VG_DEB_SOURCE" "${VG_DEB_VERSION%%:*}:$debver" "$(commit_date patches)" \
      "* Local build with the callgrind-patchset series appended to" \
      "  debian/patches:" "${names[@]}" \
      "* Build 64-bit only (--enable-only64bit; no gcc-multilib)."
   build_deps "$dir"
   build_and_lint "$dir" "$out"
}

utils_deb() {
   local out=$BUILD/deb-utils src=$TOP/callgrind-utils ver dir
   ver=$(sed -n 's/^AC_INIT(\[callgrind-utils\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
   [ -n "$ver" ] || die "no version in $src/configure.ac"
   [ -d "$src/packaging/debian" ] || die "$src/packaging/debian is missing"
   rm -rf "$out"; mkdir -p "$out"
   dir=$out/callgrind-utils-$ver
   mkdir -p "$dir"
   # Only the package's own files, not a developer's build products.
   if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
      (cd "$src" && git ls-files --cached --others --exclude-standard . | grep -v '^packaging/' |
         rsync -rlp --files-from=- ./ "$dir"/)
   else
      rsync -rlp --exclude=packaging/ "$src"/ "$dir"/
   fi
   cp -r "$src/packaging/debian" "$dir/debian"
   add_changelog "$dir" callgrind-utils "$ver-1" "$(commit_date callgrind-utils)" \
      "* Built from the callgrind-patchset tree."
   build_deps "$dir"
   build_and_lint "$dir" "$out"
}

case ${1:-} in
   valgrind) valgrind_deb ;;
   utils)    utils_deb ;;
   *)        die "usage: $0 valgrind|utils" ;;
esac
