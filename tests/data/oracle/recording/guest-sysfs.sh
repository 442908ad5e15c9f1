# Sourced by the initramfs /init scripts (partitions-init.sh, trace-init.sh,
# trace-wakeups-init.sh), next to them in the initramfs root: snap_sysfs prints the guest's CPU
# and node topology files under sys/devices/system and /proc/cpuinfo as a base64 tarball on the
# serial console, between "=== SYSFS" and "=== ENDSYSFS"; mount_for_tracing mounts what a
# recording needs (proc, sys, dev, tracefs and a tmpfs /tmp for the trace files).
mount_for_tracing() {
  mount -t proc proc /proc
  mount -t sysfs sys /sys
  mount -t devtmpfs dev /dev
  mount -t tracefs nodev /sys/kernel/tracing
  mount -t tmpfs tmp /tmp
}
snap_sysfs() {
  mkdir -p /tmp/s
  cd /sys/devices/system
  for f in $(find cpu node -type f \( -path '*topology/*' -o -path '*cache/index*' -o -name online -o -name possible -o -name present -o -name cpulist -o -name distance -o -name cpumap -o -name has_cpu -o -name has_normal_memory -o -name has_memory -o -name isolated \) 2>/dev/null); do
    mkdir -p /tmp/s/sys/devices/system/$(dirname $f); cat $f > /tmp/s/sys/devices/system/$f 2>/dev/null
  done
  # the CPU's vendor and family: x86 arch code keys on them (AMD Zen's node_reclaim_distance 32)
  mkdir -p /tmp/s/proc && cat /proc/cpuinfo > /tmp/s/proc/cpuinfo
  cd /
  echo "=== SYSFS"; (cd /tmp/s && tar cz . | base64); echo "=== ENDSYSFS"
}
