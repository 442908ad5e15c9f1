#pragma once
// CaptureClient: the unprivileged side of schedscope-capture. Reads the framed stream
// (capture_protocol.h) from a file descriptor - the helper's stdout pipe when we spawn it
// (directly, or through pkexec), or a FIFO/socket when the helper was started with sudo -
// and feeds an EventStore (stream mode) or keeps the latest aggregate snapshot.
// Bad framing is an error (the stream is then abandoned), never a crash.
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture_protocol.h"
#include "event_store.h"
#include "util/result.h"

namespace schedscope::tracing {

class CaptureClient {
public:
    // Reads from `fd` (taken over, closed by the destructor).
    explicit CaptureClient(int fd);
    // Starts `argv` (argv[0]: the helper, or pkexec/sudo followed by it) with its stdout as our
    // pipe; its stderr is inherited. Errors are one line.
    static Result<std::unique_ptr<CaptureClient>> spawn(const std::vector<std::string>& argv);
    // Reads a helper started elsewhere (e.g. with sudo): connects to its Unix socket
    // (`schedscope-capture --socket PATH`) or opens a FIFO it writes to. Errors name the path.
    static Result<std::unique_ptr<CaptureClient>> attach(const std::string& path);
    ~CaptureClient();
    CaptureClient(const CaptureClient&) = delete;
    CaptureClient& operator=(const CaptureClient&) = delete;

    // Waits up to `timeoutMs` for data, then applies every whole frame read. Returns true while
    // the capture goes on, false once it ended (End frame or EOF). An Error frame from the
    // helper or bad framing is an error.
    Result<bool> pump(EventStore& store, int timeoutMs);
    // Applies raw bytes as if read from the stream (pump() uses it; so does the fuzzer).
    Status feed(std::span<const uint8_t> bytes, EventStore& store);

    const std::optional<CaptureHello>& hello() const { return hello_; }
    bool ended() const { return ended_; }
    // Aggregate mode: the latest snapshot (nullopt before the first).
    const std::optional<AggregateSnapshot>& aggregate() const { return aggregate_; }
    // Records the kernel lost so far, as the helper reported.
    uint64_t lost() const { return lost_; }
    // Adds lost records not yet reported to the store's Anomaly::LostEvents.
    void flushCounts(EventStore& store);
    // Closes our end (the helper sees EPIPE and exits) and reaps a spawned helper; returns its
    // exit status (-1 when not spawned by us or killed by a signal).
    int close();
    // The spawned helper's exit status once it has exited, without closing anything (nullopt
    // while it runs, when it was not spawned by us, or after close()).
    std::optional<int> exitStatus();

private:
    Status onFrame(const FrameView& f, EventStore& store);
    int fd_ = -1;
    pid_t child_ = -1;
    std::optional<int> exitStatus_;
    std::vector<uint8_t> buf_;
    std::optional<CaptureHello> hello_;
    std::optional<AggregateSnapshot> aggregate_;
    uint64_t lost_ = 0, lostReported_ = 0;
    bool ended_ = false;
    bool failed_ = false;
};

}  // namespace schedscope::tracing
