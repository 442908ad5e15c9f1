#!/bin/bash
# pinned busy loops moved with taskset, a pipe ping-pong, a fork storm
stress-ng --cpu 2 --taskset 0 --timeout 1 -q &
S=$!
sleep 0.3
for p in $(pgrep -P $S); do taskset -pc 1 $p >/dev/null; done
sleep 0.3
for p in $(pgrep -P $S); do taskset -pc 0 $p >/dev/null; done
stress-ng --pipe 1 --pipe-ops 2000 -q
for i in $(seq 1 40); do /bin/true; done
wait $S
