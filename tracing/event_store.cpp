#include "event_store.h"

#include <algorithm>
#include <numeric>
#include <queue>

namespace schedscope::tracing {
namespace {

bool usesPackedCpus(EventKind k) {
    return k == EventKind::MigrateTask || k == EventKind::MoveNuma || k == EventKind::StickNuma;
}
bool usesPid2(EventKind k) {
    return k == EventKind::Switch || k == EventKind::ProcessFork || k == EventKind::ProcessExec ||
           k == EventKind::SwapNuma;
}
// Wake events: the target CPU + 1 in the arg column's low 14 bits (8192 CPUs), the waker + 1 in
// its high 18 (0 means unknown for both). A waker's pid can be up to 2^22 - 1 (systemd raises
// pid_max to PID_MAX_LIMIT on 64-bit machines, so a long-running server's pids have 7 digits):
// its bits above those 18 go in a byte column that a partition grows only once it meets such
// a waker.
constexpr uint32_t kWakeCpuBits = 14;
constexpr uint32_t kWakeCpuMask = (1u << kWakeCpuBits) - 1;
constexpr uint32_t kWakerLowBits = 32 - kWakeCpuBits;
constexpr uint32_t kWakerLowMask = (1u << kWakerLowBits) - 1;
static_assert(EventStore::kMaxCpus <= static_cast<int>(kWakeCpuMask), "the target CPU + 1 must fit its bits");
// v + 1 when v is in -1..max - 1, else 0 (unknown). Widened first: sources hand us any int32
// (INT32_MAX + 1 overflowed here; found by fuzz_capture_client).
uint32_t plusOneOrUnknown(int32_t v, uint32_t max) {
    const int64_t stored = int64_t{v} + 1;
    return stored >= 0 && stored <= int64_t{max} ? static_cast<uint32_t>(stored) : 0;
}
// The waker + 1 (0: unknown, or not a pid the kernel can give)
uint32_t storedWaker(int32_t waker) { return plusOneOrUnknown(waker, uint32_t{1} << 22); }
int32_t packWake(int32_t dstCpu, uint32_t storedWaker) {
    return static_cast<int32_t>((storedWaker & kWakerLowMask) << kWakeCpuBits |
                                plusOneOrUnknown(dstCpu, static_cast<uint32_t>(EventStore::kMaxCpus)));
}
int32_t wakeCpu(int32_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v) & kWakeCpuMask) - 1; }
int32_t wakeWaker(int32_t v, uint8_t highBits) {
    return static_cast<int32_t>(static_cast<uint32_t>(v) >> kWakeCpuBits | uint32_t{highBits} << kWakerLowBits) - 1;
}
int32_t pack(int32_t src, int32_t dst) {
    return static_cast<int32_t>((static_cast<uint32_t>(src) & 0xffffu) << 16 | (static_cast<uint32_t>(dst) & 0xffffu));
}
int32_t unpackHi(int32_t v) {
    uint32_t x = static_cast<uint32_t>(v) >> 16;
    return x == 0xffffu ? -1 : static_cast<int32_t>(x);
}
int32_t unpackLo(int32_t v) {
    uint32_t x = static_cast<uint32_t>(v) & 0xffffu;
    return x == 0xffffu ? -1 : static_cast<int32_t>(x);
}
// Pids index bitsets. The kernel's PID_MAX_LIMIT is 2^22 (pid_max cannot be set higher), so
// a pid at or above it is corrupt input and must not size a bitset: a fork of pid 2^31-1 would
// cost 256 MB, and each store a corrupt record reaches would clear megabytes it never needs.
constexpr int32_t kPidLimit = 1 << 22;
bool pidInRange(int32_t pid) { return pid >= 0 && pid < kPidLimit; }
bool testBit(const std::vector<uint8_t>& bits, int32_t i) {
    auto u = static_cast<size_t>(i);
    return u / 8 < bits.size() && (bits[u / 8] >> (u % 8) & 1);
}
// Returns true when the bit was newly set.
bool setBit(std::vector<uint8_t>& bits, int32_t i) {
    auto u = static_cast<size_t>(i);
    if (u / 8 >= bits.size()) bits.resize(std::max(u / 8 + 1, bits.size() * 2), 0);
    bool was = bits[u / 8] >> (u % 8) & 1;
    bits[u / 8] |= static_cast<uint8_t>(1u << (u % 8));
    return !was;
}

}  // namespace

