#!/bin/sh
# three busy loops pinned to CPU 0 with taskset, moved to CPU 1 with taskset -p after 0.25 s
for i in 1 2 3; do taskset -c 0 ./spin 600 & done
sleep 0.25
for p in $(pgrep -P $$ spin); do taskset -pc 1 $p >/dev/null; done
wait
