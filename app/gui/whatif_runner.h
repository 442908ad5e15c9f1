#pragma once
// WhatIfRunner: runs a WhatIfRequest off the GUI thread. First the setup (topology load,
// workload parse, both domain trees), then every (setting, seed) simulation, one per core at
// once, off and on interleaved so a cancelled experiment still compares both sides. Progress
// counts finished simulations; advanced() also counts the share of the simulated time the runs
// in flight have done, a few times a second, with the time left at that rate. cancel() answers
// at once: the experiment is reported as cancelled with the runs finished so far, and the
// simulations in flight stop and are dropped.
#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <memory>
#include <vector>

#include "session.h"
#include "whatif_run.h"

class QTimer;
template <typename T>
class QFutureWatcher;

namespace schedscope::gui {

struct WhatIfSetupOutcome {
    std::shared_ptr<const WhatIfSetup> setup;  // null on failure
    std::string error;
    SessionPtr sessions[2];  // the topology with each setting's domains, for the heat views
};

class WhatIfRunner : public QObject {
    Q_OBJECT
public:
    explicit WhatIfRunner(QObject* parent = nullptr);
    ~WhatIfRunner() override;

    // Starts an experiment; a running one is cancelled first.
    void start(const WhatIfRequest& request);
    void cancel();
    bool busy() const { return busy_; }
    const WhatIfResult& result() const { return result_; }  // the latest (possibly partial) result
    // The topology with the domains of setting 0 (off) or 1 (on); null before the setup is done.
    SessionPtr session(int setting) const { return sessions_[setting & 1]; }

signals:
    void started(int totalRuns);
    void progress(int finishedRuns, int totalRuns);
    // How many runs' worth of simulated time is done (finished runs count whole, those in
    // flight by their share), and the wall time left at the rate so far ("about 40 s left"; empty
    // while there is no rate yet). Every 250 ms while the runs go.
    void advanced(double runsDone, int totalRuns, const QString& timeLeft);
    // Emitted once per experiment: done, cancelled or failed (result().error).
    void finished();

private:
    void startRuns(const WhatIfSetupOutcome& outcome);
    void finish();
    void reportAdvance();

    QThreadPool pool_;
    QFutureWatcher<WhatIfSetupOutcome>* prepareWatcher_ = nullptr;
    QFutureWatcher<WhatIfRun>* runWatcher_ = nullptr;
    WhatIfResult result_;
    SessionPtr sessions_[2];
    int total_ = 0;
    bool busy_ = false;
    // per run of the experiment: the share of its simulated time done, written by the workers
    // (shared with them: a cancelled experiment's workers may still write while it winds down)
    std::shared_ptr<std::vector<std::atomic<double>>> shares_;
    QTimer* advanceTimer_;
    QElapsedTimer runsClock_;
};

}  // namespace schedscope::gui
