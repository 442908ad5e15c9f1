#include "capture_signals.h"

#include <signal.h>

#include <chrono>
#include <thread>

namespace schedscope::cli {
namespace {
volatile sig_atomic_t g_stop = 0;
void onSignal(int) { g_stop = 1; }
}  // namespace

void installStopSignals() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    // the terminal closed (an ssh session dropped): stop and clean up as for Ctrl-C, rather than
    // die with the private tracefs instance still tracing and nothing written
    sigaction(SIGHUP, &sa, nullptr);
}

bool stopRequested() { return g_stop != 0; }

void sleepUnlessStopped(double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!stopRequested() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

}  // namespace schedscope::cli
