#!/usr/bin/env bash
# Streaming throughput of the BPF ring-buffer path (a benchmark, not a test): the ping-pong
# storm of bench/capture_throughput.cpp (pinned pairs on every CPU) alone, under
# `trace-cmd record` of the same seven sched events, then captured in process, through
# schedscope-capture on a pipe and through it on a Unix socket. Prints events/s, lost events
# and CPU time, and each path's events/s as a ratio to trace-cmd's in the same run.
# Needs root; uses the build of PRESET (default release).
#   bench/capture_throughput.sh [SECONDS] [PAIRS_PER_CPU] [RING_MB] [SINK]
# SINK: store (keep every event, as schedscope-cli live does) or window (default store).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${PRESET:-release}
bin=$here/build/$preset/app/capture/capture_throughput
cli=$here/build/$preset/app/cli/schedscope-cli
secs=${1:-5}
pairs=${2:-2}
ring=${3:-16}
sink=${4:-store}
[ "$(id -u)" -eq 0 ] || { echo "capture_throughput: needs root" >&2; exit 2; }
[ -x "$bin" ] && [ -x "$cli" ] || {
  echo "capture_throughput: build first: cmake --build build/$preset --target capture_throughput schedscope-cli" >&2; exit 2; }
tmp=$(mktemp -d /tmp/capture_throughput.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)  (2 CPUs shared with other users: noisy)"
echo "workload: $pairs ping-pong pair(s) per CPU for $secs s; ring buffer $ring MiB; sink $sink"
"$bin" --path none --seconds "$secs" --pairs-per-cpu "$pairs" | sed 's/^/alone    /'

tc_rate=""
if command -v trace-cmd >/dev/null; then
  shim=()
  if [ -f /work/shared/tools/ftrace_shim.c ]; then
    gcc -O2 -shared -fPIC -o "$tmp/ftrace_shim.so" /work/shared/tools/ftrace_shim.c -ldl && shim=(env LD_PRELOAD="$tmp/ftrace_shim.so")
  fi
  ev=()
  for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task sched_process_fork sched_process_exit; do
    ev+=(-e "sched:$e")
  done
  # -b: per-CPU kernel buffer in KiB, the same size as our ring buffer.
  start=$(date +%s.%N)
  "${shim[@]}" trace-cmd record -d -b $((ring * 1024)) "${ev[@]}" -o "$tmp/tc.dat" \
    "$bin" --path none --seconds "$secs" --pairs-per-cpu "$pairs" >"$tmp/tc.out" 2>"$tmp/tc.err" || true
  end=$(date +%s.%N)
  wall=$(sed -n 's/^workload \([0-9.]*\) s, .*/\1/p' "$tmp/tc.out")
  rounds=$(sed -n 's/^workload .*, \([0-9]*\) round trips\/s$/\1/p' "$tmp/tc.out")
  read -r events lost < <("$cli" trace stats "$tmp/tc.dat" --local --json 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("events",0), d.get("lost_events","?"))' || echo "0 ?")
  tc_rate=$(echo "$events / $wall" | bc -l)
  # (trace-cmd's recorders are its children, like the workload: their CPU time is not
  # separable here; the wall time it took to record and flush is.)
  printf '%-8s %10s events %12.0f events/s %8s lost  (workload %.2f s, %s round trips/s; record+flush %.1f s wall)\n' \
    trace-cmd "$events" "$tc_rate" "$lost" "$wall" "$rounds" "$(echo "$end - $start" | bc -l)"
fi

"$bin" --path all --seconds "$secs" --pairs-per-cpu "$pairs" --ring-mb "$ring" --sink "$sink" 2>/dev/null | tee "$tmp/ours.txt"
if [ -n "$tc_rate" ] && [ "$(echo "$tc_rate > 0" | bc -l)" -eq 1 ]; then
  awk -v tc="$tc_rate" '{for (i = 1; i <= NF; ++i) if ($i == "events/s") printf "%-8s %.2fx trace-cmd events/s\n", $1, $(i-1) / tc}' "$tmp/ours.txt"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
