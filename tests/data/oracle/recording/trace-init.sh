#!/bin/busybox sh
# /init of an initramfs that records a sched trace with trace-cmd on the booted topology: the
# guest's sysfs (as partitions-init.sh prints it) and the trace.dat go to the serial console as
# base64 tarballs. The initramfs holds busybox, guest-sysfs.sh, trace-cmd and the libraries ldd
# lists for it.
/bin/busybox --install -s /bin
. /guest-sysfs.sh
mount_for_tracing
snap_sysfs
echo "=== CMDLINE $(cat /proc/cmdline)"
# the kernel's symbols would make the file megabytes; the sched events do not need them
mount --bind /dev/null /proc/kallsyms
cat > /tmp/load.sh <<'LOAD'
#!/bin/sh
# CPU hogs more than the CPUs, then half of them gone: the balancer spreads and gathers them
# over SMT, MC and NUMA; a hog moved between nodes by taskset; short-lived forks
n=$(grep -c ^processor /proc/cpuinfo)
for i in $(seq 1 $((n + n / 2))); do (while :; do :; done) & done
sleep 1
for p in $(jobs -p | head -n $((n / 2 + n / 2))); do kill $p; done
(while :; do :; done) & h=$!
taskset -p 1 $h >/dev/null; sleep 0.2; taskset -p $((1 << (n - 1))) $h >/dev/null; sleep 0.2
for i in $(seq 1 40); do /bin/true & done; wait $!
sleep 0.5
kill $(jobs -p) 2>/dev/null
wait
LOAD
chmod +x /tmp/load.sh
cd /tmp
trace-cmd record -q -e sched -o /tmp/trace.dat /tmp/load.sh > /tmp/record.log 2>&1
echo "=== RECORD $? $(tail -3 /tmp/record.log | tr '\n' ' ')"
echo "=== TRACE"; base64 /tmp/trace.dat; echo "=== ENDTRACE"
echo "=== DONE"
poweroff -f
