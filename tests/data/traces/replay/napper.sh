#!/bin/sh
# napper-hog.dat:   ./napper.sh 1 10    (one hog and the napper, 100 naps of 10 ms, all on CPU 1)
# napper-2hogs.dat: ./napper.sh 2 2 300 (two hogs and the napper, 300 naps of 2 ms, all on CPU 1)
hogs=${1:-1}; nap_ms=${2:-10}; rounds=${3:-100}
i=0
while [ "$i" -lt "$hogs" ]; do taskset -c 1 ./napper hog 1.3 & i=$((i + 1)); done
sleep 0.05
taskset -c 1 ./napper nap "$rounds" "$nap_ms"
wait
