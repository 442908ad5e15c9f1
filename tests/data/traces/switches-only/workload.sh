#!/bin/bash
# Two busy loops pinned to CPU 0, moved to CPU 1 with taskset (affinity migrations), then perf's
# messaging benchmark (wakeups onto the other CPU, forks) beside three loops busy 70% of the
# time (balancing pulls them around)
busy() { while :; do :; done; }
busy & A=$!
busy & B=$!
taskset -pc 0 $A >/dev/null; taskset -pc 0 $B >/dev/null
sleep 0.3
taskset -pc 1 $A >/dev/null; taskset -pc 1 $B >/dev/null
sleep 0.3
kill $A $B
stress-ng --cpu 3 --cpu-load 70 --timeout 1 -q &
perf bench sched messaging -g 1 -l 30 >/dev/null
wait
