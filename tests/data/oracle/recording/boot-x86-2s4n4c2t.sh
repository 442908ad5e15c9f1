#!/bin/sh

# $1: where the serial log goes, $2: more kernel parameters (isolcpus=...); run from a folder
# holding the Debian kernel package unpacked in root/ and initrd.gz (busybox-static plus
# guest-sysfs.sh and partitions-init.sh as /init); KERNEL: another kernel image than the 6.1 one, QEMU_ACCEL=tcg,thread=single
# for 6.12 (its static-key patching oopses under multi-threaded TCG), INITRD: another initramfs
# (trace-init.sh as /init records a trace instead)
exec timeout 600 qemu-system-x86_64 ${QEMU_ACCEL:+-accel "$QEMU_ACCEL"} -cpu Skylake-Client-v1 -m 2048 -smp 16,sockets=2,cores=4,threads=2 \
 -object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M \
 -object memory-backend-ram,id=m2,size=512M -object memory-backend-ram,id=m3,size=512M \
 -numa node,nodeid=0,cpus=0-3,memdev=m0 -numa node,nodeid=1,cpus=4-7,memdev=m1 \
 -numa node,nodeid=2,cpus=8-11,memdev=m2 -numa node,nodeid=3,cpus=12-15,memdev=m3 \
 -numa dist,src=0,dst=1,val=12 -numa dist,src=0,dst=2,val=20 -numa dist,src=0,dst=3,val=20 \
 -numa dist,src=1,dst=2,val=20 -numa dist,src=1,dst=3,val=20 -numa dist,src=2,dst=3,val=12 \
 -kernel "${KERNEL:-root/boot/vmlinuz-6.1.0-57-amd64}" -initrd "${INITRD:-initrd.gz}" \
 -append "console=ttyS0 sched_verbose ignore_loglevel panic=-1 $2" -nographic -no-reboot > $1 2>&1
