#include "live_capture.h"

#include <QFileInfo>
#include <chrono>
#include <deque>
#include <unordered_set>

#include "lost_events.h"
#include "qt_convert.h"

namespace schedscope::gui {
namespace {
using Clock = std::chrono::steady_clock;

// Caps the events kept whatever the window, so a storm cannot exhaust memory.
constexpr size_t kMaxLiveEvents = 20'000'000;

// Copies a chunk's events (and the names of their tasks) into `out`.
void appendChunk(const tracing::EventStore& chunk, tracing::EventStore& out) {
    std::unordered_set<int32_t> named;
    chunk.forEach([&](const tracing::SchedEvent& e) {
        out.append(e);
        for (int32_t pid : {e.pid, e.kind == tracing::EventKind::Switch ? e.pid2 : -1}) {
            if (pid < 0 || !named.insert(pid).second) continue;
            const auto comm = chunk.commAt(pid, chunk.lastTs());
            if (!comm.empty()) out.noteComm(pid, e.ts, comm);
        }
        return true;
    });
    for (const auto& [name, n] : chunk.otherEvents()) out.countOther(name, n);
    // what the capture recorded, events or none: no migration in the window is then no
    // migration, not a trace to infer them from the switches of
    for (int k = 0; k < tracing::kEventKindCount; ++k)
        if (const auto kind = static_cast<tracing::EventKind>(k); chunk.recorded(kind)) out.noteRecorded(kind);
}
}  // namespace

LiveCapture::LiveCapture(QObject* parent) : QObject(parent) {
    qRegisterMetaType<TraceSessionPtr>();
    // Helper mode even as root, e.g. to test the unprivileged path on a root-only box.
    config_.forceHelper = qEnvironmentVariableIntValue("SCHEDSCOPE_CAPTURE_HELPER") != 0;
}

LiveCapture::~LiveCapture() { stop(); }

void LiveCapture::setSourceConfig(const LiveSourceConfig& config) {
    std::lock_guard lock(mutex_);
    config_ = config;
}

LiveSourceConfig LiveCapture::sourceConfig() const {
    std::lock_guard lock(mutex_);
    return config_;
}

QString LiveCapture::unavailableReason() const {
    const LiveSourceConfig config = sourceConfig();
    if (liveSourceKind(config) == LiveSourceKind::InProcess &&
        !QFileInfo::exists(QStringLiteral("/sys/kernel/tracing/events/sched")))
        return tr("tracefs is not mounted at /sys/kernel/tracing (mount -t tracefs nodev /sys/kernel/tracing)");
    return qs(liveUnavailableReason(config));
}

void LiveCapture::start(const SessionPtr& topology) {
    if (thread_.joinable()) {
        if (!finished_) return;
        thread_.join();  // a capture that failed or ended: start afresh
    }
    setTopology(topology);
    stop_ = false;
    inFlight_ = false;
    finished_ = false;
    thread_ = std::thread([this] {
        run();
        finished_ = true;
    });
}

void LiveCapture::stop() {
    if (!thread_.joinable()) return;
    stop_ = true;
    thread_.join();
}

void LiveCapture::setTopology(const SessionPtr& topology) {
    std::lock_guard lock(mutex_);
    topology_ = topology;
}

void LiveCapture::run() {
    auto fail = [this](const std::string& why) {
        const QString error = qs(why);
        QMetaObject::invokeMethod(this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
    };
    auto source = openLiveFeed(sourceConfig());
    if (!source) return fail(source.error());
    const QString label = qs((*source)->label());
    struct Chunk {
        tracing::EventStore store;
        Clock::time_point opened;
    };
    std::deque<Chunk> chunks;
    chunks.push_back({{}, Clock::now()});
    auto lastSnapshot = Clock::now() - std::chrono::hours(1);
    bool lossNoted = false;  // the banner says once what was lost and the buffer that keeps more
    while (!stop_) {
        // Waits at most 50 ms (for tracefs: sleeps), so stop() is answered quickly.
        auto polled = (*source)->poll(chunks.back().store, 50);
        if (!polled) return fail(polled.error());
        if (!*polled) return fail((*source)->endedText());
        for (const auto& w : (*source)->takeWarnings()) {
            const QString text = qs(w);
            QMetaObject::invokeMethod(this, [this, text] { emit warning(text); }, Qt::QueuedConnection);
        }
        if (stop_) break;
        const auto now = Clock::now();
        if (paused_) {  // keep draining the buffers, show nothing new
            while (chunks.size() > 1) chunks.pop_front();
            chunks.back().store = {};
            continue;
        }
        if (now - chunks.back().opened >= std::chrono::seconds(1)) {
            chunks.back().store.finish();
            chunks.push_back({{}, now});
        }
        size_t total = 0;
        for (const auto& c : chunks) total += c.store.size();
        while (chunks.size() > 1 && (now - chunks.front().opened > std::chrono::seconds(windowSec_.load() + 1) ||
                                     total > kMaxLiveEvents)) {
            total -= chunks.front().store.size();
            chunks.pop_front();
        }
        if (inFlight_ || now - lastSnapshot < std::chrono::milliseconds(1000 / std::max(1, rateHz_.load()))) continue;
        SessionPtr topology;
        {
            std::lock_guard lock(mutex_);
            topology = topology_;
        }
        if (!topology || !topology->tree) continue;
        lastSnapshot = now;
        tracing::EventStore merged;
        for (auto& c : chunks) {
            if (&c == &chunks.back()) c.store.finish();
            appendChunk(c.store, merged);
        }
        (*source)->flushCounts(merged);
        const uint64_t lost = (*source)->lost();
        if (lost > 0 && !lossNoted) {
            lossNoted = true;
            const QString text = tr("Live capture: %1 (schedscope --buffer-kb N sets it at start)").arg(qs(tracing::lostEventsAdvice(lost, (*source)->bufferKb())));
            QMetaObject::invokeMethod(this, [this, text] { emit warning(text); }, Qt::QueuedConnection);
        }
        merged.finish();
        if (merged.size() == 0) continue;
        auto trace = std::make_shared<TraceSession>();
        trace->name = tr("live, %1 (last %2 s)").arg(label).arg(windowSec_.load());
        trace->live = true;
        trace->lostEvents = lost;
        trace->topology = topology;
        const auto t0 = Clock::now();
        AnalysisOptions ao;
        ao.cancel = &stop_;
        trace->data = analyzeTrace(std::make_shared<const tracing::EventStore>(std::move(merged)), *topology->tree, ao);
        if (!trace->data) break;
        trace->analyzeMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        inFlight_ = true;
        TraceSessionPtr shared = trace;
        QMetaObject::invokeMethod(this, [this, shared] { emit snapshot(shared); }, Qt::QueuedConnection);
    }
}

}  // namespace schedscope::gui
