#!/bin/bash
# Tests of the driver itself: fetch, prepare, the patch queue and the
# regtest wrapper.  Each test works in its own scratch folder and never
# touches build/src (which may be a developer's patch-queue tree); it only
# reads the cached tarball, so 'make fetch' must have run.
#
#   tests/driver/run.sh [TEST...]
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib.sh"
load_pin

TARBALL=$CACHE/$VG_TARBALL
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/driver-test.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
passed=0 failed=0 skipped=0

check() {   # check NAME: run test_NAME in a fresh folder and count it
   local name=$1 dir=$SCRATCH/$1 out
   mkdir -p "$dir"
   local rc=0
   out=$(cd "$dir" && "test_$name" 2>&1) || rc=$?
   if [ $rc = 0 ]; then
      echo "ok   $name"; passed=$((passed + 1))
   elif [ $rc = 77 ]; then
      echo "skip $name: ${out##*skip: }"; skipped=$((skipped + 1))
   else
      echo "FAIL $name"; printf '%s\n' "$out" | sed 's/^/     /'
      failed=$((failed + 1))
   fi
}

expect_fail() {   # expect_fail PATTERN CMD...: CMD must fail and print PATTERN
   local pat=$1 out rc=0; shift
   out=$("$@" 2>&1) || rc=$?
   if [ $rc = 0 ]; then echo "expected failure, got success: $*"; echo "$out"; return 1; fi
   if ! printf '%s\n' "$out" | grep -qE -- "$pat"; then
      echo "output lacks /$pat/: $*"; echo "$out"; return 1
   fi
}

copy_patches() {   # a private copy of the repository's patches
   mkdir -p patches
   cp "$TOP"/patches/series patches/
   series_patches "$TOP/patches/series" | while read -r p; do cp "$p" patches/; done
}

test_fetch_wrong_sha256_unpacks_nothing() {
   mkdir cache
   expect_fail "checksum mismatch" env CACHE="$PWD/cache" VALGRIND_TARBALL="$TARBALL" \
      VALGRIND_SHA256=0000000000000000000000000000000000000000000000000000000000000000 \
      "$TOP/scripts/fetch-upstream.sh" || return 1
   [ -z "$(ls cache)" ] || { echo "cache is not empty: $(ls cache)"; return 1; }
}

test_fetch_corrupt_cache_is_refused() {
   mkdir cache
   head -c 100000 "$TARBALL" > "cache/$VG_TARBALL"
   expect_fail "checksum mismatch" env CACHE="$PWD/cache" "$TOP/scripts/fetch-upstream.sh" || return 1
   # prepare checks again and unpacks nothing.
   expect_fail "checksum mismatch" env CACHE="$PWD/cache" SRC="$PWD/src" SERIES= \
      "$TOP/scripts/prepare.sh" || return 1
   [ ! -e src ] && [ ! -e src.new ] || { echo "something was unpacked"; return 1; }
}

test_fetch_packager_tarball() {
   mkdir cache
   env CACHE="$PWD/cache" VALGRIND_TARBALL="$TARBALL" "$TOP/scripts/fetch-upstream.sh" > out || return 1
   cmp -s "cache/$VG_TARBALL" "$TARBALL" || { echo "cache copy differs"; return 1; }
   grep -q "cache/$VG_TARBALL\$" out || { echo "fetch did not print the tarball path"; return 1; }
}

test_broken_patch_is_named() {
   copy_patches
   cat > patches/9999-broken.patch <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Test <test@invalid>
Subject: [PATCH] a patch whose context is not in the tree

---
 callgrind/main.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

--- a/callgrind/main.c
+++ b/callgrind/main.c
@@ -1,3 +1,3 @@
 this line is not in callgrind/main.c
-nor is this one
+so the hunk cannot apply
 at all
EOF
   echo 9999-broken.patch >> patches/series
   expect_fail "9999-broken.patch" env SRC="$PWD/src" SERIES="$PWD/patches/series" \
      "$TOP/scripts/prepare.sh" || return 1
   expect_fail "callgrind/main.c" env SRC="$PWD/src" SERIES="$PWD/patches/series" \
      "$TOP/scripts/prepare.sh" || return 1
   [ ! -e src/.prepared ] || { echo "a half-patched tree was marked prepared"; return 1; }
}