void EventStore::push(Partition& p, const SchedEvent& e) {
    const auto i = static_cast<uint32_t>(p.pid.size());
    if (i % kBlock == 0) p.blockBase.push_back(e.ts);
    const uint64_t base = p.blockBase.back();
    if (e.ts >= base && e.ts - base < kOverflow) {
        p.tsDelta.push_back(static_cast<uint32_t>(e.ts - base));
    } else {
        p.tsDelta.push_back(kOverflow);
        p.tsOverflow[i] = e.ts;
    }
    // a migration has no prev_state: its 3 state bits hold inSchedSoftirq instead
    const uint8_t stateBits = e.kind == EventKind::MigrateTask ? (e.inSchedSoftirq ? 1 : 0) : static_cast<uint8_t>(e.state);
    p.kindState.push_back(static_cast<uint8_t>(static_cast<uint8_t>(e.kind) | stateBits << 4 |
                                               (e.byInterrupt || e.inExec ? 0x80 : 0)));
    p.prio.push_back(static_cast<uint8_t>(std::clamp(e.prio, 0, 255)));
    p.pid.push_back(e.pid);
    int32_t arg = -1;
    if (usesPid2(e.kind)) arg = e.pid2;
    else if (usesPackedCpus(e.kind)) arg = pack(e.srcCpu, e.dstCpu);
    uint8_t wakerHigh = 0;
    if (isWakeKind(e.kind)) {
        const uint32_t waker = storedWaker(e.waker);
        arg = packWake(e.dstCpu, waker);
        wakerHigh = static_cast<uint8_t>(waker >> kWakerLowBits);
    }
    else if (e.kind == EventKind::CpuIdle) arg = e.dstCpu;
    p.arg.push_back(arg);
    if (wakerHigh != 0 && p.wakerHigh.empty()) p.wakerHigh.assign(i, 0);
    if (!p.wakerHigh.empty()) p.wakerHigh.push_back(wakerHigh);
    if (e.kind == EventKind::SwapNuma) p.swapCpus[i] = {e.srcCpu, e.dstCpu};
}

void EventStore::append(const SchedEvent& e) {
    if (e.cpu < 0 || e.cpu >= kMaxCpus) {
        addAnomaly(Anomaly::CpuOutOfRange);
        return;
    }
    // A migration names both its CPUs (the kernel's sched_migrate_task always does): one out of
    // range is a damaged record, not a move between levels nobody can classify.
    if (e.kind == EventKind::MigrateTask) {
        const int limit = recordedCpus_ > 0 ? std::min(recordedCpus_, kMaxCpus) : kMaxCpus;
        if (e.srcCpu < 0 || e.dstCpu < 0 || e.srcCpu >= limit || e.dstCpu >= limit) {
            addAnomaly(Anomaly::CpuOutOfRange);
            return;
        }
    }
    if (static_cast<uint8_t>(e.kind) >= kEventKindCount || static_cast<uint8_t>(e.state) > 0x07) {
        addAnomaly(Anomaly::Malformed);  // a source handed us a value outside the schema
        return;
    }
    if (static_cast<size_t>(e.cpu) >= parts_.size()) parts_.resize(static_cast<size_t>(e.cpu) + 1);
    Partition& p = parts_[static_cast<size_t>(e.cpu)];
    if (!p.pid.empty() && e.ts < p.lastTs) {
        addAnomaly(Anomaly::OutOfOrder);
        p.unsorted = true;
    }
    p.lastTs = std::max(p.lastTs, e.ts);
    push(p, e);
    ++total_;
    ++byKind_[static_cast<size_t>(e.kind)];
    firstTs_ = std::min(firstTs_, e.ts);
    lastTs_ = std::max(lastTs_, e.ts);

    if (e.kind == EventKind::CpuIdle) return;
    // Pid reuse is judged in time order at finish(); sources append per CPU.
    if (e.kind == EventKind::ProcessFork && pidInRange(e.pid2)) lifeEvents_.push_back({e.ts, e.pid2, true});
    if (e.kind == EventKind::ProcessExit && pidInRange(e.pid)) lifeEvents_.push_back({e.ts, e.pid, false});
    notePid(e.pid);
    if (usesPid2(e.kind)) notePid(e.pid2);
}

void EventStore::notePid(int32_t pid) {
    if (pidInRange(pid) && setBit(pidSeen_, pid)) ++taskCount_;
}

void EventStore::countOther(std::string_view name, uint64_t n) {
    auto it = other_.find(name);
    if (it == other_.end()) other_.emplace(std::string(name), n);
    else it->second += n;
}

void EventStore::addAnomaly(Anomaly a, uint64_t n) { anomalies_[static_cast<size_t>(a)] += n; }

