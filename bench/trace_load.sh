#!/bin/bash
# Benchmark (not a test): load time and peak RSS of schedscope against KernelShark's loader,
# bare libtracecmd iteration and `trace-cmd report`, on sched traces recorded here.
# Usage: bench/trace_load.sh [SIZES...]   sizes: 100k 1m 10m (default: 100k 1m)
# Needs root, trace-cmd, perf, libkshark-dev, libjson-c-dev and /work/shared/tools (or TOOLS=dir).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${TOOLS:-/work/shared/tools}
OUT=${OUT:-/tmp/schedscope-bench}
SIZES=("${@:-100k 1m}")
[ $# -eq 0 ] && SIZES=(100k 1m)
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

# measure NAME CMD... -> "seconds maxrss_kb"
measure() {
  local log="$OUT/time.log"
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || { echo "failed: $*" >&2; tail -3 "$log" >&2; echo "nan nan"; return; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  echo "$wall $rss"
}

for size in "${SIZES[@]}"; do
  for ver in 7 6; do
    dat="$OUT/pipe-$size-v$ver.dat"
    if [ ! -s "$dat" ]; then
      LD_PRELOAD="$OUT/ftrace_shim.so" trace-cmd record -q -d -b 20000 --file-version $ver -e sched -o "$dat" \
        perf bench sched pipe -l "$(loops_for "$size")" >/dev/null 2>&1
    fi
    events=$("$CLI" bench load "$dat" | awk '/^events / {print $2}')
    records=$("$OUT/tep_iterate" -f "$dat" | sed -n 's/^records=\([0-9]*\).*/\1/p')
    read -r s_t s_m < <(measure "$CLI" bench load "$dat")
    read -r k_t k_m < <(measure "$OUT/kshark_load" "$dat")
    read -r t_t t_m < <(measure "$OUT/tep_iterate" -f "$dat")
    read -r r_t r_m < <(measure sh -c "trace-cmd report '$dat' >/dev/null 2>&1")
    echo "== $size v$ver: $(stat -c %s "$dat") bytes, $records records, $events sched events kept by schedscope"
    printf "%-22s %9s %10s %12s %12s\n" loader time_s peak_rss_MB time/schedscope rss/schedscope
    for row in "schedscope:$s_t:$s_m" "kernelshark:$k_t:$k_m" "tep_iterate(-f):$t_t:$t_m" "trace-cmd_report:$r_t:$r_m"; do
      IFS=: read -r name t m <<<"$row"
      awk -v n="$name" -v t="$t" -v m="$m" -v st="$s_t" -v sm="$s_m" \
        'BEGIN {printf "%-22s %9.2f %10.1f %12.2f %12.2f\n", n, t, m/1024, (st>0? t/st : 0), (sm>0? m/sm : 0)}'
    done
    "$CLI" bench load "$dat" | sed 's/^/    schedscope: /' | grep -E "events_per_s|bytes_per_event"
  done
done
