#!/bin/bash
# Records instance-only.dat and top-and-instance.dat (see README.md); run as root: unshare -m bash buffers.sh
set -e
mount --bind /dev/null /proc/kallsyms
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
export LD_PRELOAD=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
trace-cmd record -d -q -o instance-only.dat -B ssinst -e sched -- perf bench sched pipe -l 300 >/dev/null 2>&1
trace-cmd record -d -q -o top-and-instance.dat -e sched_switch -B ssinst -e sched -- perf bench sched pipe -l 300 >/dev/null 2>&1
