#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 30) from a seed
# corpus made of the real fixtures. Exits non-zero when any target finds a crash; the crashing
# input is kept in build/fuzz/artifacts/ and belongs in tests/data/fuzz-regressions/.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-30}; shift || true
build=$here/build/fuzz
# The libraries get coverage instrumentation and the sanitizers too (fuzzer-no-link), else
# libFuzzer would only see the few lines of each target and fuzz the parsers blind.
san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
  -DSCHEDSCOPE_FUZZ=ON -DSCHEDSCOPE_BUILD_GUI=OFF -DSCHEDSCOPE_BUILD_TESTS=ON >/dev/null
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

seed_dir() {  # real inputs for each target
  case "$1" in
    fuzz_hwloc_xml) echo "$here/tests/data/topologies/xml $here/resources/topologies" ;;
    fuzz_trace_dat) echo "$derived/fuzz_trace_dat" ;;
    fuzz_ftrace_text) echo "$derived/fuzz_ftrace_text" ;;
    fuzz_workload_json) echo "$here/resources/workloads" ;;
    fuzz_topology_json|fuzz_cpulist|fuzz_synthetic|fuzz_sysfs|fuzz_cli_args|fuzz_capture_client|fuzz_capture_args) echo "$here/tests/fuzz/corpus/$1" ;;
    *) echo "$here/tests/fuzz/corpus/$1" ;;
  esac
}

export LSAN_OPTIONS=suppressions=$here/tests/sanitizers/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
# libtracecmd mallocs sizes read from the file and handles NULL; glibc returns NULL for an
# impossible size, ASan aborts unless told to behave the same.
export ASAN_OPTIONS=allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
mkdir -p "$build/artifacts"
status=0
for t in "${targets[@]}"; do
  work=$build/corpus/$t
  mkdir -p "$work"
  seeds=()
  for d in $(seed_dir "$t"); do [ -d "$d" ] && seeds+=("$d"); done
  [ -d "$here/tests/data/fuzz-regressions/$t" ] && seeds+=("$here/tests/data/fuzz-regressions/$t")
  log=$build/$t.log
  extra=()
  # The whole-file fixtures are up to 1 MB; mutate shorter inputs (the truncations cover the
  # rest) so a minute gives more than a few hundred executions.
  case "$t" in fuzz_trace_dat|fuzz_ftrace_text) extra+=(-max_len=65536) ;; esac
  # FUZZ_SEED fixes the mutation sequence (CI's smoke run uses 1); default: random.
  [ -n "${FUZZ_SEED:-}" ] && extra+=(-seed="$FUZZ_SEED")
  if "$build/tests/fuzz/$t" "$work" "${seeds[@]}" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $t ok, ${runs:-?} executions in ${seconds}s"
  else
    echo "fuzz: $t FAILED (see $log and $build/artifacts/)"; tail -20 "$log"; status=1
  fi
done
exit $status
