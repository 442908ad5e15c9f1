#pragma once
// The compact records of the BPF program (bpf/sched_record.h) in user space: their decoding
// into EventStore events, and the aggregate-mode snapshot. No libbpf here, so the capture
// client (which only reads records from a pipe) builds without BPF support too.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "bpf/sched_record.h"
#include "event_store.h"
#include "migration_causes.h"

namespace schedscope::tracing {

static_assert(sizeof(ssc_record) == 24 && sizeof(ssc_comm_record) == 40, "ssc_record layout is the protocol");
static_assert(SSC_CAUSE_COUNT == static_cast<int>(MigrationCause::Count));
static_assert(SSC_CAUSE_WAKEUP == static_cast<int>(MigrationCause::Wakeup) &&
              SSC_CAUSE_FORK == static_cast<int>(MigrationCause::Fork) &&
              SSC_CAUSE_LB_PERIODIC == static_cast<int>(MigrationCause::LoadBalancePeriodic) &&
              SSC_CAUSE_LB_NEWIDLE == static_cast<int>(MigrationCause::LoadBalanceNewidle) &&
              SSC_CAUSE_LB_ACTIVE == static_cast<int>(MigrationCause::LoadBalanceActive) &&
              SSC_CAUSE_NUMA == static_cast<int>(MigrationCause::Numa) &&
              SSC_CAUSE_AFFINITY == static_cast<int>(MigrationCause::Affinity) &&
              SSC_CAUSE_EXEC == static_cast<int>(MigrationCause::Exec));

// The EventKind of a record kind; nullopt for SSC_COMM and unknown kinds.
std::optional<EventKind> eventKindOfRecord(uint8_t kind);
// Marks every kind the records carry as recorded in `store` (EventStore::noteRecorded()): a
// record stream (the BPF program's, or a capture helper's) sends them all as they happen.
void noteRecordKinds(EventStore& store);
// Bytes of a record given its kind byte (24, or 40 for SSC_COMM); 0 for an unknown kind.
size_t recordSize(uint8_t kind);
// Decodes one record of `size` bytes (as from the ring buffer or a protocol frame) into the
// store: an event, or a comm change. Returns false (and counts Anomaly::Malformed) when the
// size or kind is wrong.
bool applyRecord(const void* data, size_t size, EventStore& store);

// One in-kernel migration counter.
struct MigrationCount {
    int src = -1;
    int dst = -1;
    MigrationCause cause = MigrationCause::Affinity;
    uint64_t count = 0;
};

// Aggregate mode: everything the kernel counted since the program was loaded (cumulative).
struct AggregateSnapshot {
    std::array<uint64_t, kEventKindCount> eventsByKind{};  // tracepoint hits per EventKind
    uint64_t lost = 0;                                      // ring buffer reservations that failed
    std::vector<MigrationCount> migrations;                 // sorted by (src, dst, cause)
    // Per CPU log2 histograms (bucket b: [2^b, 2^(b+1)) ns): run time of each slice, and
    // runnable -> running latency. Indexed [cpu][bucket].
    std::vector<std::array<uint64_t, SSC_HIST_BUCKETS>> runHist, waitHist;

    uint64_t totalEvents() const;
    // Histograms summed over CPUs.
    std::array<uint64_t, SSC_HIST_BUCKETS> runTotal() const;
    std::array<uint64_t, SSC_HIST_BUCKETS> waitTotal() const;
};

// Upper bound (ns) of the log2 bucket holding the given quantile (0..1) of a histogram; 0 when
// the histogram is empty.
uint64_t histQuantileNs(const std::array<uint64_t, SSC_HIST_BUCKETS>& h, double q);

}  // namespace schedscope::tracing