void EventStore::noteComm(int32_t pid, uint64_t ts, std::string_view comm) {
    auto& hist = commHistory_[pid];
    if (!hist.empty() && comms_[hist.back().id] == comm) return;
    auto it = commIds_.find(std::string(comm));
    uint32_t id;
    if (it == commIds_.end()) {
        id = static_cast<uint32_t>(comms_.size());
        comms_.emplace_back(comm);
        commIds_.emplace(comms_.back(), id);
    } else {
        id = it->second;
    }
    // Sources deliver per-CPU batches, so a later-seen name can be older: keep history sorted.
    CommChange c{ts, id};
    auto pos = std::upper_bound(hist.begin(), hist.end(), ts, [](uint64_t t, const CommChange& x) { return t < x.ts; });
    hist.insert(pos, c);
}

std::string_view EventStore::commAt(int32_t pid, uint64_t ts) const {
    auto it = commHistory_.find(pid);
    if (it == commHistory_.end() || it->second.empty()) return {};
    const auto& h = it->second;
    auto pos = std::upper_bound(h.begin(), h.end(), ts, [](uint64_t t, const CommChange& x) { return t < x.ts; });
    // Before the first sighting the first known name is the best guess.
    return comms_[pos == h.begin() ? h.front().id : std::prev(pos)->id];
}

uint64_t EventStore::tsOf(const Partition& p, size_t i) {
    uint32_t d = p.tsDelta[i];
    if (d != kOverflow) return p.blockBase[i / kBlock] + d;
    return p.tsOverflow.at(static_cast<uint32_t>(i));
}

uint64_t EventStore::tsAt(int cpu, size_t index) const { return tsOf(parts_[static_cast<size_t>(cpu)], index); }

SchedEvent EventStore::decode(const Partition& p, int cpu, size_t i) {
    SchedEvent e;
    e.ts = tsOf(p, i);
    e.cpu = cpu;
    e.kind = static_cast<EventKind>(p.kindState[i] & 0x0f);
    if (e.kind == EventKind::MigrateTask) {
        e.inSchedSoftirq = (p.kindState[i] >> 4 & 0x07) != 0;
        e.inExec = (p.kindState[i] & 0x80) != 0;
    } else {
        e.state = static_cast<TaskState>(p.kindState[i] >> 4 & 0x07);
        e.byInterrupt = (p.kindState[i] & 0x80) != 0;
    }
    e.prio = p.prio[i];
    e.pid = p.pid[i];
    const int32_t arg = p.arg[i];
    if (usesPid2(e.kind)) e.pid2 = arg;
    else if (usesPackedCpus(e.kind)) { e.srcCpu = unpackHi(arg); e.dstCpu = unpackLo(arg); }
    else if (isWakeKind(e.kind)) {
        e.dstCpu = wakeCpu(arg);
        e.waker = wakeWaker(arg, p.wakerHigh.empty() ? 0 : p.wakerHigh[i]);
    }
    else if (e.kind == EventKind::CpuIdle) e.dstCpu = arg;
    if (e.kind == EventKind::SwapNuma) {
        auto it = p.swapCpus.find(static_cast<uint32_t>(i));
        if (it != p.swapCpus.end()) { e.srcCpu = it->second.first; e.dstCpu = it->second.second; }
    }
    return e;
}

SchedEvent EventStore::at(int cpu, size_t index) const { return decode(parts_[static_cast<size_t>(cpu)], cpu, index); }

void EventStore::sortPartition(Partition& p) {
    const size_t n = p.pid.size();
    std::vector<uint64_t> ts(n);
    for (size_t i = 0; i < n; ++i) ts[i] = tsOf(p, i);
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return ts[a] < ts[b]; });
    Partition q;
    for (uint32_t i : order) {
        SchedEvent e = decode(p, 0, i);
        push(q, e);
    }
    q.lastTs = p.lastTs;
    p = std::move(q);
}

