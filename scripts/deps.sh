#!/bin/bash
# Install the Debian packages a fresh bookworm machine lacks, per stage.
#
#   scripts/deps.sh base      autotools, rsync, the C test framework,
#                             zlib, liblzma, libbz2, libzstd: the driver,
#                             callgrind-utils and check; the consumers
#                             its export tests read the exports with
#                             (graphviz's dot, protoc, go tool pprof);
#                             python3 and node for the e2e runtime fixtures;
#                             Debian's own valgrind (3.19 on bookworm),
#                             whose profiles callgrind-utils' tests read
#   scripts/deps.sh ARCH      a cross architecture of scripts/cross-arches
#                             (arm64, riscv64, s390x...): its cross toolchain and
#                             qemu-user (scripts/cross-setup.sh makes the
#                             sysroot)
#   scripts/deps.sh arm64-vm  qemu-system-aarch64 and cpio for the arm64
#                             reference VM (scripts/arm64-vm.sh)
#   scripts/deps.sh browser   chromium for the flame-graph browser test
#   scripts/deps.sh deb       what dpkg-buildpackage needs for make deb
#   scripts/deps.sh bench     stress-ng, a workload of make bench
#   scripts/deps.sh cycle-tables  llvm-16 (llvm-mca) and the arm64 cross
#                             libraries, the corpus of make cycle-tables
#                             (Capstone itself is built from source by
#                             scripts/build-capstone.sh with gcc)
#
# Packages already installed are not touched.  Without root it prints the
# apt-get command to run and exits 2.  Never add gcc-multilib: on bookworm
# it removes the aarch64 cross compilers.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs_base="autoconf automake libtool pkg-config make gcc g++ perl rsync patch
           xz-utils bzip2 zstd libcmocka-dev zlib1g-dev liblzma-dev libbz2-dev
           libzstd-dev libelf-dev libcapstone-dev
           python3 gdb procps clang libclang-rt-14-dev
           graphviz protobuf-compiler golang-go valgrind"
pkgs_arm64_vm="qemu-system-arm cpio gzip"
pkgs_bench="stress-ng"
pkgs_cycle_tables="llvm-16 python3 gcc libc6-dev-arm64-cross libstdc++6-arm64-cross"
pkgs_browser="chromium"
pkgs_deb="debhelper dpkg-dev docbook docbook-xml docbook-xsl xsltproc
          mpi-default-dev lintian fakeroot quilt gdb pkg-config"

missing() {
   local p
   for p in "$@"; do
      dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
         printf '%s ' "$p"
   done
}

install_pkgs() {
   local need
   # shellcheck disable=SC2086
   need=$(missing $*)
   [ -n "$need" ] || return 0
   if [ "$(id -u)" != 0 ]; then
      say "missing packages: $need"
      say "install them with: sudo apt-get update && sudo apt-get install -y $need"
      exit 2
   fi
   say "installing: $need"
   # Bookworm's image ships stale lists: update once per call.
   apt-get update -qq >&2
   # shellcheck disable=SC2086
   DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >&2
}

case ${1:-base} in
   base)    # The e2e node fixture; as for browser, an image's own Node.js does.
            command -v node >/dev/null || pkgs_base="$pkgs_base nodejs"
            install_pkgs $pkgs_base ;;
   arm64-vm) install_pkgs $pkgs_arm64_vm ;;
   browser) # The image may carry its own Node.js; take Debian's only if none.
            command -v node >/dev/null && command -v npm >/dev/null ||
               pkgs_browser="$pkgs_browser nodejs npm"
            install_pkgs $pkgs_browser ;;
   deb)     install_pkgs $pkgs_deb ;;
   bench)   install_pkgs $pkgs_bench ;;
   cycle-tables) install_pkgs $pkgs_cycle_tables ;;
   *)       # A cross architecture: Debian names its packages after the
            # triplet (gcc-<triplet>) and its architecture (libc6-dev-<debarch>-cross).
            load_cross_arch "$1"
            install_pkgs "gcc-$CROSS_TRIPLET g++-$CROSS_TRIPLET libc6-dev-$CROSS_DEBARCH-cross
                          qemu-user-static binfmt-support" ;;
esac
