#!/bin/bash
# Benchmark (not a test): what a replay costs (deriving the workload, measuring the recording,
# simulating the baseline and the what-if) against loading the same trace, in schedscope and in
# KernelShark's loader (the reference: it only loads), on `perf bench sched pipe` traces recorded
# here with `schedscope-cli record` (which writes the topology sidecar replay reads; the
# wakeup-heavy case: one Run, Wait and Wake per message).
# Usage: bench/replay.sh [SIZES...]   sizes: 100k 1m 10m (default: 1m)
# Needs root, trace-cmd, perf, libkshark-dev, libjson-c-dev and /work/shared/tools (or TOOLS=dir).
set -euo pipefail
SIZES=("${@:-1m}")
source "$(dirname "$0")/pipe_traces.sh"

for size in "${SIZES[@]}"; do
  dat="$OUT/replay-pipe-$size.dat"
  [ -s "$dat" ] || "$CLI" record -o "$dat" -- perf bench sched pipe -l "$(loops_for "$size")" >/dev/null 2>&1
  events=$("$CLI" bench load "$dat" | awk '/^events / {print $2}')
  read -r p_t p_m < <(measure "$CLI" replay "$dat" --baseline)
  read -r w_t w_m < <(measure "$CLI" replay "$dat" --preset kunpeng920-24)
  read -r l_t l_m < <(measure "$CLI" bench load "$dat")
  read -r k_t k_m < <(measure "$OUT/kshark_load" "$dat")
  echo "== $size: $events sched events; ratios against KernelShark loading the trace"
  printf "%-22s %9s %10s %12s %12s\n" run time_s peak_rss_MB time/kshark rss/kshark
  row "replay --baseline" "$p_t" "$p_m" "$k_t" "$k_m"
  row "replay onto kunpeng" "$w_t" "$w_m" "$k_t" "$k_m"
  row "schedscope load" "$l_t" "$l_m" "$k_t" "$k_m"
  row "kernelshark load" "$k_t" "$k_m" "$k_t" "$k_m"
done
