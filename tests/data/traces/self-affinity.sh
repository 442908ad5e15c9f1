#!/bin/sh
# self-affinity.dat: a program that moves itself between CPU 0 and CPU 1 forty times with
# sched_setaffinity(0, ...) (self-affinity.c), as taskset-like runtimes pin their own threads,
# on this 2-CPU machine (2026-12-06). Run as root from this directory with schedscope-cli on the PATH.
gcc -O2 -o /tmp/self-affinity self-affinity.c
schedscope-cli record -o self-affinity.dat -- /tmp/self-affinity 40
