#!/bin/bash
# Records lossy.dat and full.dat (see ../README.md). As root, here: unshare -m bash record.sh
# One run recorded twice at once with the same clock: trace-cmd with a 4 KiB buffer per CPU,
# which overruns (lossy.dat), inside a schedscope-cli record of every sched event that loses
# none (full.dat).
set -e
mount --bind /dev/null /proc/kallsyms  # keeps kallsyms out of trace-cmd's file
CLI=${SCHEDSCOPE_CLI:-schedscope-cli}
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
SHIM=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
"$CLI" record -o full.dat -- env LD_PRELOAD="$SHIM" trace-cmd record -q -d -b 4 -o lossy.dat \
    -e sched_switch -e sched_waking -e sched_wakeup -e sched_wakeup_new -e sched_migrate_task \
    -e sched_process_fork -e sched_process_exit -- ./workload.sh
