#pragma once
// SIGINT/SIGTERM during record and live: set a flag so the capture stops and tears down its
// tracefs instance instead of dying with it enabled.
#include <atomic>

namespace schedscope::cli {
// Installs the handlers (without SA_RESTART, so sleeps and waits return early).
void installStopSignals();
bool stopRequested();
// Sleeps up to `seconds`, returning early when a stop signal arrives.
void sleepUnlessStopped(double seconds);
}  // namespace schedscope::cli
