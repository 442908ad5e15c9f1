#!/bin/bash
# Benchmark (not a test): load time and peak RSS of schedscope against KernelShark's loader,
# bare libtracecmd iteration and `trace-cmd report`, on sched traces recorded here.
# Usage: bench/trace_load.sh [SIZES...]   sizes: 100k 1m 10m (default: 100k 1m)
# Needs root, trace-cmd, perf, libkshark-dev, libjson-c-dev and /work/shared/tools (or TOOLS=dir).
set -euo pipefail
SIZES=("${@:-100k 1m}")
[ $# -eq 0 ] && SIZES=(100k 1m)
source "$(dirname "$0")/pipe_traces.sh"

for size in "${SIZES[@]}"; do
  for ver in 7 6; do
    dat=$(pipe_trace "$size" "$ver")
    events=$("$CLI" bench load "$dat" | awk '/^events / {print $2}')
    records=$("$OUT/tep_iterate" -f "$dat" | sed -n 's/^records=\([0-9]*\).*/\1/p')
    read -r s_t s_m < <(measure "$CLI" bench load "$dat")
    read -r k_t k_m < <(measure "$OUT/kshark_load" "$dat")
    read -r t_t t_m < <(measure "$OUT/tep_iterate" -f "$dat")
    read -r r_t r_m < <(measure sh -c "trace-cmd report '$dat' >/dev/null 2>&1")
    echo "== $size v$ver: $(stat -c %s "$dat") bytes, $records records, $events sched events kept by schedscope"
    printf "%-22s %9s %10s %12s %12s\n" loader time_s peak_rss_MB time/schedscope rss/schedscope
    row schedscope "$s_t" "$s_m" "$s_t" "$s_m"
    row kernelshark "$k_t" "$k_m" "$s_t" "$s_m"
    row "tep_iterate(-f)" "$t_t" "$t_m" "$s_t" "$s_m"
    row trace-cmd_report "$r_t" "$r_m" "$s_t" "$s_m"
    "$CLI" bench load "$dat" | sed 's/^/    schedscope: /' | grep -E "events_per_s|bytes_per_event"
  done
done