void EventStore::finish() {
    // A fork that creates a pid we saw exit: the kernel recycled it, so "one pid" is two tasks.
    std::stable_sort(lifeEvents_.begin(), lifeEvents_.end(),
                     [](const LifeEvent& a, const LifeEvent& b) { return a.ts < b.ts; });
    for (const LifeEvent& l : lifeEvents_) {
        const auto u = static_cast<size_t>(l.pid);
        if (!l.fork) setBit(pidExited_, l.pid);
        else if (testBit(pidExited_, l.pid)) {
            addAnomaly(Anomaly::PidReuse);
            pidExited_[u / 8] &= static_cast<uint8_t>(~(1u << (u % 8)));
        }
    }
    // Clear only the bits this pass set: the bitset spans the largest pid seen (up to 8 MB), and
    // the live views finish() a chunk on every refresh.
    for (const LifeEvent& l : lifeEvents_) {
        const auto u = static_cast<size_t>(l.pid);
        if (u / 8 < pidExited_.size()) pidExited_[u / 8] = 0;
    }
    lifeEvents_.clear();
    for (auto& p : parts_) {
        if (p.unsorted) sortPartition(p);
        p.unsorted = false;
        // Growth by doubling leaves up to half the columns unused; give it back.
        p.blockBase.shrink_to_fit();
        p.tsDelta.shrink_to_fit();
        p.kindState.shrink_to_fit();
        p.prio.shrink_to_fit();
        p.pid.shrink_to_fit();
        p.arg.shrink_to_fit();
        p.wakerHigh.shrink_to_fit();
    }
}

size_t EventStore::trim(uint64_t beforeTs) {
    size_t dropped = 0;
    uint64_t first = UINT64_MAX;
    for (auto& p : parts_) {
        if (p.unsorted) sortPartition(p);
        p.unsorted = false;
        const size_t n = p.pid.size();
        // Partitions are in time order: binary search the first event to keep.
        size_t lo = 0, hi = n;
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (tsOf(p, mid) < beforeTs) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0) {
            for (size_t i = 0; i < lo; ++i) --byKind_[p.kindState[i] & 0x0f];
            // Block bases and the overflow maps are positional: re-encode what is kept.
            Partition q;
            for (size_t i = lo; i < n; ++i) push(q, decode(p, 0, i));
            q.lastTs = p.lastTs;
            p = std::move(q);
            dropped += lo;
        }
        if (!p.pid.empty()) first = std::min(first, tsOf(p, 0));
    }
    total_ -= dropped;
    firstTs_ = first;
    if (total_ == 0) lastTs_ = 0;
    std::erase_if(affinityCalls_, [&](const AffinityCallRecord& r) { return r.ts < beforeTs; });
    // Comm history: keep, per task, the name it had at beforeTs and every later change.
    for (auto it = commHistory_.begin(); it != commHistory_.end();) {
        auto& h = it->second;
        auto pos = std::upper_bound(h.begin(), h.end(), beforeTs, [](uint64_t t, const CommChange& x) { return t < x.ts; });
        if (pos != h.begin()) h.erase(h.begin(), std::prev(pos));
        h.shrink_to_fit();
        ++it;
    }
    return dropped;
}

void EventStore::forEach(const std::function<bool(const SchedEvent&)>& fn) const {
    using Head = std::pair<uint64_t, uint32_t>;  // (ts, cpu)
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    std::vector<size_t> next(parts_.size(), 0);
    for (uint32_t c = 0; c < parts_.size(); ++c)
        if (!parts_[c].pid.empty()) heap.push({tsOf(parts_[c], 0), c});
    while (!heap.empty()) {
        const uint32_t c = heap.top().second;
        heap.pop();
        const Partition& p = parts_[c];
        size_t& i = next[c];
        // Drain this CPU while it stays the earliest: most of the time a run of events.
        while (i < p.pid.size()) {
            const uint64_t t = tsOf(p, i);
            if (!heap.empty() && (t > heap.top().first || (t == heap.top().first && c > heap.top().second))) break;
            if (!fn(decode(p, static_cast<int>(c), i))) return;
            ++i;
        }
        if (i < p.pid.size()) heap.push({tsOf(p, i), c});
    }
}

std::map<std::string, uint64_t> EventStore::anomalyTable() const {
    std::map<std::string, uint64_t> t;
    for (size_t i = 0; i < kAnomalyNames.size(); ++i) t[std::string(kAnomalyNames[i])] = anomalies_[i];
    return t;
}

size_t EventStore::residentBytes() const {
    size_t b = 0;
    for (const auto& p : parts_) {
        b += p.blockBase.capacity() * 8 + p.tsDelta.capacity() * 4 + p.kindState.capacity() + p.prio.capacity() +
             p.pid.capacity() * 4 + p.arg.capacity() * 4 + p.wakerHigh.capacity();
        b += (p.tsOverflow.size() + p.swapCpus.size()) * 32;
    }
    for (const auto& [pid, h] : commHistory_) b += 48 + h.capacity() * sizeof(CommChange);
    for (const auto& s : comms_) b += 64 + s.capacity();
    b += pidSeen_.capacity() + pidExited_.capacity() + affinityCalls_.capacity() * sizeof(AffinityCallRecord);
    return b;
}

}  // namespace schedscope::tracing
