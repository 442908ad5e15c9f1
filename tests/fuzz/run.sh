#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 30) from a seed
# corpus made of the real fixtures. Exits non-zero when any target finds a crash; the crashing
# input is kept in build/sanitize/artifacts/ and belongs in tests/data/fuzz-regressions/.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
#   FUZZ_JOBS=N   targets run N at a time (default 1)
#   FUZZ_RUNS=N   also stop a target after N executions (the long campaign: FUZZ_RUNS=10000000)
#   FUZZ_SEED=N   fixed mutation sequence (CI uses 1); default random
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
seconds=${1:-30}; shift || true
# The sanitize preset: clang with ASan+UBSan and fuzzer coverage (fuzzer-no-link) on the
# libraries too, else libFuzzer would only see the few lines of each target and fuzz the parsers
# blind. The same build runs the sanitized test suites (packaging/dev.sh test).
build=$here/build/sanitize
cmake --preset sanitize -S "$here" >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=$(sed -n 's/^schedscope_fuzz_target(\([a-z_]*\) .*/\1/p' "$here/tests/fuzz/CMakeLists.txt")
  read -r -a targets <<<"$(echo $targets)"
fi
cmake --build "$build" --target "${targets[@]}" -j "$(nproc)" >/dev/null

# Derived seeds (truncations, short slices of the big fixtures) go to the build tree.
derived=$build/seeds
rm -rf "$derived"; mkdir -p "$derived/fuzz_trace_dat" "$derived/fuzz_ftrace_text"
for f in "$here"/tests/data/traces/*.dat; do
  b=$(basename "$f" .dat); size=$(stat -c %s "$f")
  cp "$f" "$derived/fuzz_trace_dat/$b.dat"
  for cut in 16 512 4096 32768 $((size / 2)) $((size - 1))
  do head -c "$cut" "$f" >"$derived/fuzz_trace_dat/$b.cut$cut"; done
done
for f in "$here"/tests/data/traces/*.txt; do
  b=$(basename "$f" .txt)
  head -n 40 "$f" >"$derived/fuzz_ftrace_text/$b.head"
  sed -n '2000,2060p' "$f" >"$derived/fuzz_ftrace_text/$b.mid"
done

# the real kernels' sched_verbose logs kept with the oracle cases, one file per case
mkdir -p "$derived/fuzz_kernel_log"
for f in "$here"/tests/data/oracle/*/kernel-log.txt; do
  cp "$f" "$derived/fuzz_kernel_log/$(basename "$(dirname "$f")").txt"
done

seed_dir() {  # real inputs for each target
  case "$1" in
    fuzz_hwloc_xml) echo "$here/tests/data/topologies/xml $here/tests/data/topologies/xml-v3 $here/resources/topologies" ;;
    # The fixtures are cut to -max_len (64 KB), which leaves only broken files: a whole small
    # recording (33 KB, file version 7) is what lets mutations reach our decoder at all
    # (coverage 96 -> ~900 edges).
    fuzz_trace_dat) echo "$derived/fuzz_trace_dat $here/tests/fuzz/corpus/fuzz_trace_dat" ;;
    fuzz_ftrace_text) echo "$derived/fuzz_ftrace_text" ;;
    fuzz_workload_json) echo "$here/resources/workloads" ;;
    fuzz_kernel_log) echo "$derived/fuzz_kernel_log $here/resources/kernel-logs $here/tests/data/kernel-logs" ;;
    fuzz_topology_json|fuzz_cpulist|fuzz_synthetic|fuzz_sysfs|fuzz_cli_args|fuzz_capture_client|fuzz_capture_args) echo "$here/tests/fuzz/corpus/$1" ;;
    *) echo "$here/tests/fuzz/corpus/$1" ;;
  esac
}

export LSAN_OPTIONS=suppressions=$here/tests/sanitizers/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
# libtracecmd mallocs sizes read from the file (9 GB from a corrupt header) and handles NULL;
# glibc returns NULL for an impossible size, ASan aborts unless told to behave the same. Past
# the limit ASan's malloc returns NULL before libFuzzer's malloc limit sees it; C++ new still
# reports. The limit is 256 MB, not more: libtracecmd 1.3.1's handle_options() leaks an option
# buffer whose read fails, and a corrupt size of a GB leaked a few times (each unpoisoning its
# shadow) took a campaign past its RSS limit; no input here (at most 1 MB) needs more.
export ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=256:suppressions=$here/tests/sanitizers/asan.supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}
mkdir -p "$build/artifacts"
fuzz_one() {  # TARGET -> one summary line; exit status 1 on a crash
  local t=$1 work=$build/corpus/$1 log=$build/$1.log
  # A seeded run starts from the checked-in seeds only, so it replays the same inputs on every
  # machine (a slower one runs a prefix of them); unseeded campaigns keep what they found.
  [ -n "${FUZZ_SEED:-}" ] && rm -rf "$work"
  mkdir -p "$work"
  local seeds=() extra=() d
  for d in $(seed_dir "$t"); do [ -d "$d" ] && seeds+=("$d"); done
  [ -d "$here/tests/data/fuzz-regressions/$t" ] && seeds+=("$here/tests/data/fuzz-regressions/$t")
  # The whole-file fixtures are up to 1 MB; mutate shorter inputs (the truncations cover the
  # rest) so a short run gives more than a few hundred executions.
  case "$t" in fuzz_trace_dat|fuzz_ftrace_text) extra+=(-max_len=65536) ;; esac
  [ -n "${FUZZ_SEED:-}" ] && extra+=(-seed="$FUZZ_SEED")
  [ -n "${FUZZ_RUNS:-}" ] && extra+=(-runs="$FUZZ_RUNS")
  local t0=$SECONDS
  if "$build/tests/fuzz/$t" "$work" "${seeds[@]}" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 >"$log" 2>&1; then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $t ok, ${runs:-?} executions in $((SECONDS - t0)) s, 0 crashes"
  else
    echo "fuzz: $t FAILED (see $log and $build/artifacts/)"; tail -20 "$log"; return 1
  fi
}

jobs_max=${FUZZ_JOBS:-1}
results=$build/results; rm -rf "$results"; mkdir -p "$results"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  ( fuzz_one "$t" >"$results/$t" 2>&1; echo $? >"$results/$t.rc" ) &
done
wait
status=0
for t in "${targets[@]}"; do
  cat "$results/$t"
  [ "$(cat "$results/$t.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
