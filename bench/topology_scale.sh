#!/bin/bash
# Benchmark (not a test): wall time and peak RSS of building the sched domains of synthetic
# machines at the CPU limit (tests/hardening checks they are valid; this measures how long),
# then of simulating a fork-heavy workload on two of them.
# Usage: bench/topology_scale.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PRESET=${SCHEDSCOPE_PRESET:-release}
cmake --preset "$PRESET" -S "$ROOT" >/dev/null
cmake --build "$ROOT/build/$PRESET" -j2 --target schedscope-cli >/dev/null
CLI="$ROOT/build/$PRESET/app/cli/schedscope-cli"
# The flat 4096 has one domain of 4096 single-CPU groups per CPU: the shared group ring case.
for desc in "pack:4 numa:2 l3:4 core:32 pu:2" "pack:8 numa:2 l3:4 core:32 pu:2" "pack:16 numa:2 l3:4 core:32 pu:2" "4096"; do
  /usr/bin/time -f "%e %M" -o /tmp/schedscope-scale.time "$CLI" domains --synthetic "$desc" --json >/dev/null
  read -r secs kb </tmp/schedscope-scale.time
  cpus=$(( $(echo "$desc" | tr ' ' '\n' | sed 's/.*://' | paste -sd'*' | bc) ))
  printf '%5d CPUs  %-36s %6.2f s  %7d kB peak RSS\n' "$cpus" "'$desc'" "$secs" "$kb"
done
# Simulating on them: kernbench forks and execs a task per compile (56,000 tasks for 2000 jobs),
# each keeping its CPU time per CPU it ran on.
for desc in "pack:4 numa:4 l3:8 core:16 pu:2" "4096"; do
  /usr/bin/time -f "%e %M" -o /tmp/schedscope-scale.time "$CLI" simulate --synthetic "$desc" \
    --workload kernbench:jobs=2000 --duration 0.02 >/dev/null
  read -r secs kb </tmp/schedscope-scale.time
  printf 'simulate kernbench:jobs=2000, 20 ms  %-36s %6.2f s  %7d kB peak RSS\n' "'$desc'" "$secs" "$kb"
done
