#!/bin/bash
# Run the arm64 regtest inside a real arm64 Linux: qemu-system-aarch64 with
# Debian's arm64 kernel and an initramfs made from Debian's arm64 packages.
# The build folder is shared into the VM by 9p at the same absolute path,
# because the trees and install trees have their paths baked in.
#
#   scripts/arm64-vm.sh prepare            kernel + initramfs, cached under
#                                          build/arm64/vm (root the first time)
#   scripts/arm64-vm.sh run [options] DIR|TEST...
#        --tree DIR     tree to test (default build/arm64/tree; it must be
#                       under $BUILD, e.g. build/upstream/arm64/tree)
#        --known FILE   known-failures list (default tests/known-failures/arm64-vm.txt;
#                       '' for none)
#        TIMEOUT=600    per-test timeout inside the VM (as scripts/regtest.sh)
#        VM_TIMEOUT=3600  the whole VM: boot, run, poweroff
#   scripts/arm64-vm.sh shell              boot to an interactive busybox shell
#
# Inside the VM, /init mounts the share and runs scripts/regtest.sh (copied
# onto the share for the run), so the result is the same 'N passed, N
# failed, N skipped' line with the same known-failures rules.  A VM that
# does not finish (outer timeout, kernel panic, no result file) is a
# failure, never a pass, and its console log is kept in
# build/arm64/vm/run/console.log.
#
# The downloads are remade when the package lists here change, the
# initramfs when they, /init, the modules or the sysroot's package list
# change (build/arm64/vm/initrd.key); delete build/arm64/vm to remake all.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

VM=${VM:-$BUILD/arm64/vm}
SYSROOT=${SYSROOT:-$BUILD/arm64/sysroot}
RUN=$VM/run
VM_CPU=${VM_CPU:-cortex-a72}
VM_SMP=${VM_SMP:-2}
VM_MEM=${VM_MEM:-2048}
VM_TIMEOUT=${VM_TIMEOUT:-3600}
TIMEOUT=${TIMEOUT:-600}

# What vg_regtest, the filters and the post checks use inside the VM:
# perl, python3 (cg_annotate), GNU shell tools, and binutils (the
# nixdebug tests run readelf and objcopy).  The libc comes from the
# sysroot that scripts/cross-setup.sh arm64 made (libc6 and libc6-dbg).
ROOT_PKGS="busybox-static bash dash coreutils sed grep diffutils gawk findutils
           perl-base libperl5.36 libcrypt1 libgdbm6 libgdbm-compat4 libdb5.3
           python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
           libexpat1 zlib1g libffi8 libbz2-1.0 liblzma5 libssl3 libsqlite3-0 libuuid1
           libncursesw6 libtinfo6 libreadline8 libacl1 libattr1 libgmp10 libmpfr6
           libsigsegv2 libselinux1 libpcre2-8-0 libzstd1
           binutils binutils-aarch64-linux-gnu binutils-common libbinutils libctf0
           libctf-nobfd0 libgprofng0 libjansson4"
# Architecture: all.
ROOT_PKGS_ALL="perl-modules-5.36"
# The lists as one line, as the downloads' .complete records them.
root_pkgs() { echo $ROOT_PKGS $ROOT_PKGS_ALL; }
# The kernel modules /init loads, in this order after their dependencies.
VM_MODULES="virtio_pci 9pnet_virtio 9p"

need_root() {
   [ "$(id -u)" = 0 ] && return 0
   die "$1 needs root; run: sudo $0 prepare"
}

# Download the kernel and the root packages once; .complete holds the
# package lists they were downloaded for.
fetch_debs() {
   local dl=$VM/debs
   [ -f "$dl/.complete" ] && [ "$(cat "$dl/.complete")" = "$(root_pkgs)" ] &&
      return 0
   need_root "downloading arm64 packages (dpkg --add-architecture arm64)"
   dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
   apt-get update -qq >&2 || die "apt-get update failed"
   local kpkg
   # linux-image-arm64 depends on the current ABI's image, 6.1.0-N-arm64.
   kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
          sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-arm64\).*/\1/p' | head -n1)
   [ -n "$kpkg" ] || die "no linux-image-6.1.0-*-arm64 package found (apt-get update?)"
   rm -rf "$dl"; mkdir -p "$dl/kernel" "$dl/root"
   (cd "$dl/kernel" && apt-get download -qq "$kpkg:arm64" >&2) ||
      die "apt-get download $kpkg:arm64 failed"
   # shellcheck disable=SC2046
   (cd "$dl/root" && apt-get download -qq $(printf '%s:arm64 ' $ROOT_PKGS) $ROOT_PKGS_ALL >&2) ||
      die "apt-get download of the VM's root packages failed"
   root_pkgs > "$dl/.complete"
}

