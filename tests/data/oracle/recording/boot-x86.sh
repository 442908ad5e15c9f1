#!/bin/sh

# Boots the Debian 6.1 kernel on a QEMU x86 machine of any shape and records its baseline
# domains (partitions-init.sh with "baselineonly"). $1: where the serial log goes, $2: the QEMU
# CPU model, $3: the -m/-smp/-numa arguments, $4: more kernel parameters. Run from a folder holding
# the kernel package unpacked in root/ and initrd.gz, as for boot-x86-2s4n4c2t.sh. KERNEL: another
# kernel image than the 6.1 one; QEMU_ACCEL=tcg,thread=single for 6.12, whose static-key
# patching oopses (int3) under multi-threaded TCG.
# shellcheck disable=SC2086 # $3 is a list of arguments
exec timeout 600 qemu-system-x86_64 ${QEMU_ACCEL:+-accel "$QEMU_ACCEL"} -cpu "$2" $3 \
 -kernel "${KERNEL:-root/boot/vmlinuz-6.1.0-57-amd64}" -initrd "${INITRD:-initrd.gz}" \
 -append "console=ttyS0 sched_verbose ignore_loglevel panic=-1 baselineonly $4" -nographic -no-reboot > "$1" 2>&1
