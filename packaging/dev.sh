#!/usr/bin/env bash
# The README's two quick-start commands:
#   packaging/dev.sh run  [ARGS...]  install what is missing, build, launch schedscope (ARGS passed on)
#   packaging/dev.sh test            the same set-up, then every test through ctest
#   The test command also builds the sanitize preset (clang, ASan+UBSan, fuzzer coverage) and runs
#   the library tests under it, a short libFuzzer run per target and clang-tidy on the newest
#   commit's files. SCHEDSCOPE_SANITIZERS=0 skips that stage (e.g. for a quick local run).
#   FUZZ_SECONDS sets the per-target fuzz time (default 6: a smoke test; the campaigns are
#   tests/fuzz/run.sh's, and the crashes they found run as regression tests).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
mode=${1:-run}; shift || true
preset=${SCHEDSCOPE_PRESET:-release}

bash packaging/install-deps.sh
t_deps=$SECONDS
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
t_build=$SECONDS

case "$mode" in
  run)
    bin=build/$preset/app
    if [ -x "$bin/gui/schedscope" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ] || [ "${QT_QPA_PLATFORM:-}" = offscreen ]; }; then
      exec "$bin/gui/schedscope" "$@"
    fi
    if [ -x "$bin/gui/schedscope" ]; then
      echo "schedscope: no display (DISPLAY/WAYLAND_DISPLAY unset); showing this machine's sched domains instead:" >&2
    fi
    exec "$bin/cli/schedscope-cli" domains --local "$@"
    ;;
  test)
    # Live-capture tests need tracefs; mount it when we may (they skip with a reason otherwise).
    if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing ] && [ ! -e /sys/kernel/tracing/trace ]; then
      mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || echo "dev.sh: cannot mount tracefs; live tests will skip" >&2
    fi
    export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/runtime-$(id -un)}
    mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
    # Release suite first; then the sanitizer stage, whose summary line closes the log.
    status=0
    ctest --preset "$preset" -j "$(nproc)" || status=$?
    echo "dev.sh: install-deps ${t_deps} s, $preset build $((t_build - t_deps)) s, $preset tests $((SECONDS - t_build)) s"
    if [ "${SCHEDSCOPE_SANITIZERS:-1}" != 0 ]; then
      t0=$SECONDS
      bash tests/tidy/run.sh "${TIDY_BASE:-HEAD~1}" || status=$?
      t1=$SECONDS
      # One clang build serves both: the 'sanitized' tests (tests/CMakeLists.txt's
      # sanitized_tests: core, tracing, CLI, hardening, the simulator and replay) and the fuzz targets.
      cmake --preset sanitize >/dev/null
      fuzzers=$(sed -n 's/^schedscope_fuzz_target(\([a-z_]*\) .*/\1/p' tests/fuzz/CMakeLists.txt)
      # shellcheck disable=SC2086
      cmake --build --preset sanitize -j "$(nproc)" --target sanitized_tests $fuzzers
      # (the preset sets ASAN/LSAN/UBSAN_OPTIONS with the suppression files)
      ctest --preset sanitize -j "$(nproc)" || status=$?
      t2=$SECONDS
      FUZZ_SEED=1 FUZZ_JOBS=$(nproc) bash tests/fuzz/run.sh "${FUZZ_SECONDS:-6}" || status=$?
      echo "dev.sh: clang-tidy $((t1 - t0)) s, sanitizer build+tests $((t2 - t1)) s, fuzz $((SECONDS - t2)) s"
    fi
    [ $status -eq 0 ] && echo "dev.sh: all test stages passed" || echo "dev.sh: FAILED (see above)"
    exit $status
    ;;
  *) echo "usage: packaging/dev.sh run|test" >&2; exit 2 ;;
esac
