#include "live_feed.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "bpf_source.h"
#include "capture_client.h"
#include "capture_launch.h"
#include "tracefs_instance.h"
#include "tracefs_source.h"

namespace schedscope::gui {
namespace {

using tracing::CaptureClient;

class TracefsFeed final : public LiveFeed {
public:
    explicit TracefsFeed(std::unique_ptr<tracing::TracefsSource> s) : source_(std::move(s)) {}
    Result<bool> poll(tracing::EventStore& store, int waitMs) override {
        // tracefs has no wakeup we could wait on: sleep, then drain what was buffered.
        std::this_thread::sleep_for(std::chrono::milliseconds(waitMs));
        auto n = source_->poll(store);
        if (!n) return Error{n.error()};
        return true;
    }
    uint64_t lost() const override { return source_->overruns(); }
    void flushCounts(tracing::EventStore& store) override { source_->flushCounts(store); }
    std::string label() const override { return "tracefs"; }
    size_t bufferKb() const override { return source_->bufferKb(); }
    std::vector<std::string> takeWarnings() override { return source_->takeWarnings(); }

private:
    std::unique_ptr<tracing::TracefsSource> source_;
};

class HelperFeed final : public LiveFeed {
public:
    HelperFeed(std::unique_ptr<CaptureClient> c, std::string label, bool viaPkexec)
        : client_(std::move(c)), label_(std::move(label)), viaPkexec_(viaPkexec) {}
    Result<bool> poll(tracing::EventStore& store, int waitMs) override {
        auto r = client_->pump(store, waitMs);
        if (!r) {
            // Ended before its hello without an error frame of its own: pkexec said no, or the
            // helper could not start. Its exit status tells which.
            const bool early = !client_->hello();
            const int status = client_->close();
            if (early && (status == 126 || status == 127 || status == 2)) return Error{tracing::helperExitText(status, viaPkexec_)};
            return Error{r.error()};
        }
        if (!*r) {
            const int status = client_->close();
            ended_ = client_->hello() && status <= 0 ? "the capture helper exited"
                                                    : tracing::helperExitText(status, viaPkexec_);
            return false;
        }
        return true;
    }
    uint64_t lost() const override { return client_->lost(); }
    void flushCounts(tracing::EventStore& store) override { client_->flushCounts(store); }
    std::string label() const override { return label_; }
    std::string endedText() const override { return ended_; }

private:
    std::unique_ptr<CaptureClient> client_;
    std::string label_;
    bool viaPkexec_;
    std::string ended_ = "the capture helper exited";
};

std::string helperUnavailableReason() {
    if (!tracing::BpfSource::builtWithBpf()) return "live capture through schedscope-capture needs a build with BPF support";
    const std::string helper = tracing::findCaptureHelper();
    if (helper.empty()) return "schedscope-capture was not found next to schedscope (or in $SCHEDSCOPE_CAPTURE)";
    auto cmd = tracing::helperCommand(helper, {});
    if (!cmd) return cmd.error();
    return "";
}

}  // namespace

uint32_t helperRingMbFor(size_t bufferKb, unsigned cpus) {
    const uint64_t kb = static_cast<uint64_t>(bufferKb) * std::max(1u, cpus);
    uint32_t mb = 1;
    while (mb < 256 && uint64_t{mb} * 1024 < kb) mb *= 2;
    return mb;
}

LiveSourceKind liveSourceKind(const LiveSourceConfig& config) {
    if (!config.attachPath.empty()) return LiveSourceKind::Attach;
    if (config.forceHelper || geteuid() != 0) return LiveSourceKind::Helper;
    return LiveSourceKind::InProcess;
}

std::string liveUnavailableReason(const LiveSourceConfig& config) {
    switch (liveSourceKind(config)) {
        case LiveSourceKind::Attach: return "";
        case LiveSourceKind::Helper: return helperUnavailableReason();
        case LiveSourceKind::InProcess: return tracing::tracefsUnavailableReason();
    }
    return "";
}

bool liveNeedsAuthentication(const LiveSourceConfig& config) {
    if (liveSourceKind(config) != LiveSourceKind::Helper) return false;
    const std::string helper = tracing::findCaptureHelper();
    if (helper.empty()) return false;
    auto cmd = tracing::helperCommand(helper, {});
    return cmd && cmd->viaPkexec;
}

Result<std::unique_ptr<LiveFeed>> openLiveFeed(const LiveSourceConfig& config) {
    switch (liveSourceKind(config)) {
        case LiveSourceKind::InProcess: {
            auto s = tracing::TracefsSource::start(config.bufferKb);
            if (!s) return Error{s.error()};
            return std::unique_ptr<LiveFeed>(std::make_unique<TracefsFeed>(std::move(*s)));
        }
        case LiveSourceKind::Attach: {
            auto c = CaptureClient::attach(config.attachPath);
            if (!c) return Error{c.error()};
            return std::unique_ptr<LiveFeed>(std::make_unique<HelperFeed>(std::move(*c), "BPF via " + config.attachPath, false));
        }
        case LiveSourceKind::Helper: {
            if (auto why = helperUnavailableReason(); !why.empty()) return Error{why};
            // Our own pid is ignored in the kernel: each read of the pipe is a wakeup that
            // would otherwise feed the trace.
            std::vector<std::string> args = {"--mode", "stream", "--interval-ms", "50", "--ignore-pid", std::to_string(getpid())};
            if (config.bufferKb > 0)
                args.insert(args.end(), {"--ring-mb", std::to_string(helperRingMbFor(config.bufferKb, std::thread::hardware_concurrency()))});
            auto cmd = tracing::helperCommand(tracing::findCaptureHelper(), args);
            if (!cmd) return Error{cmd.error()};
            auto c = CaptureClient::spawn(cmd->argv);
            if (!c) return Error{c.error()};
            return std::unique_ptr<LiveFeed>(std::make_unique<HelperFeed>(
                std::move(*c), cmd->viaPkexec ? "BPF via pkexec schedscope-capture" : "BPF via schedscope-capture", cmd->viaPkexec));
        }
    }
    return Error{"unknown live source"};
}

}  // namespace schedscope::gui
