#pragma once
// LiveCapture: sched events of this machine, captured on a worker thread from a LiveFeed
// (live_feed.h): in-process tracefs when we are root, else the schedscope-capture helper
// (spawned, through pkexec when needed, or attached to). The worker keeps only the last
// `windowSec` seconds (in one-second chunks, so memory stays bounded), and at most `rateHz`
// times a second builds a snapshot (merged store + TraceAnalysis) for the views; it never
// builds the next one before the GUI has taken the last, so the GUI thread only swaps pointers.
#include <QObject>
#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "live_feed.h"
#include "trace_loader.h"

namespace schedscope::gui {

class LiveCapture : public QObject {
    Q_OBJECT
public:
    explicit LiveCapture(QObject* parent = nullptr);
    ~LiveCapture() override;

    // Where events come from (set before start()): --attach-capture PATH, --capture-helper.
    void setSourceConfig(const LiveSourceConfig& config);
    LiveSourceConfig sourceConfig() const;
    LiveSourceKind sourceKind() const { return liveSourceKind(sourceConfig()); }
    // Why live capture cannot run here (one line), or empty when it can be tried: in process
    // it needs root and a mounted tracefs; through the helper, the helper and pkexec (or file
    // capabilities).
    QString unavailableReason() const;
    // Starting would ask for an administrator's password (pkexec).
    bool needsAuthentication() const { return liveNeedsAuthentication(sourceConfig()); }

    // Starts capturing; `topology` classifies migrations (set it again when it changes).
    void start(const SessionPtr& topology);
    void stop();
    bool running() const { return thread_.joinable() && !finished_; }
    void setTopology(const SessionPtr& topology);
    void setPaused(bool paused) { paused_ = paused; }
    bool paused() const { return paused_; }
    void setRateHz(int hz) { rateHz_ = std::clamp(hz, 1, 60); }
    int rateHz() const { return rateHz_; }
    void setWindowSec(int s) { windowSec_ = std::clamp(s, 1, 3600); }
    int windowSec() const { return windowSec_; }
    // The GUI has shown the last snapshot: the worker may build the next.
    void acknowledge() { inFlight_ = false; }

signals:
    void snapshot(schedscope::gui::TraceSessionPtr trace);
    void failed(const QString& error);
    // The capture goes on, but the user should know (e.g. our events were switched off).
    void warning(const QString& text);

private:
    void run();

    std::thread thread_;
    std::atomic<bool> stop_{false}, paused_{false}, inFlight_{false}, finished_{false};
    std::atomic<int> rateHz_{10}, windowSec_{30};
    mutable std::mutex mutex_;
    SessionPtr topology_;      // guarded by mutex_
    LiveSourceConfig config_;  // guarded by mutex_
};

}  // namespace schedscope::gui
