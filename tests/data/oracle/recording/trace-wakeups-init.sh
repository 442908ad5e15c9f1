#!/bin/busybox sh
# /init of an initramfs that records sched traces of wakeup-heavy loads with trace-cmd: the
# guest's sysfs (as guest-sysfs.sh prints it) and each trace.dat go to the serial console as
# base64, between "=== TRACE NAME" and "=== ENDTRACE". The initramfs holds busybox,
# guest-sysfs.sh, trace-cmd, perf, the libraries ldd lists for them, and pingpong
# (tests/data/traces/replay/pingpong.c built with gcc -static -O2).
/bin/busybox --install -s /bin
. /guest-sysfs.sh
mount_for_tracing
snap_sysfs
echo "=== CMDLINE $(cat /proc/cmdline)"
echo "=== UNAME $(uname -r)"
# the kernel's symbols would make the files megabytes; the sched events do not need them
mount --bind /dev/null /proc/kallsyms
cd /tmp
rec() {
  name=$1; shift
  trace-cmd record -q -e sched -o /tmp/$name.dat "$@" > /tmp/$name.log 2>&1
  echo "=== RECORD $name $? $(tail -5 /tmp/$name.log | tr '\n' ' ')"
  echo "=== TRACE $name"; base64 /tmp/$name.dat; echo "=== ENDTRACE"
  rm -f /tmp/$name.dat
}
rec hackbench perf bench sched messaging -g 1 -l 20
rec pingpong /pingpong 2000
rec hackbench4 perf bench sched messaging -g 4 -l 20
# a ping-pong pinned to one CPU, where each wakeup finds its waker running, and one pinned beside
# a busy loop; taskset pins them just before it execs the program (no syscall events recorded)
rec pingpong-shared taskset -c 0 /pingpong 2000
(taskset -c 1 sh -c "while :; do :; done") & hog=$!
sleep 0.2
rec pingpong-hog taskset -c 1 /pingpong 1000
kill $hog
echo "=== DONE"
poweroff -f
