#!/bin/sh

# Boots a Debian arm64 kernel on QEMU's virt machine (device tree: the cpu-map gives sockets,
# clusters, cores and threads, no caches) and records its baseline domains
# (partitions-init.sh with "baselineonly"). $1: where the serial log goes, $2: the kernel image,
# $3: the -smp/-numa arguments, $4: more kernel parameters. Run from a folder holding
# initrd.gz: busybox-static (arm64), guest-sysfs.sh, and partitions-init.sh as /init.
# shellcheck disable=SC2086 # $3 is a list of arguments
exec timeout 900 qemu-system-aarch64 -M virt,gic-version=3 -cpu cortex-a72 -m 2048 $3 \
 -kernel "$2" -initrd initrd.gz \
 -append "console=ttyAMA0 sched_verbose ignore_loglevel panic=-1 baselineonly $4" -nographic -no-reboot > "$1" 2>&1
