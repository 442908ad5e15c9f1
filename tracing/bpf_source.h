#pragma once
// BpfSource: live sched events from a CO-RE BPF program (bpf/sched.bpf.c) on the sched
// tracepoints (tp_btf, falling back to raw_tp). The counterpart of TracefsSource, in two modes:
//   Stream:    compact records through a BPF ring buffer; poll() appends them to an EventStore.
//              Reservation failures are counted per CPU in the kernel and reported as
//              Anomaly::LostEvents by flushCounts().
//   Aggregate: the kernel keeps the counters (events by kind, per-(src,dst,cause) migrations,
//              run/wait log2 histograms); snapshot() reads them. No event reaches user space.
// Needs root or CAP_BPF + CAP_PERFMON and kernel BTF; unavailableReason() says which is missing.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bpf_records.h"
#include "event_store.h"
#include "util/result.h"

namespace schedscope::tracing {

enum class BpfMode : uint8_t { Stream, Aggregate };

struct BpfOptions {
    BpfMode mode = BpfMode::Stream;
    // Ring buffer size (power of two, >= 4096); stream mode only.
    uint32_t ringBytes = 16u << 20;
    // Stream mode: thread groups whose events are dropped in the kernel (the consumer's
    // wakeups would otherwise feed the trace): this process unless ignoreSelf is false (tests
    // trace their own threads), and ignoreTgid when non-zero.
    bool ignoreSelf = true;
    int32_t ignoreTgid = 0;
    // Stream mode: ring fill (bytes) at which the kernel wakes a consumer blocked in poll().
    uint32_t wakeupBytes = 1u << 20;
    // Skip tp_btf and attach the raw_tp flavour (what happens when tp_btf fails; for tests).
    bool rawTpOnly = false;
};

class BpfSource {
public:
    // "" when BPF capture can be started here, else why not (one line): built without BPF
    // support, no kernel BTF, no privileges.
    static std::string unavailableReason();
    static bool builtWithBpf();

    // Loads and attaches the program. Errors are one line (includes libbpf's last message).
    static Result<std::unique_ptr<BpfSource>> start(const BpfOptions& options = {});
    ~BpfSource();
    BpfSource(const BpfSource&) = delete;
    BpfSource& operator=(const BpfSource&) = delete;

    BpfMode mode() const;
    const char* attachKind() const;  // "tp_btf" or "raw_tp"

    // Stream mode: waits up to `timeoutMs` for the kernel's wakeup (ring filled past the
    // threshold), then drains everything buffered. Returns the number of records read.
    Result<uint64_t> poll(EventStore& store, int timeoutMs = 0);
    // The same, handing each raw record (an ssc_record or ssc_comm_record) to `sink`.
    using RecordSink = std::function<void(const void* data, size_t size)>;
    Result<uint64_t> pollRaw(const RecordSink& sink, int timeoutMs = 0);

    // Reads the counters once: fails when the kernel refuses map access (e.g. after the
    // capture helper dropped its capabilities on a kernel that checks them per call).
    Status checkReadable() const;
    // Records the ring buffer could not take, so far.
    uint64_t lost() const;
    // Adds lost records not yet reported to the store's Anomaly::LostEvents.
    void flushCounts(EventStore& store);
    // Every counter of the program (both modes count events by kind and lost records).
    AggregateSnapshot snapshot() const;

private:
    struct Impl;
    explicit BpfSource(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace schedscope::tracing
