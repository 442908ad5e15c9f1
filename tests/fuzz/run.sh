#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 30) from a seed
# corpus made of the real fixtures. Exits non-zero when any target finds a crash; the crashing
# input is kept in build/fuzz/artifacts/ and belongs in tests/data/fuzz-regressions/.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-30}; shift || true
build=$here/build/fuzz
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCHEDSCOPE_FUZZ=ON -DSCHEDSCOPE_BUILD_GUI=OFF >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=$(sed -n 's/^schedscope_fuzz_target(\([a-z_]*\) .*/\1/p' "$here/tests/fuzz/CMakeLists.txt")
  read -r -a targets <<<"$(echo $targets)"
fi
cmake --build "$build" --target "${targets[@]}" -j "$(nproc)" >/dev/null

seed_dir() {  # real inputs for each target
  case "$1" in
    fuzz_hwloc_xml) echo "$here/tests/data/topologies/xml $here/resources/topologies" ;;
    fuzz_topology_json|fuzz_cpulist|fuzz_synthetic|fuzz_sysfs|fuzz_cli_args|fuzz_capture_client) echo "$here/tests/fuzz/corpus/$1" ;;
    *) echo "$here/tests/fuzz/corpus/$1" ;;
  esac
}

mkdir -p "$build/artifacts"
status=0
for t in "${targets[@]}"; do
  work=$build/corpus/$t
  mkdir -p "$work"
  seeds=()
  for d in $(seed_dir "$t"); do [ -d "$d" ] && seeds+=("$d"); done
  [ -d "$here/tests/data/fuzz-regressions/$t" ] && seeds+=("$here/tests/data/fuzz-regressions/$t")
  log=$build/$t.log
  if "$build/tests/fuzz/$t" "$work" "${seeds[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $t ok, ${runs:-?} executions in ${seconds}s"
  else
    echo "fuzz: $t FAILED (see $log and $build/artifacts/)"; tail -20 "$log"; status=1
  fi
done
exit $status
