#pragma once
// TraceSession: a loaded (or live) trace with the topology it is read against; TraceLoader:
// reads a trace file and derives its tables on a worker thread, with real progress (the
// reader's own fraction, then the analysis stages) and cancel. Like SessionLoader, only the
// newest request is delivered, and a failure leaves whatever is open untouched.
#include <QObject>
#include <QStringList>
#include <QThreadPool>
#include <atomic>
#include <memory>

#include "session.h"
#include "task_groups.h"
#include "trace_analysis.h"

namespace schedscope::gui {

struct TraceSession {
    QString path;   // empty for live capture
    QString name;   // file name (with " [instance]" when read from a trace-cmd -B buffer), or "live"
    QString buffer; // the trace.dat buffer (trace-cmd record -B instance) read; empty: the top-level one
    QStringList fileBuffers;  // every buffer of the trace.dat, "top" first (Trace > Buffer); empty for text
    bool bufferChosen = false;  // the buffer was asked for (--buffer, Trace > Buffer), not the first with sched events
    std::shared_ptr<const TraceAnalysis> data;
    SessionPtr topology;        // the topology and domains the trace is read against
    // the trace brings its own topology, which the window shows: its sidecar's, or a flat stand-in
    // for its CPUs when it has none and the open topology is too small for it
    bool showsOwnTopology = false;
    // A file without a sidecar is read against the open topology, which may not be the machine
    // it was recorded on, or on the flat stand-in: said in the timeline's title and the status
    // bar. Empty otherwise.
    QString topologyNote;
    // read on the flat stand-in: its domains are no machine's (the banner says so)
    bool flatStandIn = false;
    bool live = false;
    uint64_t lostEvents = 0;
    // the task groups the recorder saved beside the trace (FILE.dat.groups.json), which the
    // what-if replays its tasks in; null without one, or when it could not be read (groupsError)
    std::shared_ptr<const tracing::TaskGroupSnapshot> taskGroups;
    QString groupsError;
    double loadMs = 0, analyzeMs = 0;
};
using TraceSessionPtr = std::shared_ptr<const TraceSession>;

struct TraceLoadOutcome {
    quint64 generation = 0;
    TraceSessionPtr trace;  // null on failure
    QString error;          // one line naming the file
};

// The worker side, also usable synchronously (tests). `current` is the open topology, used
// when the trace has no sidecar; `progress` gets 0..1000.
// `buffer`: the trace.dat buffer to read ("top", or an instance's name); empty: the top-level
// one, or the first instance with sched events. `onOpenTopology`: the user named the machine
// with the trace (schedscope FILE --preset NAME): read against `current` even when the trace
// has a sidecar, as `trace stats FILE --preset NAME` does, when the trace fits it.
TraceLoadOutcome loadTraceSession(const QString& path, const SessionPtr& current, const DomainChoices& choices,
                                  const std::function<void(int, const QString&)>& progress = {},
                                  const std::atomic<bool>* cancel = nullptr, const QString& buffer = {},
                                  bool onOpenTopology = false);

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void load(const QString& path, const SessionPtr& current, const DomainChoices& choices, const QString& buffer = {},
              bool onOpenTopology = false);
    void cancel();
    bool busy() const { return pending_ > 0; }

signals:
    void started(const QString& what);
    void progress(int permille, const QString& stage);
    void loaded(schedscope::gui::TraceSessionPtr trace);
    void failed(const QString& error);
    void idle();

private:
    QThreadPool pool_;
    quint64 generation_ = 0;
    int pending_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace schedscope::gui

Q_DECLARE_METATYPE(schedscope::gui::TraceSessionPtr)
