#!/usr/bin/env bash
# The README's two quick-start commands:
#   packaging/dev.sh run  [ARGS...]  install what is missing, build, launch schedscope (ARGS passed on)
#   packaging/dev.sh test            the same set-up, then every test through ctest
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
    ctest --preset "$preset" -j "$(nproc)"
    ;;
  *) echo "usage: packaging/dev.sh run|test" >&2; exit 2 ;;
esac
