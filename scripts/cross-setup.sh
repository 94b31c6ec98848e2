#!/bin/bash
# Make this x86_64 machine able to run a cross-built Valgrind under
# qemu-user, for an architecture of scripts/cross-arches (arm64, riscv64,
# s390x...):
#
#   1. binfmt_misc runs the architecture's ELF files through
#      qemu-<qemu>-static (the valgrind launcher execs the tool binary, so
#      a plain 'qemu-<qemu> valgrind' is not enough);
#   2. a sysroot under build/<arch>/sysroot, made from Debian's
#      libc6:<debarch> and libc6-dbg:<debarch> of the table's suite (the cross
#      libc in /usr/<triplet> is stripped: ld.so's _dl_runtime_resolve
#      has no name there, so Callgrind loses the first lazy PLT call of
#      each function, memcheck cannot find its must-redirect strlen in
#      ld.so, and callgrind shows raw addresses), with libgcc, libstdc++
#      and the table's python for the e2e suite.
#
#   scripts/cross-setup.sh ARCH          set up (root needed the first time)
#   scripts/cross-setup.sh ARCH --env    print the environment for test runs
#
# The packages are downloaded with apt-get under a private state in
# build/<arch>/apt (the sources of the machine's own Debian archive, for
# the suite and the architecture of the table), so the machine's apt
# sources and architectures are left as they are.  The sysroot is
# cached; delete build/<arch>/sysroot to remake it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=${1:-}
[ -n "$ARCH" ] || die "usage: $0 ARCH [--env]"
load_cross_arch "$ARCH"
SYSROOT=${SYSROOT:-$BUILD/$ARCH/sysroot}
SYSROOT_PKGS="libc6 libc6-dbg libgcc-s1 libstdc++6 $CROSS_PYTHON-minimal lib$CROSS_PYTHON-minimal
              libexpat1 zlib1g"
QEMU_CPU_MODEL=${QEMU_CPU_MODEL:-$CROSS_CPU}
BINFMT=qemu-$CROSS_QEMU

print_env() {
   printf 'export QEMU_LD_PREFIX=%s\n' "$SYSROOT"
   printf 'export QEMU_CPU=%s\n' "$QEMU_CPU_MODEL"
}

need_root() {
   [ "$(id -u)" = 0 ] && return 0
   die "$1 needs root; run: sudo $0 $ARCH"
}

setup_binfmt() {
   [ -x "/usr/bin/$BINFMT-static" ] || die "qemu-user-static is not installed (make deps-$ARCH)"
   if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
      need_root "mounting binfmt_misc"
      mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
   fi
   if ! grep -qx enabled "/proc/sys/fs/binfmt_misc/$BINFMT" 2>/dev/null; then
      need_root "registering $BINFMT with binfmt_misc"
      update-binfmts --enable "$BINFMT" >&2 || update-binfmts --import "$BINFMT" >&2
   fi
   grep -qx enabled "/proc/sys/fs/binfmt_misc/$BINFMT" ||
      die "$BINFMT is not registered with binfmt_misc"
}

# apt-get for the table's suite and architecture only, with its own
# lists and cache in build/<arch>/apt.
cross_apt() {
   local d=$BUILD/$ARCH/apt
   apt-get -qq -o APT::Sandbox::User=root -o Dir::State="$d/state" -o Dir::State::status="$d/state/status" \
      -o Dir::Cache="$d/cache" -o Dir::Etc::SourceList="$d/sources.list" \
      -o Dir::Etc::SourceParts=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
      -o APT::Architecture="$CROSS_DEBARCH" -o APT::Architectures="$CROSS_DEBARCH" "$@"
}

write_cross_sources() {
   local d=$BUILD/$ARCH/apt uri key suite
   read -r uri key < <(system_archive) || true
   [ -n "${uri:-}" ] || die "no Debian archive among the machine's apt sources"
   mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial"
   : > "$d/state/status"
   for suite in "$CROSS_SUITE" "$CROSS_SUITE-updates"; do
      printf 'deb [arch=%s%s] %s %s main\n' "$CROSS_DEBARCH" "${key:+ signed-by=$key}" "$uri" "$suite"
   done > "$d/sources.list"
}

setup_sysroot() {
   # .complete holds the suite and package list the sysroot was made
   # from: a new list remakes it.
   local want
   want=$(echo "$CROSS_SUITE:" $SYSROOT_PKGS)
   [ -f "$SYSROOT/.complete" ] && [ "$(cat "$SYSROOT/.complete")" = "$want" ] && return 0
   need_root "downloading the $ARCH libraries"
   write_cross_sources
   cross_apt update >&2 || die "apt-get update of the $CROSS_SUITE $ARCH lists failed"
   local dl=$BUILD/$ARCH/debs p
   rm -rf "$dl" "$SYSROOT"; mkdir -p "$dl" "$SYSROOT"
   # shellcheck disable=SC2086
   (cd "$dl" && cross_apt download $SYSROOT_PKGS >&2) ||
      die "apt-get download of the $ARCH libraries failed"
   for p in "$dl"/*.deb; do dpkg -x "$p" "$SYSROOT"; done
   # Debian's libraries are found through these usrmerge links.
   [ -e "$SYSROOT/lib" ] || ln -s usr/lib "$SYSROOT/lib"
   # An absolute link would lead out of the sysroot into the host's
   # files (ppc64el's program interpreter /lib64/ld64.so.2 links to
   # /lib/powerpc64le-linux-gnu/ld64.so.2): point it inside instead.
   local l
   find "$SYSROOT" -type l -lname '/*' | while read -r l; do
      ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$SYSROOT$(readlink "$l")")" "$l"
   done
   echo "$want" > "$SYSROOT/.complete"
}

case ${2:-} in
   --env) print_env ;;
   '')    setup_binfmt; setup_sysroot; say "$ARCH ready: $(print_env | tr '\n' ' ')" ;;
   *)     die "usage: $0 ARCH [--env]" ;;
esac
