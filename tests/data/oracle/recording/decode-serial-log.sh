#!/bin/sh
# Decodes what trace-init.sh and trace-wakeups-init.sh print on the serial console: the guest's
# sysfs tarball (sysfs.tar.gz) and each trace (NAME.dat).
#   decode-serial-log.sh SERIAL.log OUTDIR
set -eu
log=$1; out=$2; mkdir -p "$out"
tr -d '\r' < "$log" > "$out/log.txt"
awk '/^=== SYSFS$/{f=1;next} /^=== ENDSYSFS$/{f=0} f' "$out/log.txt" | base64 -d > "$out/sysfs.tar.gz"
for n in $(grep -a '^=== TRACE ' "$out/log.txt" | cut -d' ' -f3); do
  awk -v n="$n" '$0=="=== TRACE " n{f=1;next} /^=== ENDTRACE$/{f=0} f' "$out/log.txt" | base64 -d > "$out/$n.dat"
done
# trace-init.sh's single trace
if grep -aq '^=== TRACE$' "$out/log.txt"; then
  awk '/^=== TRACE$/{f=1;next} /^=== ENDTRACE$/{f=0} f' "$out/log.txt" | base64 -d > "$out/trace.dat"
fi
ls -la "$out"
