#include "bpf_records.h"

#include <cstring>
#include <string_view>

namespace schedscope::tracing {
namespace {

TaskState stateOf(uint8_t s) {
    static constexpr char kChars[] = "RSDTtXZPI";
    return s < sizeof kChars - 1 ? taskStateFromChar(kChars[s]) : TaskState::Unknown;
}

std::array<uint64_t, SSC_HIST_BUCKETS> sum(const std::vector<std::array<uint64_t, SSC_HIST_BUCKETS>>& per) {
    std::array<uint64_t, SSC_HIST_BUCKETS> out{};
    for (const auto& h : per)
        for (size_t b = 0; b < out.size(); ++b) out[b] += h[b];
    return out;
}

}  // namespace

std::optional<EventKind> eventKindOfRecord(uint8_t kind) {
    switch (kind) {
        case SSC_SWITCH: return EventKind::Switch;
        case SSC_WAKING: return EventKind::Waking;
        case SSC_WAKEUP: return EventKind::Wakeup;
        case SSC_WAKEUP_NEW: return EventKind::WakeupNew;
        case SSC_MIGRATE: return EventKind::MigrateTask;
        case SSC_FORK: return EventKind::ProcessFork;
        case SSC_EXIT: return EventKind::ProcessExit;
        case SSC_EXEC: return EventKind::ProcessExec;
        default: return std::nullopt;
    }
}

void noteRecordKinds(EventStore& store) {
    for (int k = 0; k < SSC_KIND_COUNT; ++k)
        if (const auto kind = eventKindOfRecord(static_cast<uint8_t>(k))) store.noteRecorded(*kind);
}

size_t recordSize(uint8_t kind) {
    if (kind == SSC_COMM) return sizeof(ssc_comm_record);
    return kind < SSC_KIND_COUNT ? sizeof(ssc_record) : 0;
}

bool applyRecord(const void* data, size_t size, EventStore& store) {
    ssc_record r;
    if (size < sizeof r) {
        store.addAnomaly(Anomaly::Malformed);
        return false;
    }
    std::memcpy(&r, data, sizeof r);
    if (recordSize(r.kind) != size) {
        store.addAnomaly(Anomaly::Malformed);
        return false;
    }
    if (r.kind == SSC_COMM) {
        char comm[17] = {};
        std::memcpy(comm, static_cast<const char*>(data) + sizeof r, 16);
        store.noteComm(r.pid, r.ts, std::string_view(comm, strnlen(comm, 16)));
        return true;
    }
    SchedEvent e;
    e.ts = r.ts;
    e.cpu = r.cpu;
    e.kind = *eventKindOfRecord(r.kind);
    e.pid = r.pid;
    e.prio = r.prio;
    switch (r.kind) {
        case SSC_SWITCH:
            e.pid2 = r.arg;
            e.state = stateOf(r.state);
            break;
        case SSC_FORK:
        case SSC_EXEC:  // the child; the old pid
            e.pid2 = r.arg;
            break;
        case SSC_MIGRATE:
            e.srcCpu = static_cast<int32_t>(static_cast<uint32_t>(r.arg) >> 16);
            e.dstCpu = static_cast<int32_t>(static_cast<uint32_t>(r.arg) & 0xffffu);
            e.inExec = (r.state & SSC_MIGRATE_IN_EXEC) != 0;
            e.inSchedSoftirq = (r.state & SSC_MIGRATE_IN_SCHED_SOFTIRQ) != 0;
            break;
        case SSC_WAKING:
        case SSC_WAKEUP:
        case SSC_WAKEUP_NEW:
            e.dstCpu = r.arg;
            e.waker = static_cast<int32_t>(r.waker[0] | r.waker[1] << 8 | r.waker[2] << 16) - 1;
            e.byInterrupt = (r.state & SSC_WAKE_BY_INTERRUPT) != 0;
            break;
        default:
            break;
    }
    store.append(e);
    return true;
}

uint64_t AggregateSnapshot::totalEvents() const {
    uint64_t n = 0;
    for (uint64_t k : eventsByKind) n += k;
    return n;
}

std::array<uint64_t, SSC_HIST_BUCKETS> AggregateSnapshot::runTotal() const { return sum(runHist); }
std::array<uint64_t, SSC_HIST_BUCKETS> AggregateSnapshot::waitTotal() const { return sum(waitHist); }

uint64_t histQuantileNs(const std::array<uint64_t, SSC_HIST_BUCKETS>& h, double q) {
    uint64_t total = 0;
    for (uint64_t v : h) total += v;
    if (total == 0) return 0;
    const auto want = static_cast<uint64_t>(q * static_cast<double>(total));
    uint64_t seen = 0;
    for (size_t b = 0; b < h.size(); ++b) {
        seen += h[b];
        if (seen > want || b + 1 == h.size()) return 2ull << b;
    }
    return 0;
}

}  // namespace schedscope::tracing
