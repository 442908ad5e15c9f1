#!/usr/bin/env bash
# Capture overhead (a benchmark, not a test): the same context-switch-heavy workload run alone
# and under each capture, reporting the slowdown ratio vs alone, events/s, lost events and the
# capture's CPU time. Needs root; uses the build of PRESET (default dev).
#   bench/capture_overhead.sh [LOOPS] [REPEATS]
# Workload: `perf bench sched pipe -l LOOPS` (default 100000), else `stress-ng --switch`.
# trace-cmd runs with the ftrace shim of /work/shared/tools when present (this kernel refuses
# the function-tracer files; see that README).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${PRESET:-dev}
cli=$here/build/$preset/app/cli/schedscope-cli
loops=${1:-100000}
repeats=${2:-3}
tmp=$(mktemp -d /tmp/capture_overhead.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "capture_overhead: needs root" >&2; exit 2; }
[ -x "$cli" ] || { echo "capture_overhead: build first: cmake --build --preset $preset --target schedscope-cli" >&2; exit 2; }

if perf bench sched pipe -l 10 >/dev/null 2>&1; then
  workload=(perf bench sched pipe -l "$loops")
else
  workload=(stress-ng --switch 2 --switch-ops "$loops" --quiet)
fi

shim=""
if [ -f /work/shared/tools/ftrace_shim.c ]; then
  gcc -O2 -shared -fPIC -o "$tmp/ftrace_shim.so" /work/shared/tools/ftrace_shim.c -ldl && shim=$tmp/ftrace_shim.so
fi

run_workload() {  # prints wall seconds
  local s e
  s=$(date +%s.%N); "${workload[@]}" >/dev/null 2>&1; e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}

# start_capture NAME CMD...: runs CMD under /usr/bin/time in the background.
start_capture() {
  local name=$1; shift
  /usr/bin/time -f '%U %S' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  cap_time_pid=$!
  sleep 2  # BPF load / instance creation / trace-cmd start
}
stop_capture() {
  local child
  child=$(ps -o pid= --ppid "$cap_time_pid" | head -1 | tr -d ' ')
  [ -n "$child" ] && kill -INT "$child"
  wait "$cap_time_pid" || true
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "workload: ${workload[*]}  (median of $repeats runs; 2 CPUs shared with other users: noisy)"
alone=$(for i in $(seq "$repeats"); do run_workload; done | median)
printf '%-15s %8s %9s %12s %10s %12s\n' capture wall_s slowdown events/s lost capture_cpu_s
printf '%-15s %8.2f %9s %12s %10s %12s\n' alone "$alone" 1.00 - - -

measure() {  # NAME  CMD...   (the command must stop on SIGINT and print the final JSON line)
  local name=$1; shift
  local walls=() evs=() losts=() cpus=()
  for i in $(seq "$repeats"); do
    start_capture "$name" "$@"
    local w; w=$(run_workload)
    sleep 0.3
    stop_capture
    walls+=("$w")
    local ev lost
    if [ "$name" = trace-cmd ]; then
      ev=$("$cli" trace stats "$tmp/tc.dat" --local --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("events",0))' || echo 0)
      lost=$("$cli" trace stats "$tmp/tc.dat" --local --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("lost_events",0))' || echo "?")
    else
      ev=$(tail -1 "$tmp/$name.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
      lost=$(tail -1 "$tmp/$name.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["lost_events"])')
    fi
    evs+=("$(echo "$ev / $w" | bc -l)")
    losts+=("$lost")
    cpus+=("$(awk '{print $1 + $2}' "$tmp/$name.time" | tail -1)")
  done
  local wm; wm=$(printf '%s\n' "${walls[@]}" | median)
  printf '%-15s %8.2f %9.2f %12.0f %10s %12.2f\n' "$name" "$wm" "$(echo "$wm / $alone" | bc -l)" \
    "$(printf '%s\n' "${evs[@]}" | median)" "$(printf '%s\n' "${losts[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)"
}

if command -v trace-cmd >/dev/null; then
  if [ -n "$shim" ]; then
    measure trace-cmd env LD_PRELOAD="$shim" trace-cmd record -d -e sched -o "$tmp/tc.dat"
  else
    measure trace-cmd trace-cmd record -d -e sched -o "$tmp/tc.dat"
  fi
fi
for src in tracefs bpf bpf-aggregate; do
  measure "$src" "$cli" live --source "$src" --duration 3600 --interval 0 --json
done
echo "events/s: events captured / workload wall time; lost: ring-buffer overruns (tracefs, trace-cmd) or failed BPF reservations"
