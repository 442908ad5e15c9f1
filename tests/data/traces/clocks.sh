#!/bin/bash
# Records clock-x86-tsc.dat, clock-counter.dat, clock-uptime.dat and clock-boot.dat (see README.md); run as root: unshare -m bash clocks.sh
set -e
mount --bind /dev/null /proc/kallsyms
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
export LD_PRELOAD=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
for clock in ${CLOCKS:-x86-tsc counter uptime boot}; do
    trace-cmd record -d -q -C $clock -o clock-$clock.dat -e sched_switch -e sched_wakeup -e sched_migrate_task \
        -- perf bench sched pipe -l 200 >/dev/null 2>&1
done
