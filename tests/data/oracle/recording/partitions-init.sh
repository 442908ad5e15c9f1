#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t debugfs debugfs /sys/kernel/debug
case "$(cat /proc/cmdline)" in
*cpusetv1*)
  mount -t tmpfs cgroup /sys/fs/cgroup; mkdir /sys/fs/cgroup/cpuset
  mount -t cgroup -o cpuset cpuset /sys/fs/cgroup/cpuset ;;
*) mount -t cgroup2 cgroup2 /sys/fs/cgroup ;;
esac
. /guest-sysfs.sh
dump() {
  sleep 1
  echo "=== DUMP $1"
  rm -rf /tmp/k && mkdir -p /tmp/k/proc /tmp/k/sys/kernel/debug/sched/domains /tmp/k/sys/fs/cgroup
  cat /proc/schedstat > /tmp/k/proc/schedstat
  for c in /sys/kernel/debug/sched/domains/cpu*; do
    for d in $c/domain*; do
      [ -d "$d" ] || continue
      o=/tmp/k/sys/kernel/debug/sched/domains/$(basename $c)/$(basename $d); mkdir -p $o
      for f in name flags min_interval max_interval imbalance_pct busy_factor cache_nice_tries; do cat $d/$f > $o/$f; done
    done
  done
  cd /sys/fs/cgroup
  for f in $(find . -name 'cpuset.cpus*' -o -name 'cpuset.effective_cpus' -o -name 'cpuset.sched_load_balance'); do mkdir -p /tmp/k/sys/fs/cgroup/$(dirname $f); cat $f > /tmp/k/sys/fs/cgroup/$f; done
  cd /
  echo "=== TAR $1"; (cd /tmp/k && tar cz . | base64); echo "=== ENDTAR $1"
}
part() { # dir cpus type
  echo "$2" > /sys/fs/cgroup/$1/cpuset.cpus
  echo "$3" > /sys/fs/cgroup/$1/cpuset.cpus.partition
  echo "=== STATE $1 cpus=$2 $3 -> $(cat /sys/fs/cgroup/$1/cpuset.cpus.partition) eff=$(cat /sys/fs/cgroup/$1/cpuset.cpus.effective)"
}
snap_sysfs
echo "=== CMDLINE $(cat /proc/cmdline)"
dump baseline
# a topology recorded for its shape alone (boot-x86.sh): no partitions on top
case "$(cat /proc/cmdline)" in
*baselineonly*) echo "=== DONE"; poweroff -f ;;
esac
case "$(cat /proc/cmdline)" in
*cpusetv1*)
  V=/sys/fs/cgroup/cpuset
  mkdir $V/a $V/b $V/c $V/a/inner
  echo 0-5 > $V/a/cpuset.cpus; echo 4-11 > $V/b/cpuset.cpus; echo 12-15 > $V/c/cpuset.cpus
  echo 2-3 > $V/a/inner/cpuset.cpus
  echo 0 > $V/c/cpuset.sched_load_balance
  echo 0 > $V/cpuset.sched_load_balance
  echo "=== STATE v1 top lb=0, a 0-5 lb, a/inner 2-3 lb, b 4-11 lb, c 12-15 no lb"
  dump v1-overlapping-a-b-and-c-unbalanced
  echo 0 > $V/a/cpuset.sched_load_balance
  echo 0 > $V/b/cpuset.sched_load_balance
  echo 1 > $V/c/cpuset.sched_load_balance
  echo "=== STATE v1 a and b not balanced (a/inner 2-3 is), c 12-15 balanced"
  dump v1-inner-2-3-and-c-12-15
  ;;
*)
echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/p1 /sys/fs/cgroup/p2
case "$(cat /proc/cmdline)" in
*isolcpus*)
  part p1 8-15 root
  dump root-8-15
  ;;
*)
  part p1 4-7,12-15 root
  dump root-4-7,12-15
  echo isolated > /sys/fs/cgroup/p1/cpuset.cpus.partition
  dump isolated-4-7,12-15
  echo member > /sys/fs/cgroup/p1/cpuset.cpus.partition
  part p1 8-15 root
  part p2 0-1 root
  dump root-8-15+root-0-1
  ;;
esac
;;
esac
echo "=== DONE"
poweroff -f
