#!/bin/sh

# $1: where the serial log goes; run from a folder holding the Debian kernel package unpacked in
# root/ and initrd.gz (make-trace-initrd.sh builds it: busybox-static, guest-sysfs.sh, trace-cmd,
# perf, pingpong and the libraries ldd lists for trace-cmd and perf, with trace-wakeups-init.sh as
# /init; decode-serial-log.sh takes the traces out of the log): one socket of 4 cores,
# 1 thread each, one NUMA node, 1 GB. TCG by default: the recording host's /dev/kvm was kvm_pvm,
# which hangs the stock Debian kernel right after decompression; QEMU_ACCEL=kvm QEMU_CPU=host on
# a host with hardware KVM. KERNEL: another kernel image than the 6.1 one, INITRD: another initramfs
exec timeout 600 qemu-system-x86_64 -accel "${QEMU_ACCEL:-tcg}" -cpu "${QEMU_CPU:-Skylake-Client-v1}" -m 1024 \
 -smp 4,sockets=1,cores=4,threads=1 \
 -kernel "${KERNEL:-root/boot/vmlinuz-6.1.0-57-amd64}" -initrd "${INITRD:-initrd.gz}" \
 -append "console=ttyS0 panic=-1 quiet" -nographic -no-reboot > $1 2>&1
