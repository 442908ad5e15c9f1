#include "stop_signal_watcher.h"

#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QSocketNotifier>
#include <array>
#include <cerrno>
#include <vector>

namespace schedscope::gui {
namespace {

constexpr std::array kStopSignals{SIGINT, SIGTERM, SIGHUP};

// [0] is written by the handler, [1] read by the notifier; -1 while no watcher is installed.
// Plain ints: all a handler may touch.
int g_stopSignalFds[2] = {-1, -1};
struct sigaction g_previousStopActions[kStopSignals.size()];

void writeStopSignal(int signal) {
    const int savedErrno = errno;  // the interrupted code may be about to read errno
    const auto byte = static_cast<unsigned char>(signal);
    // Non-blocking: when the pipe is full the earlier bytes already ask for the stop.
    [[maybe_unused]] const ssize_t written = ::write(g_stopSignalFds[0], &byte, 1);
    errno = savedErrno;
}

}  // namespace

StopSignalWatcher::StopSignalWatcher(QObject* parent) : QObject(parent) {
    if (g_stopSignalFds[0] >= 0) return;
    // Close-on-exec: the helper, pkexec and the CLI steps the app starts must not hold it.
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, g_stopSignalFds) != 0) {
        g_stopSignalFds[0] = g_stopSignalFds[1] = -1;
        return;
    }
    notifier_ = new QSocketNotifier(g_stopSignalFds[1], QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &StopSignalWatcher::drain);
    struct sigaction action {};
    action.sa_handler = writeStopSignal;
    sigemptyset(&action.sa_mask);
    // SA_RESTART: the signal lands on any thread, and the capture and loader threads' reads
    // should not fail with EINTR for it. SA_RESETHAND: one polite request per signal; the
    // second gets the default action.
    action.sa_flags = SA_RESTART | SA_RESETHAND;
    for (size_t i = 0; i < kStopSignals.size(); ++i) sigaction(kStopSignals[i], &action, &g_previousStopActions[i]);
}

StopSignalWatcher::~StopSignalWatcher() {
    if (!installed()) return;
    // handlers first: none may write to a closed (or reused) descriptor
    for (size_t i = 0; i < kStopSignals.size(); ++i) sigaction(kStopSignals[i], &g_previousStopActions[i], nullptr);
    delete notifier_;
    ::close(g_stopSignalFds[0]);
    ::close(g_stopSignalFds[1]);
    g_stopSignalFds[0] = g_stopSignalFds[1] = -1;
}

void StopSignalWatcher::drain() {
    // everything read first, then the signals: a slot may delete this watcher
    std::array<unsigned char, 16> bytes{};
    std::vector<int> arrived;
    for (ssize_t n; (n = ::read(g_stopSignalFds[1], bytes.data(), bytes.size())) > 0;)
        arrived.insert(arrived.end(), bytes.begin(), bytes.begin() + n);
    for (const int signal : arrived) emit stopRequested(signal);
}

}  // namespace schedscope::gui
