#!/bin/bash
# Records switches.dat and full.dat, then migrate-filtered.dat (see ../README.md). As root, here: unshare -m bash record.sh
# One run recorded twice at once, in two tracefs buffers with the same clock: trace-cmd with
# sched_switch alone (and, in its instance ssw, with sched_wakeup too), inside a
# schedscope-cli record of every sched event.
set -e
mount --bind /dev/null /proc/kallsyms  # keeps kallsyms out of trace-cmd's file
CLI=${SCHEDSCOPE_CLI:-schedscope-cli}
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
SHIM=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
"$CLI" record -o full.dat -- env LD_PRELOAD="$SHIM" trace-cmd record -q -d -o switches.dat \
    -e sched_switch -B ssw -e sched_switch -e sched_wakeup -- ./workload.sh
# sched_migrate_task recorded with a filter no task matches: none in the file, the format there
env LD_PRELOAD="$SHIM" trace-cmd record -q -d -o migrate-filtered.dat \
    -e sched_switch -e sched_migrate_task -f 'comm == "no-such-task"' -- ./workload.sh