test_missing_patch_is_named() {
   copy_patches
   echo 9998-not-there.patch >> patches/series
   expect_fail "9998-not-there.patch" env SRC="$PWD/src" SERIES="$PWD/patches/series" \
      "$TOP/scripts/prepare.sh"
}

test_prepare_is_incremental() {
   copy_patches
   SRC=$PWD/src SERIES=$PWD/patches/series "$TOP/scripts/prepare.sh" 2>/dev/null || return 1
   touch -d '2001-01-01' src/README
   SRC=$PWD/src SERIES=$PWD/patches/series "$TOP/scripts/prepare.sh" || return 1
   [ "$(stat -c %Y src/README)" = "$(date -d 2001-01-01 +%s)" ] ||
      { echo "an unchanged series re-unpacked the tree"; return 1; }
   # A changed series remakes it.
   cat > patches/9997-new-file.patch <<'EOF'
--- /dev/null
+++ b/PATCHSET-TEST
@@ -0,0 +1 @@
+added by a test patch
EOF
   echo 9997-new-file.patch >> patches/series
   SRC=$PWD/src SERIES=$PWD/patches/series "$TOP/scripts/prepare.sh" 2>/dev/null || return 1
   [ -f src/PATCHSET-TEST ] || { echo "a changed series did not remake the tree"; return 1; }
   [ "$(stat -c %Y src/README)" != "$(date -d 2001-01-01 +%s)" ] ||
      { echo "the remade tree kept the old files"; return 1; }
}

test_pq_export_round_trip_is_stable() {
   copy_patches
   cp -r patches orig
   SRC=$PWD/src PATCHES=$PWD/patches "$TOP/scripts/pq.sh" create || return 1
   local n
   n=$(git -C src rev-list --count upstream..HEAD)
   [ "$n" = "$(series_patches patches/series | wc -l)" ] ||
      { echo "queue has $n commits for $(series_patches patches/series | wc -l) patches"; return 1; }
   SRC=$PWD/src PATCHES=$PWD/patches "$TOP/scripts/pq.sh" export || return 1
   diff -r orig patches || { echo "export after pq changed patches/"; return 1; }
   SRC=$PWD/src PATCHES=$PWD/patches "$TOP/scripts/pq.sh" export || return 1
   diff -r orig patches || { echo "a second export changed patches/"; return 1; }
   SRC=$PWD/src PATCHES=$PWD/patches "$TOP/scripts/pq.sh" in-sync ||
      { echo "in-sync says the queue differs from the series"; return 1; }
}

test_pq_tree_is_never_wiped() {
   copy_patches
   SRC=$PWD/src PATCHES=$PWD/patches "$TOP/scripts/pq.sh" create || return 1
   echo "/* local edit */" >> src/callgrind/main.c
   git -C src -c user.name=t -c user.email=t@invalid commit -qam "local: an unexported change" || return 1
   # The series changes under it (a pull, say): prepare must not remake
   # the tree over the unexported commit.
   printf -- '--- /dev/null\n+++ b/PATCHSET-TEST\n@@ -0,0 +1 @@\n+x\n' > patches/9997-new-file.patch
   echo 9997-new-file.patch >> patches/series
   expect_fail "make export" env SRC="$PWD/src" SERIES="$PWD/patches/series" \
      "$TOP/scripts/prepare.sh" || return 1
   grep -q "local edit" src/callgrind/main.c || { echo "the developer's edit is gone"; return 1; }
}

