#pragma once
// SessionLoader: loads topologies and builds their domains on a worker thread.
// Requests return at once; the result arrives on the GUI thread as a queued signal. Only the
// newest request's result is delivered, so a slow stale load never overwrites a newer one.
// Loads run one at a time (hwloc loaders use process-wide state such as HWLOC_FSROOT).
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include "session.h"

namespace schedscope::gui {

struct LoadOutcome {
    quint64 generation = 0;
    SessionPtr session;  // null on failure
    QString error;       // one line, names the input
};

class ProgressRelay;

class SessionLoader : public QObject {
    Q_OBJECT
public:
    explicit SessionLoader(QObject* parent = nullptr);
    ~SessionLoader() override;

    // Loads the topology named by `spec` and builds its domains.
    void load(const TopologySpec& spec, const DomainChoices& choices);
    // Rebuilds the domains of an already loaded topology with other choices (no reload).
    void rebuild(const SessionPtr& from, const DomainChoices& choices);
    bool busy() const { return pending_ > 0; }

signals:
    void started(const QString& what);
    void progress(int value, int maximum, const QString& stage);
    void loaded(schedscope::gui::SessionPtr session);
    void failed(const QString& error);
    void idle();

private:
    ProgressRelay* progressRelay(quint64 gen);
    void submit(const QFuture<LoadOutcome>& future, ProgressRelay* relay, const QString& what);

    QThreadPool pool_;
    quint64 generation_ = 0;
    int pending_ = 0;
};

// The worker side, also usable synchronously (tests): load, build, validate.
LoadOutcome loadSession(const TopologySpec& spec, const DomainChoices& choices,
                        const std::function<void(int, const QString&)>& stage = {});
LoadOutcome rebuildSession(const SessionPtr& from, const DomainChoices& choices,
                           const std::function<void(int, const QString&)>& stage = {});
// A session for a topology already in memory (a trace's sidecar); `spec` only names it.
LoadOutcome sessionFromTopology(Topology topology, const TopologySpec& spec, const DomainChoices& choices,
                                const std::function<void(int, const QString&)>& stage = {});

}  // namespace schedscope::gui
