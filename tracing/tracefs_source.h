#pragma once
// TracefsSource: live sched events from a private tracefs instance. poll() drains the per-CPU
// raw buffers (tracefs_iterate_raw_events, consuming) and decodes them with the same
// SchedDecoder as trace.dat files into an EventStore.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "event_store.h"
#include "util/result.h"

namespace schedscope::tracing {

class TracefsSource {
public:
    // Creates the instance, sizes each CPU's ring buffer to `bufferKb` kilobytes (0: the
    // kernel's default) and starts tracing. Errors: no root, no tracefs, a size the kernel
    // refuses (one line).
    static Result<std::unique_ptr<TracefsSource>> start(size_t bufferKb = 0);
    ~TracefsSource();

    // Appends everything buffered since the last call; returns the number of records read.
    Result<uint64_t> poll(EventStore& store);
    // Events the ring buffers overwrote so far (per_cpu/cpuN/stats "overrun").
    uint64_t overruns() const;
    // Each CPU's ring buffer in kilobytes.
    size_t bufferKb() const;
    // Moves counts of skipped events into the store (call before reading its stats).
    void flushCounts(EventStore& store);
    // One line per interference noticed since the last call (our events or tracing_on switched
    // off by another process; poll() checks once a second and switches them on again).
    std::vector<std::string> takeWarnings();

private:
    struct Impl;
    explicit TracefsSource(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace schedscope::tracing
