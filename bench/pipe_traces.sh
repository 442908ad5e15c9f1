#!/bin/bash
# Sourced by the trace benchmarks: the optimised CLI, the reference loaders, sched traces of
# `perf bench sched pipe` recorded here, and a wall-time / peak-RSS measurement.
# Needs root, trace-cmd, perf, libkshark-dev, libjson-c-dev and /work/shared/tools (or TOOLS=dir).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${TOOLS:-/work/shared/tools}
OUT=${OUT:-/tmp/schedscope-bench}
mkdir -p "$OUT"

# Optimised build of the CLI only.
cmake --preset release -S "$ROOT" >/dev/null
cmake --build "$ROOT/build/release" -j2 --target schedscope-cli >/dev/null
CLI="$ROOT/build/release/app/cli/schedscope-cli"

gcc -O2 -shared -fPIC -o "$OUT/ftrace_shim.so" "$TOOLS/ftrace_shim.c" -ldl
gcc -O2 -o "$OUT/kshark_load" "$TOOLS/kshark_load.c" -I/usr/include/kernelshark \
    $(pkg-config --cflags --libs libkshark libtracecmd) -ljson-c 2>/dev/null ||
  gcc -O2 -o "$OUT/kshark_load" "$TOOLS/kshark_load.c" -I/usr/include/kernelshark \
    $(pkg-config --cflags libtracecmd) -lkshark -ljson-c
gcc -O2 -o "$OUT/tep_iterate" "$TOOLS/tep_iterate.c" $(pkg-config --cflags --libs libtracecmd libtraceevent)

loops_for() {  # perf bench sched pipe: ~8 sched records per loop with -e sched
  case $1 in 100k) echo 12500 ;; 1m) echo 125000 ;; 10m) echo 1250000 ;; *) echo "unknown size $1" >&2; exit 2 ;; esac
}

# pipe_trace SIZE VERSION -> path of a trace.dat (recorded once, then reused)
pipe_trace() {
  local dat="$OUT/pipe-$1-v$2.dat"
  if [ ! -s "$dat" ]; then
    LD_PRELOAD="$OUT/ftrace_shim.so" trace-cmd record -q -d -b 20000 --file-version "$2" -e sched -o "$dat" \
      perf bench sched pipe -l "$(loops_for "$1")" >/dev/null 2>&1
  fi
  echo "$dat"
}

# measure CMD... -> "seconds maxrss_kb"
measure() {
  local log="$OUT/time.log"
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || { echo "failed: $*" >&2; tail -3 "$log" >&2; echo "nan nan"; return; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  echo "$wall $rss"
}

# row NAME SECONDS RSS_KB REF_SECONDS REF_RSS_KB: one table line with the ratios to the reference
row() {
  awk -v n="$1" -v t="$2" -v m="$3" -v rt="$4" -v rm="$5" \
    'BEGIN {printf "%-22s %9.2f %10.1f %12.2f %12.2f\n", n, t, m/1024, (rt>0? t/rt : 0), (rm>0? m/rm : 0)}'
}
