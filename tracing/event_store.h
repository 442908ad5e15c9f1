#pragma once
// EventStore: the columnar store of sched events, fed through a small append API by every
// source (trace.dat, ftrace text, live tracefs, later BPF).
//
// Resident encoding (14 bytes per event plus ~0.01 for block bases): events are partitioned by
// CPU, each partition in time order, so the per-CPU index is the partition itself and the cpu
// column costs nothing. Columns of a partition:
//   tsDelta  u32  ns since the partition's block base (one u64 base per 1024 events); an event
//                 that does not fit (gap > 4.29 s, or earlier than the base) keeps its full
//                 timestamp in a small overflow map
//   kindState u8  EventKind in the low nibble; the high nibble: TaskState (switch prev_state, 0..7)
//                 in its low 3 bits (a migration's inSchedSoftirq there instead), SchedEvent::
//                 byInterrupt (wakes) or inExec (migrations) in its top bit
//   prio     u8   SchedEvent::prio (kernel prio 0..139)
//   pid      i32  SchedEvent::pid
//   arg      i32  switch/fork/exec/swap_numa: pid2; migrate/move_numa/stick_numa: srcCpu<<16 |
//                 dstCpu; cpu_idle: cpu_id; waking/wakeup/wakeup_new: (waker + 1) << 13 |
//                 (dstCpu + 1), so the waker costs no extra column: a waker pid above 2^19 - 2
//                 (rare: PID_MAX_LIMIT is 2^22) or a target CPU outside -1..8190 is kept as
//                 unknown (-1)
// Side tables: swap_numa CPUs (rare), per-task comm history (interned), anomaly counters.
// Global time order is a k-way merge over partitions (forEach).
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "affinity_calls.h"
#include "event_schema.h"

namespace schedscope::tracing {

// Anomalies in otherwise good input, counted (never thrown) and shown to the user.
enum class Anomaly : uint8_t {
    LostEvents,      // events the ring buffer dropped (sum of the reported counts)
    LostUnknown,     // places where events were lost but the count is unknown
    OutOfOrder,      // an event older than the previous one on the same CPU (store re-sorts)
    Malformed,       // a known event whose fields could not be read
    UnknownEvent,    // a record whose event id has no format in the file
    PidReuse,        // a fork created a pid that had exited earlier in the trace
    GarbageLine,     // a text line that is not an event, header or comment
    CpuOutOfRange,   // a CPU id above the supported maximum, or past the CPUs a text trace's
                     // header names (event dropped)
    Unreadable,      // records a trace.dat's own per-CPU stats promise but that could not be read
                     // (a corrupt compressed chunk or a cut CPU buffer: libtracecmd skips them)
    Count
};
constexpr std::array<std::string_view, static_cast<size_t>(Anomaly::Count)> kAnomalyNames = {
    "lost_events", "lost_unknown", "out_of_order", "malformed", "unknown_event", "pid_reuse",
    "garbage_line", "cpu_out_of_range", "unreadable_records"};

struct EventRef {
    uint32_t cpu = 0;
    uint32_t index = 0;  // within that CPU's partition
};

class EventStore {
public:
    static constexpr int kMaxCpus = 8192;  // as the topology loaders (util/cpuset.h)

    // ---- append API (any source) ----
    void append(const SchedEvent& e);
    // An event the store does not keep (other sched_*, sched_stat_*, irq, ...), counted by name.
    void countOther(std::string_view name, uint64_t n = 1);
    void addAnomaly(Anomaly a, uint64_t n = 1);
    // Replaces a count: a file's own total that covers what the events counted.
    void setAnomaly(Anomaly a, uint64_t n) { anomalies_[static_cast<size_t>(a)] = n; }
    // The task `pid` was called `comm` at time `ts` (from switch/wakeup/fork fields); only
    // changes are stored.
    void noteComm(int32_t pid, uint64_t ts, std::string_view comm);
    // A sched_setaffinity() syscall entered or left (affinity_calls.h), kept in a side table.
    void noteAffinityCall(const AffinityCallRecord& r) { affinityCalls_.push_back(r); }
    // Sorts partitions that received out-of-order events and counts pid reuse; call when the
    // source is done (a live source may call it again after appending more).
    void finish();
    // Ring window for long live captures: drops every event with ts < beforeTs (and the comm
    // history older than the last name each task had at beforeTs), so memory stays bounded by
    // the window. Anomaly and other-event counters are kept whole. Returns the events dropped.
    size_t trim(uint64_t beforeTs);

    // ---- reading ----
    size_t size() const { return total_; }
    int cpuCount() const { return static_cast<int>(parts_.size()); }  // highest CPU id seen + 1
    size_t cpuSize(int cpu) const { return parts_[static_cast<size_t>(cpu)].pid.size(); }
    SchedEvent at(int cpu, size_t index) const;
    uint64_t tsAt(int cpu, size_t index) const;
    EventKind kindAt(int cpu, size_t index) const {
        return static_cast<EventKind>(parts_[static_cast<size_t>(cpu)].kindState[index] & 0x0f);
    }
    // Every event in global time order (ties: lower CPU first). `fn` returns false to stop.
    void forEach(const std::function<bool(const SchedEvent&)>& fn) const;

