#!/bin/bash
# Three loops busy 70% of the time (balancing pulls them around) beside perf's messaging
# benchmark: a storm of wakeups, more than a 4 KiB ring buffer per CPU keeps up with
stress-ng --cpu 3 --cpu-load 70 --timeout 1 -q &
perf bench sched messaging -g 2 -l 150 >/dev/null
wait
