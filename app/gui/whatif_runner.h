#pragma once
// WhatIfRunner: runs a WhatIfRequest off the GUI thread. First the setup (topology load,
// workload parse, both domain trees), then every (setting, seed) simulation, one per core at
// once, off and on interleaved so a cancelled experiment still compares both sides. Progress
// counts finished simulations. cancel() answers at once: the experiment is reported as
// cancelled with the runs finished so far, and the simulations in flight stop and are dropped.
#include <QFuture>
#include <QObject>
#include <QThreadPool>

#include "session.h"
#include "whatif_run.h"

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
    // Emitted once per experiment: done, cancelled or failed (result().error).
    void finished();

private:
    void startRuns(const WhatIfSetupOutcome& outcome);
    void finish();

    QThreadPool pool_;
    QFutureWatcher<WhatIfSetupOutcome>* prepareWatcher_ = nullptr;
    QFutureWatcher<WhatIfRun>* runWatcher_ = nullptr;
    WhatIfResult result_;
    SessionPtr sessions_[2];
    int total_ = 0;
    bool busy_ = false;
};

}  // namespace schedscope::gui