    // The trace.dat buffer (trace-cmd record -B instance) the events came from; "" for the
    // top-level buffer and for every other source.
    const std::string& buffer() const { return buffer_; }
    void setBuffer(std::string name) { buffer_ = std::move(name); }
    // Every buffer of the trace.dat the events came from, "top" first, then its instances (one
    // entry: the events are all there are); empty for other sources.
    const std::vector<std::string>& fileBuffers() const { return fileBuffers_; }
    void setFileBuffers(std::vector<std::string> names) { fileBuffers_ = std::move(names); }
    // The release of the kernel that recorded it ("6.1.0-13-amd64"), when the source says
    // (a trace.dat's uname option); "" otherwise.
    const std::string& kernelRelease() const { return kernelRelease_; }
    void setKernelRelease(std::string release) { kernelRelease_ = std::move(release); }
    // The trace clock that stamped the events ("local", "x86-tsc", ...; "" when the source does
    // not say) and whether its counts are nanoseconds. The kernel's counter, uptime (jiffies) and
    // x86-tsc (cycles) clocks are not: their traces keep event order, not durations.
    const std::string& traceClock() const { return traceClock_; }
    bool clockCountsNs() const { return clockCountsNs_; }
    void setTraceClock(std::string name, bool countsNs) {
        traceClock_ = std::move(name);
        clockCountsNs_ = countsNs;
    }

    // How many CPUs the recording covered by its own header (a trace.dat's CPU count, the
    // "cpus=N" of trace-cmd report, the "#P:N" of tracefs text); 0 when the source does not say.
    // Higher than cpuCount() when the last CPUs have no event (trace-cmd record -M).
    int recordedCpus() const { return recordedCpus_; }
    void setRecordedCpus(int n) { recordedCpus_ = n; }
    // The CPUs the recording covered: those with events and those its header names.
    int cpusCovered() const { return std::max(cpuCount(), recordedCpus_); }

    // Whether the wake events say if they ran for an interrupt (SchedEvent::byInterrupt): a
    // trace.dat's records carry their irq flags; text has them only in an irq-flags column
    // (tracefs, trace-cmd report -l), not in trace-cmd report's default lines or perf script's.
    bool irqContextKnown() const { return irqContextKnown_; }
    void setIrqContextKnown(bool known) { irqContextKnown_ = known; }

    // The sched_setaffinity() syscall records, in the order the source gave them.
    const std::vector<AffinityCallRecord>& affinityCallRecords() const { return affinityCalls_; }

    uint64_t firstTs() const { return firstTs_; }
    uint64_t lastTs() const { return lastTs_; }
    uint64_t count(EventKind k) const { return byKind_[static_cast<size_t>(k)]; }
    // The source recorded this kind of event: a count of zero then means none happened, not
    // none recorded (a trace.dat holds the formats of the events it recorded; a live capture
    // enables its own). Unknown for text sources, which only show the events they hold.
    void noteRecorded(EventKind k) { recordedKinds_ |= 1u << static_cast<unsigned>(k); }
    bool recorded(EventKind k) const { return count(k) > 0 || (recordedKinds_ >> static_cast<unsigned>(k) & 1u) != 0; }
    uint64_t anomaly(Anomaly a) const { return anomalies_[static_cast<size_t>(a)]; }
    const std::map<std::string, uint64_t, std::less<>>& otherEvents() const { return other_; }
    std::map<std::string, uint64_t> anomalyTable() const;  // every anomaly by name, zeros too
    size_t taskCount() const { return taskCount_; }          // distinct pids referenced
    // The comm of `pid` at time `ts` ("" if never named).
    std::string_view commAt(int32_t pid, uint64_t ts) const;
    // Resident bytes of columns and side tables (capacity, not size), for `bench load`.
    size_t residentBytes() const;

private:
    static constexpr uint32_t kBlock = 1024;
    static constexpr uint32_t kOverflow = 0xffffffffu;
    struct Partition {
        std::vector<uint64_t> blockBase;
        std::vector<uint32_t> tsDelta;
        std::vector<uint8_t> kindState;
        std::vector<uint8_t> prio;
        std::vector<int32_t> pid;
        std::vector<int32_t> arg;
        std::vector<uint8_t> wakerHigh;  // empty until a waker's pid needs more bits than arg holds
        std::unordered_map<uint32_t, uint64_t> tsOverflow;
        std::unordered_map<uint32_t, std::pair<int32_t, int32_t>> swapCpus;
        uint64_t lastTs = 0;
        bool unsorted = false;
    };
    struct CommChange {
        uint64_t ts;
        uint32_t id;
    };

    void notePid(int32_t pid);
    void sortPartition(Partition& p);
    static void push(Partition& p, const SchedEvent& e);
    static SchedEvent decode(const Partition& p, int cpu, size_t i);
    static uint64_t tsOf(const Partition& p, size_t i);

    std::vector<Partition> parts_;
    size_t total_ = 0;
    uint64_t firstTs_ = UINT64_MAX, lastTs_ = 0;
    std::string buffer_, kernelRelease_, traceClock_;
    std::vector<std::string> fileBuffers_;
    bool clockCountsNs_ = true;
    int recordedCpus_ = 0;
    bool irqContextKnown_ = true;
    std::array<uint64_t, kEventKindCount> byKind_{};
    uint32_t recordedKinds_ = 0;  // bit per EventKind: noteRecorded()
    static_assert(kEventKindCount <= 32);
    std::array<uint64_t, static_cast<size_t>(Anomaly::Count)> anomalies_{};
    std::map<std::string, uint64_t, std::less<>> other_;
    std::vector<uint8_t> pidSeen_;   // bit per pid: referenced by an event
    std::vector<uint8_t> pidExited_; // bit per pid: sched_process_exit seen (scratch of finish())
    struct LifeEvent {
        uint64_t ts;
        int32_t pid;
        bool fork;  // else exit
    };
    std::vector<LifeEvent> lifeEvents_;  // forks and exits until finish()
    std::vector<AffinityCallRecord> affinityCalls_;
    size_t taskCount_ = 0;
    std::vector<std::string> comms_;  // interned names
    std::unordered_map<std::string, uint32_t> commIds_;
    std::unordered_map<int32_t, std::vector<CommChange>> commHistory_;
};

}  // namespace schedscope::tracing
