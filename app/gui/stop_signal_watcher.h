#pragma once
// StopSignalWatcher: SIGINT, SIGTERM and SIGHUP as a Qt signal on the GUI thread, so the app can
// end the way closing its window does and its destructors run: the live capture stops and
// removes its tracefs instance, which the default action (death on the spot) left tracing.
// A signal handler may call almost nothing (no Qt, no locks, no allocation): it writes the
// signal's number to a socket pair, and a QSocketNotifier on the other end reads it in the
// event loop (the self-pipe trick, as Qt's "Calling Qt Functions From Unix Signal Handlers").
#include <QObject>

class QSocketNotifier;

namespace schedscope::gui {

class StopSignalWatcher : public QObject {
    Q_OBJECT
public:
    // Installs the handlers. One watcher per process: a second one (or a failed socketpair())
    // installs nothing, and installed() says so.
    explicit StopSignalWatcher(QObject* parent = nullptr);
    // Puts back the handlers that were there before.
    ~StopSignalWatcher() override;
    StopSignalWatcher(const StopSignalWatcher&) = delete;
    StopSignalWatcher& operator=(const StopSignalWatcher&) = delete;

    bool installed() const { return notifier_ != nullptr; }

signals:
    // Once per signal that arrived (SIGINT, SIGTERM or SIGHUP). Each handler is one-shot: the
    // same signal again gets its default action, so a shutdown that hangs can still be ended.
    void stopRequested(int signal);

private:
    void drain();

    QSocketNotifier* notifier_ = nullptr;
};

}  // namespace schedscope::gui