# Packagers put our series after Debian's own patches: both must apply,
# in that order, without fuzz (an offset is accepted, as quilt does).
# The Debian revision is the pinned one, not whichever is cached.
test_series_applies_after_debian_patches() {
   local deb
   deb=$(ls "$CACHE/${VG_DEB_SOURCE}_${VG_DEB_VERSION#*:}".debian.tar.* 2>/dev/null | head -n1)
   [ -n "$deb" ] || { echo "no Debian packaging $VG_DEB_VERSION in $CACHE (make fetch from Debian's archive)"; return 1; }
   mkdir src
   tar -xjf "$TARBALL" -C src --strip-components=1 || return 1
   tar -xf "$deb" -C src || return 1
   local p n=0 d=0
   while read -r p; do
      (cd src && patch -p1 --batch --forward --fuzz=0 -s < "$p") ||
         { echo "Debian's ${p##*/} does not apply"; return 1; }
      d=$((d + 1))
   done < <(series_patches "$PWD/src/debian/patches/series")
   [ "$d" -gt 0 ] || { echo "Debian's series is empty"; return 1; }
   while read -r p; do
      (cd src && patch -p1 --batch --forward --fuzz=0 -s < "$p") ||
         { echo "${p##*/} does not apply on top of Debian's patches"; return 1; }
      n=$((n + 1))
   done < <(series_patches "$TOP/patches/series")
   [ "$n" -gt 0 ] || { echo "the series is empty"; return 1; }
}

