#!/bin/bash
# Build the Capstone that callgrind's --cycle-estimation links, from
# Debian's capstone source package (upstream/capstone.pin), for a Valgrind
# tool: static, no stack protector, no _FORTIFY_SOURCE, only the x86 and
# AArch64 back ends, memory functions supplied at run time
# (cs_option(CS_OPT_MEM)), and the few C library functions it still calls
# renamed to vgcapstone_<name>, which callgrind implements on Valgrind's
# own (callgrind/cycles.c).
#
#   HOST=aarch64-linux-gnu scripts/build-capstone.sh
#
# Prints the directory to pass to configure --with-capstone= (it holds
# include/capstone/*.h and lib/libcapstone-vg.a).  Exit 0 built (or up to
# date), 3 the source is not available (not cached and no deb-src suite
# carries the pinned tarball), 1 another error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
PIN_FILE=$TOP/upstream/capstone.pin load_pin

HOST=${HOST:-}
CC=${HOST:+$HOST-}gcc
AR=${HOST:+$HOST-}ar
OBJCOPY=${HOST:+$HOST-}objcopy
NM=${HOST:+$HOST-}nm
arch=${HOST%%-*}; arch=${arch:-$(uname -m)}
OUT=$BUILD/capstone/$arch
SRCDIR=$BUILD/capstone/src-$CS_VERSION
tarball=$CACHE/$CS_TARBALL

# The C library functions Capstone calls that a tool has not got.
# memcpy, memmove and memset stay: coregrind supplies them to every tool.
RENAMED="printf fprintf stderr strcat strcmp strcpy strlen strncpy __assert_fail"
CFILES="cs.c MCInst.c MCInstrDesc.c MCRegisterInfo.c SStream.c utils.c Mapping.c
        arch/X86/X86Disassembler.c arch/X86/X86DisassemblerDecoder.c
        arch/X86/X86IntelInstPrinter.c arch/X86/X86InstPrinterCommon.c
        arch/X86/X86Mapping.c arch/X86/X86Module.c
        arch/AArch64/AArch64BaseInfo.c arch/AArch64/AArch64Disassembler.c
        arch/AArch64/AArch64InstPrinter.c arch/AArch64/AArch64Mapping.c
        arch/AArch64/AArch64Module.c"

fetch() {
   [ -f "$tarball" ] && [ "$(sha256_of "$tarball")" = "$CS_SHA256" ] && return 0
   command -v apt-get >/dev/null || return 3
   local ver dl
   # The deb-src suites are those scripts/fetch-upstream.sh configured.
   ver=$(apt-cache showsrc "$CS_DEB_SOURCE" 2>/dev/null | awk -v sha="$CS_SHA256" -v name="$CS_TARBALL" '
      /^Package:/       { ver = ""; insha = 0 }
      /^Version:/       { ver = $2 }
      /^[A-Za-z0-9-]+:/ { insha = ($1 == "Checksums-Sha256:"); next }
      insha && $1 == sha && $3 == name && ver != "" { print ver; exit }')
   [ -n "$ver" ] || { say "no deb-src suite carries $CS_TARBALL (sha256 $CS_SHA256)"; return 3; }
   dl=$CACHE/cs-dl.$$
   rm -rf "$dl"; mkdir -p "$dl"
   say "apt-get source --download-only $CS_DEB_SOURCE=$ver"
   (cd "$dl" && apt-get source -qq --download-only "$CS_DEB_SOURCE=$ver" >&2) ||
      { rm -rf "$dl"; say "apt-get source $CS_DEB_SOURCE=$ver failed"; return 3; }
   [ "$(sha256_of "$dl/$CS_TARBALL")" = "$CS_SHA256" ] ||
      { rm -rf "$dl"; die "checksum mismatch for $CS_TARBALL"; }
   mv -f "$dl/$CS_TARBALL" "$tarball"
   rm -rf "$dl"
}

# What decides the library's content: the tarball, this script, the compiler.
digest() {
   { printf '%s\n' "$CS_SHA256"; cat "$0"; "$CC" --version | head -n1; } | sha256sum | cut -d' ' -f1
}

build() {
   local flags obj f o undef
   [ -d "$SRCDIR" ] || {
      mkdir -p "$SRCDIR.tmp"
      tar -xzf "$tarball" -C "$SRCDIR.tmp" --strip-components=1
      mv "$SRCDIR.tmp" "$SRCDIR"
   }
   flags="-O2 -g0 -fno-stack-protector -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0
          -fno-builtin -fno-strict-aliasing
          -DCAPSTONE_HAS_X86 -DCAPSTONE_HAS_ARM64 -DCAPSTONE_X86_ATT_DISABLE
          -I$SRCDIR/include -I$SRCDIR"
   # As Valgrind does: calls to libgcc's atomics helpers cannot be linked.
   echo 'int x;' | "$CC" -mno-outline-atomics -x c -c -o /dev/null - 2>/dev/null &&
      flags="$flags -mno-outline-atomics"
   obj=$OUT/obj
   rm -rf "$OUT"; mkdir -p "$obj" "$OUT/lib" "$OUT/include"
   for f in $CFILES; do printf '%s\n' "$f"; done |
      xargs -P "${JOBS:-2}" -I{} sh -c \
         'o=$(echo {} | tr / _); exec '"$CC"' '"$(echo $flags)"' -c '"$SRCDIR"'/{} -o '"$obj"'/${o%.c}.o'
   "$AR" rcs "$OUT/lib/libcapstone-vg.a" "$obj"/*.o
   for f in $RENAMED; do printf '%s vgcapstone_%s\n' "$f" "$f"; done > "$obj/renames"
   "$OBJCOPY" --redefine-syms="$obj/renames" "$OUT/lib/libcapstone-vg.a"
   # Anything else it needs from outside would fail the tool's link.
   undef=$("$NM" "$OUT/lib/libcapstone-vg.a" | awk '
      $1 == "U" { u[$2] = 1 } NF == 3 && $2 ~ /[TDBRCVW]/ { d[$3] = 1 }
      END { for (s in u) if (!(s in d)) print s }' |
      grep -vE '^(vgcapstone_.*|memcpy|memmove|memset|_GLOBAL_OFFSET_TABLE_)$' || true)
   [ -z "$undef" ] || die "Capstone calls what a tool cannot link: $(echo $undef)"
   cp -r "$SRCDIR/include/capstone" "$OUT/include/"
   rm -rf "$obj"
}

main() {
   local want
   mkdir -p "$CACHE"
   fetch || exit $?
   want=$(digest)
   if [ "$(cat "$OUT/.built" 2>/dev/null || true)" != "$want" ]; then
      say "building Capstone $CS_VERSION for Valgrind ($arch) in ${OUT#"$TOP"/}"
      build
      printf '%s\n' "$want" > "$OUT/.built"
   fi
   printf '%s\n' "$OUT"
}

main "$@"