# The .ko files for the modules named, dependencies first, one a line.
module_order() {
   local moddir=$1; shift
   local -A seen=()
   visit() {
      local m=$1 f dep
      [ -n "${seen[$m]:-}" ] && return 0
      seen[$m]=1
      f=$(find "$moddir/kernel" -name "$m.ko" | head -n1)
      [ -n "$f" ] || { f=$(find "$moddir/kernel" -name "${m//_/-}.ko" | head -n1); }
      if [ -z "$f" ]; then
         # Built in, or the module does not exist.
         grep -q "/$m.ko\$" "$moddir/modules.builtin" 2>/dev/null ||
            die "kernel module $m not found"
         return 0
      fi
      for dep in $(tr '\0' '\n' < "$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
         visit "$dep"
      done
      printf '%s\n' "${f#"$moddir"/}"
   }
   local m
   for m in "$@"; do visit "$m"; done
}

init_text() {
   cat <<'EOF'
#!/bin/busybox sh
# /init of the arm64 test VM (made by scripts/arm64-vm.sh).
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mkdir -p /dev/pts /dev/shm
/bin/busybox mount -t devpts devpts /dev/pts
/bin/busybox mount -t tmpfs tmpfs /dev/shm
/bin/busybox mount -t tmpfs tmpfs /tmp
/bin/busybox mount -t tmpfs tmpfs /run
/bin/busybox ln -sfn /proc/self/fd /dev/fd
/bin/busybox ln -sfn /proc/self/fd/0 /dev/stdin
/bin/busybox ln -sfn /proc/self/fd/1 /dev/stdout
/bin/busybox ln -sfn /proc/self/fd/2 /dev/stderr
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C TERM=dumb
kver=$(uname -r)
while read -r ko; do
   insmod "/lib/modules/$kver/$ko" || echo "vgvm: insmod $ko failed"
done < /etc/vgvm-modules
build=
for a in $(cat /proc/cmdline); do
   case $a in vgvm.build=*) build=${a#vgvm.build=} ;; esac
done
hostname arm64-vm
if [ -n "$build" ]; then
   mkdir -p "$build"
   if mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288,cache=loose build "$build"; then
      echo "vgvm: $build mounted"
   else
      echo "vgvm: mounting the 9p share on $build failed"
   fi
fi
job=$build/arm64/vm/run/job.sh
if [ -n "$build" ] && [ -f "$job" ] && ! grep -qw vgvm.shell /proc/cmdline; then
   cd /
   bash "$job"
   echo $? > "$build/arm64/vm/run/rc.tmp" && mv "$build/arm64/vm/run/rc.tmp" "$build/arm64/vm/run/rc"
   sync
else
   echo "vgvm: interactive shell; 'poweroff -f' to stop"
   setsid cttyhack sh -l
fi
poweroff -f
EOF
}

write_init() {
   init_text > "$1" && chmod +x "$1"
}

# What the initramfs is made of, as one hash: the package lists, the
# kernel package, the modules, /init and the sysroot's package list.
root_key() {
   { root_pkgs; ls "$VM/debs/kernel"; echo $VM_MODULES
     init_text; cat "$SYSROOT/.complete"; } | sha256sum | cut -d' ' -f1
}

make_root() {
   local initrd=$VM/initrd.cpio.gz key
   [ -f "$SYSROOT/.complete" ] || die "no arm64 sysroot in $SYSROOT: run scripts/cross-setup.sh arm64"
   key=$(root_key)
   [ -f "$initrd" ] && [ -f "$VM/vmlinuz" ] && [ "$(cat "$VM/initrd.key" 2>/dev/null)" = "$key" ] &&
      return 0
   local kdir=$VM/kernel-x root=$VM/rootfs p kver ko
   rm -rf "$kdir" "$root"; mkdir -p "$kdir" "$root"
   dpkg -x "$VM"/debs/kernel/*.deb "$kdir" || die "dpkg -x of the kernel failed"
   kver=$(ls "$kdir/lib/modules")
   [ -n "$kver" ] || die "no modules in the kernel package"
   for p in "$VM"/debs/root/*.deb; do
      dpkg -x "$p" "$root" || die "dpkg -x $p failed"
   done
   # Merged /usr, as usrmerge makes it on an installed system (dpkg -x
   # replaces a /bin link with the package's directory).
   local d
   for d in bin sbin lib; do
      mkdir -p "$root/usr/$d"
      if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
         cp -a "$root/$d/." "$root/usr/$d/" && rm -rf "${root:?}/$d"
      fi
      ln -sfn "usr/$d" "$root/$d"
   done
   for d in usr lib; do
      [ -d "$SYSROOT/$d" ] && [ ! -L "$SYSROOT/$d" ] || continue
      if [ $d = usr ]; then cp -a "$SYSROOT/usr/." "$root/usr/"; else cp -a "$SYSROOT/$d/." "$root/usr/$d/"; fi
   done
   # /bin/sh is dash, as on a Debian arm64 machine; busybox supplies the
   # rest (mount, insmod, poweroff, ...) where no GNU tool is there.
   ln -sf dash "$root/usr/bin/sh"
   ln -sf gawk "$root/usr/bin/awk"
   ln -sf python3.11 "$root/usr/bin/python3"
   local app
   for app in $(qemu_busybox_list "$root"); do
      [ -e "$root/usr/bin/$app" ] || [ -e "$root/usr/sbin/$app" ] || ln -s busybox "$root/usr/bin/$app"
   done
   module_order "$kdir/lib/modules/$kver" $VM_MODULES > "$root/etc/vgvm-modules" || exit 1
   while read -r ko; do
      mkdir -p "$root/lib/modules/$kver/$(dirname "$ko")"
      cp "$kdir/lib/modules/$kver/$ko" "$root/lib/modules/$kver/$ko"
   done < "$root/etc/vgvm-modules"
   mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" "$root/root" "$root/etc"
   chmod 1777 "$root/tmp"
   printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
   printf 'root:x:0:\n' > "$root/etc/group"
   write_init "$root/init"
   # Nothing the tests read: documentation, manuals, locales.
   rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/info" \
          "$root/usr/share/locale" "$root/usr/lib/debug/.dwz"
   cp "$kdir/boot/vmlinuz-$kver" "$VM/vmlinuz.tmp" && mv "$VM/vmlinuz.tmp" "$VM/vmlinuz"
   (cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$VM/initrd.tmp" ||
      die "making the initramfs failed"
   mv "$VM/initrd.tmp" "$initrd"
   echo "$key" > "$VM/initrd.key"
   rm -rf "$kdir"
   say "VM ready: kernel $kver, initramfs $(du -h "$initrd" | cut -f1)"
}

# The applets of the arm64 busybox, listed by running it under qemu-user
# when binfmt is there, else a fixed set /init needs.
qemu_busybox_list() {
   local bb=$1/usr/bin/busybox
   if [ -x /usr/bin/qemu-aarch64-static ]; then
      /usr/bin/qemu-aarch64-static "$bb" --list 2>/dev/null && return 0
   fi
   printf '%s\n' mount umount insmod mkdir poweroff hostname setsid cttyhack sh mv cat sync
}

prepare() {
   mkdir -p "$VM"
   fetch_debs
   make_root
}

# boot CMDLINE-EXTRA: run the VM once, bounded by VM_TIMEOUT.
boot() {
   local extra=$1 console=$RUN/console.log
   command -v qemu-system-aarch64 >/dev/null || die "qemu-system-aarch64 is missing (make deps-arm64)"
   timeout -s KILL "$VM_TIMEOUT" qemu-system-aarch64 -M virt -cpu "$VM_CPU" -smp "$VM_SMP" -m "$VM_MEM" \
      -nographic -no-reboot -nic none -monitor none -serial stdio \
      -kernel "$VM/vmlinuz" -initrd "$VM/initrd.cpio.gz" \
      -append "console=ttyAMA0 rdinit=/init panic=-1 quiet loglevel=3 vgvm.build=$BUILD $extra" \
      -fsdev local,id=build,path="$BUILD",security_model=none \
      -device virtio-9p-pci,fsdev=build,mount_tag=build \
      < /dev/null > "$console" 2>&1
}

run() {
   local tree=$BUILD/arm64/tree known=$TOP/tests/known-failures/arm64-vm.txt
   while [ $# -gt 0 ]; do
      case $1 in
         --tree)  tree=$2; shift 2 ;;
         --known) known=$2; shift 2 ;;
         --)      shift; break ;;
         -*)      die "unknown option $1" ;;
         *)       break ;;
      esac
   done
   [ $# -gt 0 ] || die "usage: $0 run [--tree DIR] [--known FILE] DIR|TEST..."
   tree=$(cd "$tree" && pwd) || die "no tree $tree"
   case $tree/ in "$BUILD"/*) ;; *) die "the tree must be under $BUILD (the 9p share)" ;; esac
   [ -x "$tree/tests/vg_regtest" ] || die "$tree is not a built tree"
   [ -f "$VM/initrd.cpio.gz" ] || die "the VM is not prepared: make arm64-vm"
   rm -rf "$RUN"; mkdir -p "$RUN/scripts"
   cp "$TOP/scripts/regtest.sh" "$TOP/scripts/lib.sh" "$RUN/scripts/"
   local kn=
   if [ -n "$known" ]; then cp "$known" "$RUN/known.txt" || exit 1; kn=$RUN/known.txt; fi
   {
      printf '# the job /init runs inside the VM\n'
      printf 'cd %q || exit 1\n' "$tree"
      printf 'TOP=%q BUILD=%q TREE=%q KNOWN=%q TIMEOUT=%q bash %q' \
         "$RUN" "$BUILD" "$tree" "$kn" "$TIMEOUT" "$RUN/scripts/regtest.sh"
      printf ' %q' "$@"
      printf ' > %q 2>&1\n' "$RUN/result"
   } > "$RUN/job.sh"
   say "booting the arm64 VM for ${tree#"$BUILD"/}: $* (console: $RUN/console.log)"
   local start=$SECONDS qrc rc
   boot ""
   qrc=$?
   say "VM ran $((SECONDS - start)) s"
   [ -f "$RUN/result" ] && sed "s|^regtest.sh: |arm64-vm: |" "$RUN/result" | grep -v '^regtest: .* passed, ' >&2
   if [ ! -f "$RUN/rc" ]; then
      if [ $qrc = 137 ]; then
         say "FAILED: the VM did not finish within VM_TIMEOUT=${VM_TIMEOUT}s and was killed"
      else
         say "FAILED: the VM stopped (qemu exit $qrc) without a result"
      fi
      tail -n 30 "$RUN/console.log" >&2
      say "console log kept in $RUN/console.log"
      echo "arm64-vm: 0 passed, 1 failed"
      return 1
   fi
   rc=$(cat "$RUN/rc")
   sed -n 's/^regtest: \(.* known failure.*\)/arm64-vm: \1/p; s/^regtest: \(.* passed, .*\)/arm64-vm: \1/p' "$RUN/result"
   [ "$rc" = 0 ] || say "console log kept in $RUN/console.log; regtest log in $tree/regtest.log"
   return "$rc"
}

case ${1:-} in
   prepare) prepare ;;
   run)     shift; run "$@" ;;
   shell)   [ -f "$VM/initrd.cpio.gz" ] || die "the VM is not prepared: make arm64-vm"
            mkdir -p "$RUN"
            qemu-system-aarch64 -M virt -cpu "$VM_CPU" -smp "$VM_SMP" -m "$VM_MEM" -nographic -no-reboot -nic none \
               -kernel "$VM/vmlinuz" -initrd "$VM/initrd.cpio.gz" \
               -append "console=ttyAMA0 rdinit=/init panic=-1 quiet vgvm.build=$BUILD vgvm.shell" \
               -fsdev local,id=build,path="$BUILD",security_model=none \
               -device virtio-9p-pci,fsdev=build,mount_tag=build ;;
   *)       die "usage: $0 prepare | run [--tree DIR] [--known FILE] DIR|TEST... | shell" ;;
esac
