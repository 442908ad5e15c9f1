#!/bin/bash
# Records cpumask-cpu1.dat, cpumask-cpu0.dat and cpumask-cpu1-busy.dat (see README.md): traces
# of one CPU of two (trace-cmd record -M); run as root:
# unshare -m bash cpumask.sh
set -e
mount --bind /dev/null /proc/kallsyms
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
export LD_PRELOAD=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
trace-cmd record -d -q -M 2 -o cpumask-cpu1.dat -e sched_switch -e sched_waking -e sched_wakeup -e sched_migrate_task \
    -- perf bench sched pipe -l 200 >/dev/null 2>&1
# cpumask-cpu0.dat: CPU 0 only (-M 1), so the untraced CPU is the last one, which only the
# file's CPU count shows; six CPU hogs keep both CPUs busy
trace-cmd record -d -q -M 1 -o cpumask-cpu0.dat -e sched_switch -e sched_waking -e sched_wakeup -e sched_migrate_task \
    -- sh -c 'for i in 1 2 3 4 5 6; do timeout 0.6 sh -c "while :; do :; done" & done; wait' >/dev/null 2>&1
# cpumask-cpu1-busy.dat: CPU 1 only (-M 2) under load: tar | bzip2 and two CPU hogs for 1 s. Tasks
# wait on CPU 1 while CPU 0 (untraced, its lane empty) looks idle, and the migration causes
# guessed without CPU 0's switches include affinity moves no one made
trace-cmd record -d -q -M 2 -o cpumask-cpu1-busy.dat -e sched_switch -e sched_waking -e sched_wakeup -e sched_migrate_task \
    -- sh -c 'timeout 1 sh -c "tar c /usr/include 2>/dev/null | bzip2 > /dev/null" & for i in 1 2; do timeout 1 sh -c "while :; do :; done" & done; wait' >/dev/null 2>&1
