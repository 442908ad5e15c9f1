#!/bin/bash
# Records cpumask-cpu1.dat (see README.md): CPU 1 only (trace-cmd record -M 2); run as root:
# unshare -m bash cpumask.sh
set -e
mount --bind /dev/null /proc/kallsyms
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
export LD_PRELOAD=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
trace-cmd record -d -q -M 2 -o cpumask-cpu1.dat -e sched_switch -e sched_waking -e sched_wakeup -e sched_migrate_task \
    -- perf bench sched pipe -l 200 >/dev/null 2>&1
