#!/bin/sh
# exec-balance.dat: 400 fork+execs of /bin/true next to a CPU hog on this 2-CPU machine, where
# execve()'s sched_exec() moves most of them to the other CPU with the stopper (2026-12-05).
# Run as root from this directory with schedscope-cli on the PATH.
timeout 6 sh -c 'while :; do :; done' &
sleep 0.2
schedscope-cli record -o exec-balance.dat -- sh -c 'for i in $(seq 400); do /bin/true; done'
