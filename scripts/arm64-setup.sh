#!/bin/bash
# Make this x86_64 machine able to run arm64 Valgrind under qemu-user:
#
#   1. binfmt_misc runs arm64 ELF files through qemu-aarch64-static (the
#      valgrind launcher execs the tool binary, so a plain 'qemu-aarch64
#      valgrind' is not enough);
#   2. an arm64 sysroot under build/arm64/sysroot, made from Debian's
#      libc6:arm64 and libc6-dbg:arm64 (the cross libc in
#      /usr/aarch64-linux-gnu is stripped: memcheck then cannot find its
#      must-redirect strlen in ld.so, and callgrind shows raw addresses),
#      and python3.11:arm64 for the e2e suite.
#
#   scripts/arm64-setup.sh          set up (root needed the first time)
#   scripts/arm64-setup.sh --env    print the environment for test runs
#
# The sysroot is cached; delete build/arm64/sysroot to remake it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SYSROOT=${SYSROOT:-$BUILD/arm64/sysroot}
# python3.11 and its minimal library: the e2e python fixture on arm64.
SYSROOT_PKGS="libc6 libc6-dbg libgcc-s1 libstdc++6 python3.11-minimal libpython3.11-minimal
              libexpat1 zlib1g"
# -cpu max reports 32-byte cache lines, and none/tests/arm64/dc_cvax then
# trips an assertion in vgPlain_flush_dcache: use a real core's model.
QEMU_CPU_MODEL=${QEMU_CPU_MODEL:-neoverse-n1}

print_env() {
   printf 'export QEMU_LD_PREFIX=%s\n' "$SYSROOT"
   printf 'export QEMU_CPU=%s\n' "$QEMU_CPU_MODEL"
}

need_root() {
   [ "$(id -u)" = 0 ] && return 0
   die "$1 needs root; run: sudo $0"
}

setup_binfmt() {
   [ -x /usr/bin/qemu-aarch64-static ] || die "qemu-user-static is not installed (make deps-arm64)"
   if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
      need_root "mounting binfmt_misc"
      mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
   fi
   if ! grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
      need_root "registering qemu-aarch64 with binfmt_misc"
      update-binfmts --enable qemu-aarch64 >&2 || update-binfmts --import qemu-aarch64 >&2
   fi
   grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
      die "qemu-aarch64 is not registered with binfmt_misc"
}

setup_sysroot() {
   # .complete holds the package list the sysroot was made from: a new
   # list remakes it.
   [ -f "$SYSROOT/.complete" ] && [ "$(cat "$SYSROOT/.complete")" = "$(echo $SYSROOT_PKGS)" ] && return 0
   need_root "downloading the arm64 libraries (dpkg --add-architecture arm64)"
   dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
   apt-get update -qq >&2
   local dl=$BUILD/arm64/debs p
   rm -rf "$dl" "$SYSROOT"; mkdir -p "$dl" "$SYSROOT"
   # shellcheck disable=SC2046
   (cd "$dl" && apt-get download -qq $(printf '%s:arm64 ' $SYSROOT_PKGS) >&2) ||
      die "apt-get download of the arm64 libraries failed"
   for p in "$dl"/*.deb; do dpkg -x "$p" "$SYSROOT"; done
   # Debian's arm64 libraries are found through these usrmerge links.
   [ -e "$SYSROOT/lib" ] || ln -s usr/lib "$SYSROOT/lib"
   echo $SYSROOT_PKGS > "$SYSROOT/.complete"
}

case ${1:-} in
   --env) print_env ;;
   '')    setup_binfmt; setup_sysroot; say "arm64 ready: $(print_env | tr '\n' ' ')" ;;
   *)     die "usage: $0 [--env]" ;;
esac
