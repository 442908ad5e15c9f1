#!/bin/sh
# Builds the initramfs of trace-wakeups-init.sh (or another /init given as $3) for
# boot-x86-4c.sh: busybox-static, guest-sysfs.sh, this host's trace-cmd and perf with every
# library ldd lists for them, and pingpong.c built static. Run from an empty folder on a Debian 12
# host with trace-cmd, linux-perf and gcc installed:
#   make-trace-initrd.sh OUT.gz [PINGPONG.C] [INIT]
# (the busybox-static package is downloaded with apt-get; no cpio is needed, busybox's is used)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
pingpong_c=${2:-$here/../../traces/replay/pingpong.c}
init=${3:-$here/trace-wakeups-init.sh}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download busybox-static >/dev/null && dpkg-deb -x busybox-static_*.deb bb)
ir=$work/ir
mkdir -p "$ir/bin" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/tmp"
cp "$work/bb/bin/busybox" "$ir/bin/busybox"
cp "$init" "$ir/init" && chmod +x "$ir/init"
cp "$here/guest-sysfs.sh" "$ir/guest-sysfs.sh"
gcc -static -O2 -o "$ir/pingpong" "$pingpong_c"
# the tools and the libraries they load, at the paths ldd names (the ELF interpreter too)
for tool in $(command -v trace-cmd) $(command -v perf); do
  mkdir -p "$ir$(dirname "$tool")"
  cp "$tool" "$ir$tool"
  ldd "$tool" | awk '/=> \//{print $3} /^\t\//{print $1}' | while read -r lib; do
    mkdir -p "$ir$(dirname "$lib")"
    cp -L "$lib" "$ir$lib"
  done
done
(cd "$ir" && find . | "$work/bb/bin/busybox" cpio -o -H newc 2>/dev/null | gzip -1) > "$out"
echo "initramfs $out: $(du -h "$out" | cut -f1)"
