#!/usr/bin/env bash
# The README's two quick-start commands:
#   packaging/dev.sh run  [ARGS...]  install what is missing, build, launch schedscope (ARGS passed on)
#   packaging/dev.sh test            the same set-up, then every test through ctest
#   SCHEDSCOPE_SANITIZERS=1 packaging/dev.sh test   also the core, tracing, CLI and hardening
#                                    tests under ASan+UBSan and a 10 s libFuzzer run per target
#                                    (off by default: it compiles everything twice more, which does
#                                    not fit CI's 2-core time budget)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
mode=${1:-run}; shift || true
preset=${SCHEDSCOPE_PRESET:-release}

bash packaging/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"

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
    # Sanitizers (SCHEDSCOPE_SANITIZERS=1): the libraries and
    # their tests (label 'sanitized': core, tracing, cli, hardening; the simulator's long runs
    # stay release-only) under ASan+UBSan without the GUI, then a 10 s libFuzzer run per target. The
    # release suite runs last so its ctest summary closes the log.
    if [ "${SCHEDSCOPE_SANITIZERS:-0}" != 0 ]; then
      t0=$SECONDS
      cmake --preset asan -DSCHEDSCOPE_BUILD_GUI=OFF -DSCHEDSCOPE_WERROR=ON >/dev/null
      cmake --build --preset asan -j "$(nproc)" --target core_tests tracing_tests cli_tests hardening_tests
      LSAN_OPTIONS=suppressions=$here/tests/sanitizers/lsan.supp ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --preset asan -j "$(nproc)" -L sanitized
      t1=$SECONDS
      FUZZ_SEED=1 bash tests/fuzz/run.sh 10
      echo "dev.sh: sanitizer stage $((t1 - t0)) s, fuzz smoke $((SECONDS - t1)) s"
    fi
    ctest --preset "$preset" -j "$(nproc)"
    ;;
  *) echo "usage: packaging/dev.sh run|test" >&2; exit 2 ;;
esac
