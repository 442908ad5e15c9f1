#!/bin/bash
# Records idle-filters.dat (see README.md); run as root: unshare -m bash filters.sh
# One run, three buffers: the top one with the switches out of the idle task filtered away,
# instance "noidlein" with the switches into it filtered away, instance "full" unfiltered.
set -e
mount --bind /dev/null /proc/kallsyms
# the ftrace shim of the recording notes (this kernel refuses the function-tracer files)
export LD_PRELOAD=${FTRACE_SHIM:-/tmp/ftrace_shim.so}
# short bursts of work on alternating CPUs with sleeps between them: many switches into and out of idle
workload='for i in $(seq 40); do head -c 300000 /dev/zero | sha256sum >/dev/null; taskset -c $((i % 2)) sleep 0.03; done'
trace-cmd record -d -q -o idle-filters.dat -e sched_switch -f 'prev_pid != 0' \
    -B noidlein -e sched_switch -f 'next_pid != 0' -B full -e sched_switch -- bash -c "$workload" >/dev/null 2>&1