# The same check fails when a Debian patch and ours touch the same lines:
# a Debian patch is made to change a line our first patch's first hunk
# needs as context.
test_series_on_debian_conflict_fails() {
   local first file at deb=${VG_DEB_SOURCE}_${VG_DEB_VERSION#*:}.debian.tar.xz
   first=$(series_patches "$TOP/patches/series" | head -n1)
   file=$(sed -n 's|^+++ b/||p' "$first" | head -n1)
   # The old-file line number of the first context line of its first hunk.
   at=$(awk -v f="+++ b/$file" '
      $0 == f { go = 1; next }
      go && /^@@ / { split($2, a, ","); n = substr(a[1], 2); h = 1; next }
      h && /^ / { print n; exit }
      h && /^-/ { n++ }' "$first")
   [ -n "$at" ] || { echo "no context line in ${first##*/}"; return 1; }
   mkdir -p cache/src
   ln -s "$TARBALL" "cache/$VG_TARBALL"
   tar -xf "$(ls "$CACHE/${deb%.xz}".* | head -n1)" -C cache/src || return 1
   tar -xjf "$TARBALL" -C cache/src --strip-components=1 "valgrind-$VG_VERSION/$file" || return 1
   (cd cache/src && cp "$file" a.orig &&
      awk -v at="$at" 'NR == at { $0 = $0 " (debian)" } { print }' a.orig > a.new
      diff -u --label "a/$file" --label "b/$file" a.orig a.new > debian/patches/zz-conflict.patch
      [ -s debian/patches/zz-conflict.patch ] && echo zz-conflict.patch >> debian/patches/series) ||
      { echo "could not make the conflicting patch"; return 1; }
   tar -cJf "cache/$deb" -C cache/src debian || return 1
   # Debian's patches (with the new one) apply; our first patch does not.
   expect_fail "${first##*/} does not apply on top of Debian's patches" \
      env CACHE="$PWD/cache" TMPDIR="$PWD" "$TOP/tests/driver/run.sh" series_applies_after_debian_patches
}

# The regtest wrapper, on the built x86_64 tree: a hung test fails (it is
# not reported as passed), an unlisted failure fails the run, and a test
# listed as failing that passes fails the run.
regtest_fixture() {   # regtest_fixture DIR [TREE]: a tests dir inside a built tree
   local d=$1 tree=${2:-$BUILD/x86_64/tree}
   [ -x "$tree/tests/vg_regtest" ] || { echo "skip: no built tree (make build)"; return 77; }
   rm -rf "${tree:?}/$d"; mkdir -p "$tree/$d"
   # cat as the filter: the timeout line must survive to the diff.
   printf '#!/bin/sh\nexec cat\n' > "$tree/$d/filter_stderr"; chmod +x "$tree/$d/filter_stderr"
   printf 'prog: /bin/sleep\nargs: 30\nvgopts: -q\n' > "$tree/$d/hang.vgtest"
   printf 'prog: /bin/true\nvgopts: -q\n' > "$tree/$d/pass.vgtest"
   printf 'prog: /bin/true\nvgopts: -q\n' > "$tree/$d/fail.vgtest"
   echo "this is not what true prints" > "$tree/$d/fail.stdout.exp"
   # A failure of the post check alone (vg_regtest's .trs says PASS).
   printf 'prog: /bin/true\nvgopts: -q\npost: echo wrong\n' > "$tree/$d/postfail.vgtest"
   echo right > "$tree/$d/postfail.post.exp"
}

test_regtest_timeout_is_a_failure() {
   local d=none/tests/drivertest-timeout rc=0
   regtest_fixture "$d"; rc=$?; [ $rc = 0 ] || return $rc
   rm -f "$BUILD/x86_64/tree/$d/"{pass,fail,postfail}.vgtest
   expect_fail "0 passed, 1 failed" env TREE="$BUILD/x86_64/tree" TIMEOUT=3 \
      LOG="$PWD/log" "$TOP/scripts/regtest.sh" "$d" || return 1
   grep -q "REGTEST-TIMEOUT" "$BUILD/x86_64/tree/$d/hang.stderr.out" ||
      { echo "no timeout line in the test's stderr"; return 1; }
   rm -rf "${BUILD:?}/x86_64/tree/$d"
}

# Two runs on one tree: the second waits for the first, and each gets its
# own results (the first's hang is killed after its own TIMEOUT).
test_regtest_one_run_a_tree() {
   local d=none/tests/drivertest-lock rc=0 tree=$BUILD/x86_64/tree first i
   regtest_fixture "$d"; rc=$?; [ $rc = 0 ] || return $rc
   rm -f "$tree/$d/"{fail,postfail}.vgtest
   env TREE="$tree" TIMEOUT=5 LOG="$PWD/log1" "$TOP/scripts/regtest.sh" "$d/hang" > out1 2>&1 &
   first=$!
   for i in $(seq 50); do
      grep -q "running vg_regtest" out1 && break
      sleep 0.1
   done
   env TREE="$tree" LOG="$PWD/log2" "$TOP/scripts/regtest.sh" "$d/pass" > out2 2>&1
   rc=$?
   wait "$first"
   grep -q "waiting for it to finish" out2 || { echo "the second run did not wait:"; cat out2; return 1; }
   [ $rc = 0 ] && grep -q "1 passed, 0 failed" out2 || { echo "second run:"; cat out2; return 1; }
   grep -q "0 passed, 1 failed" out1 || { echo "first run:"; cat out1; return 1; }
   rm -rf "${tree:?}/$d"
}

test_regtest_known_failures_both_ways() {
   local d=none/tests/drivertest-known rc=0 tree=$BUILD/x86_64/tree
   regtest_fixture "$d"; rc=$?; [ $rc = 0 ] || return $rc
   rm -f "$tree/$d/hang.vgtest"
   # Unlisted failures, of the output and of the post check: the run fails.
   expect_fail "1 passed, 2 failed" env TREE="$tree" LOG="$PWD/log" \
      "$TOP/scripts/regtest.sh" "$d" || return 1
   # Listed failure: the run passes and says so.
   printf '%s/fail flaky the test expects other output\n%s/postfail fail post says wrong\n' "$d" "$d" > known
   env TREE="$tree" LOG="$PWD/log" KNOWN="$PWD/known" "$TOP/scripts/regtest.sh" "$d" > out 2>&1 ||
      { cat out; return 1; }
   grep -q "2 known failure" out || { cat out; return 1; }
   # A test listed as 'fail' that passes: the run fails, so the list cannot rot.
   printf '%s/pass fail listed but passes\n%s/fail fail expected\n%s/postfail fail x\n' "$d" "$d" "$d" > known
   expect_fail "listed as failing but passed" env TREE="$tree" LOG="$PWD/log" \
      KNOWN="$PWD/known" "$TOP/scripts/regtest.sh" "$d" || return 1
   # A malformed list is an error with its line.
   printf '%s/pass\n' "$d" > known
   expect_fail "known:1: expected" env TREE="$tree" LOG="$PWD/log" KNOWN="$PWD/known" \
      "$TOP/scripts/regtest.sh" "$d" || return 1
   rm -rf "${tree:?}/$d"
}

# A cross architecture's harness: a failing vgtest run on its tree under
# qemu-user makes the run fail (skipped when that tree is not built).
cross_failing_vgtest_fails_the_run() {   # ARCH MACHINE (readelf -h's name)
   local arch=$1 machine=$2 d=none/tests/drivertest-$1 rc=0 tree=$BUILD/$1/tree
   [ -x "$tree/tests/vg_regtest" ] || { echo "skip: no $arch tree (make $arch)"; return 77; }
   regtest_fixture "$d" "$tree"; rc=$?; [ $rc = 0 ] || return $rc
   rm -f "$tree/$d/"{hang,pass,postfail}.vgtest
   eval "$("$TOP/scripts/cross-setup.sh" "$arch" --env)"
   expect_fail "0 passed, 1 failed" env TREE="$tree" LOG="$PWD/log" \
      KNOWN="$TOP/tests/known-failures/$arch.txt" "$TOP/scripts/regtest.sh" "$d" || return 1
   # It really ran on that architecture: the launcher is its binary.
   readelf -h "$tree/coregrind/valgrind" | grep -q "Machine: *$machine" ||
      { echo "not an $arch tree"; return 1; }
   rm -rf "${tree:?}/$d"
}
test_arm64_failing_vgtest_fails_the_run() { cross_failing_vgtest_fails_the_run arm64 AArch64; }
test_riscv64_failing_vgtest_fails_the_run() { cross_failing_vgtest_fails_the_run riscv64 RISC-V; }
test_s390x_failing_vgtest_fails_the_run() { cross_failing_vgtest_fails_the_run s390x 'IBM S/390'; }
test_ppc64le_failing_vgtest_fails_the_run() { cross_failing_vgtest_fails_the_run ppc64le PowerPC64; }
test_armhf_failing_vgtest_fails_the_run() { cross_failing_vgtest_fails_the_run armhf ARM; }
test_mips64el_failing_vgtest_fails_the_run() { cross_failing_vgtest_fails_the_run mips64el 'MIPS R3000'; }

# The e2e suite's known failures (tests/e2e/run.sh KNOWN=): an unlisted
# failure fails the run, a listed one does not, and a malformed list is
# an error.  A Valgrind that always fails makes the failing run.
test_e2e_known_failures_are_checked() {
   mkdir bin include
   printf '#!/bin/sh\necho "a Valgrind that fails" >&2\nexit 1\n' > bin/valgrind
   chmod +x bin/valgrind
   local e2e=(env ARCH=x86_64 OPTS=O0 STACKS=off SNAPSHOTS=off VALGRIND="$PWD/bin/valgrind"
              UTILS=/bin/true E2E_OUT="$PWD/out" "$TOP/tests/e2e/run.sh" fib)
   expect_fail "0 passed, 1 failed" env KNOWN= "${e2e[@]}" || return 1
   echo "e2e/O0/fib fail the Valgrind fails" > known
   env KNOWN="$PWD/known" "${e2e[@]}" > out.txt 2>&1 || { cat out.txt; return 1; }
   grep -q "1 known failure" out.txt && grep -q "0 passed, 0 failed" out.txt || { cat out.txt; return 1; }
   echo "e2e/O0/fib" > known
   expect_fail "known:1: expected" env KNOWN="$PWD/known" "${e2e[@]}" || return 1
}

# The arm64 reference VM (scripts/arm64-vm.sh): a failing vgtest run
# inside it makes the run fail, and the pass beside it is counted
# (skipped when no arm64 tree is built or the VM is not prepared).
vm_ready() {
   [ -x "$BUILD/arm64/tree/tests/vg_regtest" ] || { echo "skip: no arm64 tree (make arm64)"; return 77; }
   [ -f "$BUILD/arm64/vm/initrd.cpio.gz" ] || { echo "skip: no arm64 VM (make arm64-vm)"; return 77; }
}

test_arm64_vm_failing_vgtest_fails_the_run() {
   local d=none/tests/drivertest-vm rc=0 tree=$BUILD/arm64/tree
   vm_ready || return $?
   regtest_fixture "$d" "$tree"; rc=$?; [ $rc = 0 ] || return $rc
   rm -f "$tree/$d/"{hang,postfail}.vgtest
   expect_fail "1 passed, 1 failed" env VM_TIMEOUT=300 \
      "$TOP/scripts/arm64-vm.sh" run --known '' "$d" || return 1
   # The VM ran the arm64 Valgrind on an arm64 kernel.
   grep -q "this is not what true prints" "$tree/$d/fail.stdout.diff" ||
      { echo "no diff of the failing test"; return 1; }
   rm -rf "${tree:?}/$d"
}

# A VM that does not power off in time is killed, and that is a failure
# with the console log kept, never a pass.
test_arm64_vm_hung_vm_is_a_failure() {
   local d=none/tests/drivertest-vmhang rc=0 tree=$BUILD/arm64/tree
   vm_ready || return $?
   regtest_fixture "$d" "$tree"; rc=$?; [ $rc = 0 ] || return $rc
   rm -f "$tree/$d/"{pass,fail,postfail}.vgtest
   expect_fail "did not finish within VM_TIMEOUT=20s" env VM_TIMEOUT=20 \
      "$TOP/scripts/arm64-vm.sh" run --known '' "$d" || return 1
   [ -s "$BUILD/arm64/vm/run/console.log" ] || { echo "no console log kept"; return 1; }
   rm -rf "${tree:?}/$d"
}

# A callgrind built without Capstone (configure without --with-capstone)
# still builds and runs, and refuses --cycle-estimation=yes saying why.
# A whole second Valgrind build is not needed: callgrind alone is rebuilt
# from the built tree with configure's Capstone variables emptied, in a
# copy beside symbolic links to the rest of the tree, and run with the
# tree's launcher and its other in-place files.
test_callgrind_without_capstone_refuses_cycle_estimation() {
   local tree=$BUILD/x86_64/tree f tool out
   [ -x "$tree/coregrind/valgrind" ] && grep -q '^CALLGRIND_CAPSTONE_LIBS = .' "$tree/callgrind/Makefile" ||
      { echo "skip: no tree built with Capstone (make build)"; return 77; }
   mkdir t lib
   for f in "$tree"/* "$tree"/.in_place; do
      [ "${f##*/}" = callgrind ] || ln -s "$f" "t/${f##*/}"
   done
   cp -a "$tree/callgrind" t/callgrind
   rm -f t/callgrind/*.o t/callgrind/callgrind-*-linux
   tool=$(cd "$tree/.in_place" && ls callgrind-*-linux | head -n1)
   make -C t/callgrind -s -j"${JOBS:-2}" CALLGRIND_CAPSTONE_CPPFLAGS= \
        CALLGRIND_CAPSTONE_LIBS= "$tool" > make.log 2>&1 || { tail -n 20 make.log; return 1; }
   if grep -q vgcapstone_ "t/callgrind/$tool"; then echo "Capstone was linked"; return 1; fi
   for f in "$tree"/.in_place/*; do ln -s "$f" "lib/${f##*/}"; done
   rm -f "lib/$tool"; ln -s "$PWD/t/callgrind/$tool" "lib/$tool"
   VALGRIND_LIB=$PWD/lib "$tree/coregrind/valgrind" -q --tool=callgrind \
      --callgrind-out-file="$PWD/ok.out" /bin/true || { echo "callgrind without Capstone failed"; return 1; }
   grep -q '^events: Ir$' ok.out || { echo "no profile"; return 1; }
   expect_fail "This Valgrind was built without Capstone, which callgrind needs" \
      env VALGRIND_LIB="$PWD/lib" "$tree/coregrind/valgrind" --tool=callgrind \
      --cycle-estimation=yes --callgrind-out-file="$PWD/no.out" /bin/true || return 1
   [ ! -e no.out ] || { echo "a profile was written"; return 1; }
}

[ -f "$TARBALL" ] || die "$TARBALL is missing: run 'make fetch' first"
tests=("$@")
[ ${#tests[@]} -gt 0 ] || mapfile -t tests < <(declare -F | sed -n 's/^declare -f test_//p')
for t in "${tests[@]}"; do check "$t"; done
echo "driver: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
