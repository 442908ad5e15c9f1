#include "live_capture.h"

#include <unistd.h>

#include <QFileInfo>
#include <chrono>
#include <deque>
#include <unordered_set>

#include "qt_convert.h"
#include "tracefs_source.h"

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
}
}  // namespace

LiveCapture::LiveCapture(QObject* parent) : QObject(parent) { qRegisterMetaType<TraceSessionPtr>(); }

LiveCapture::~LiveCapture() { stop(); }

QString LiveCapture::unavailableReason() {
    if (geteuid() != 0) return tr("live capture needs root (tracefs and the sched events are root-only)");
    if (!QFileInfo::exists(QStringLiteral("/sys/kernel/tracing/events/sched")))
        return tr("tracefs is not mounted at /sys/kernel/tracing (mount -t tracefs nodev /sys/kernel/tracing)");
    return {};
}

void LiveCapture::start(const SessionPtr& topology) {
    if (running()) return;
    setTopology(topology);
    stop_ = false;
    inFlight_ = false;
    thread_ = std::thread([this] { run(); });
}

void LiveCapture::stop() {
    if (!thread_.joinable()) return;
    stop_ = true;
    wake_.notify_all();
    thread_.join();
}

void LiveCapture::setTopology(const SessionPtr& topology) {
    std::lock_guard lock(mutex_);
    topology_ = topology;
}

void LiveCapture::run() {
    auto source = tracing::TracefsSource::start();
    if (!source) {
        const QString error = qs(source.error());
        QMetaObject::invokeMethod(this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
        return;
    }
    struct Chunk {
        tracing::EventStore store;
        Clock::time_point opened;
    };
    std::deque<Chunk> chunks;
    chunks.push_back({{}, Clock::now()});
    auto lastSnapshot = Clock::now() - std::chrono::hours(1);
    while (!stop_) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, std::chrono::milliseconds(50), [this] { return stop_.load(); });
        }
        if (stop_) break;
        auto polled = (*source)->poll(chunks.back().store);
        if (!polled) {
            const QString error = qs(polled.error());
            QMetaObject::invokeMethod(this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
            return;
        }
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
        const uint64_t lost = (*source)->overruns();
        merged.finish();
        if (merged.size() == 0) continue;
        auto trace = std::make_shared<TraceSession>();
        trace->name = tr("live (last %1 s)").arg(windowSec_.load());
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
