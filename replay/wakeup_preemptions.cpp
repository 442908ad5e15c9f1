#include "wakeup_preemptions.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace schedscope::replay {
namespace {

// The run slice of `cpu` that covers time `t` (start <= t < end), or nullptr.
const tracing::RunSlice* sliceAt(const RunSlicesByCpu& slices, int cpu, uint64_t t) {
    if (cpu < 0 || static_cast<size_t>(cpu) >= slices.size()) return nullptr;
    const auto& cs = slices[static_cast<size_t>(cpu)];
    auto it = std::upper_bound(cs.begin(), cs.end(), t, [](uint64_t v, const tracing::RunSlice& s) { return v < s.end; });
    return it != cs.end() && it->start <= t ? &*it : nullptr;
}

// The CPU task `pid` was running on at `t`, from its intervals (ordered by pid, then start);
// -1 when it was not running then.
int32_t runningCpuAt(const std::vector<tracing::TaskInterval>& iv, int32_t pid, uint64_t t) {
    auto first = std::lower_bound(iv.begin(), iv.end(), pid, [](const tracing::TaskInterval& a, int32_t p) { return a.pid < p; });
    auto last = std::upper_bound(first, iv.end(), pid, [](int32_t p, const tracing::TaskInterval& a) { return p < a.pid; });
    // the last of its intervals starting at or before t
    auto it = std::upper_bound(first, last, t, [](uint64_t v, const tracing::TaskInterval& a) { return v < a.start; });
    while (it != first) {
        --it;
        if (it->start > t) continue;
        if (it->phase == tracing::TaskPhase::Running && t <= it->end) return it->cpu;
        if (it->end < t) break;
    }
    return -1;
}

}  // namespace

WakeupPreemptions measureWakeupPreemptions(const TraceTimelines& timelines, const DerivedWorkload& derived,
                                           const tracing::EventStore& store) {
    std::unordered_set<int32_t> kept;
    for (const auto& t : derived.tasks) kept.insert(t.pid);
    // each kept task's sched_wakeup times, in order
    std::unordered_map<int32_t, std::vector<uint64_t>> wakeups;
    store.forEach([&](const tracing::SchedEvent& e) {
        if (e.kind == tracing::EventKind::Wakeup && kept.count(e.pid)) wakeups[e.pid].push_back(e.ts);
        return true;
    });
    // the first of `pid`'s sched_wakeups in [from, to], else `from`
    auto enqueuedAt = [&](int32_t pid, uint64_t from, uint64_t to) {
        const auto it = wakeups.find(pid);
        if (it == wakeups.end()) return from;
        const auto w = std::lower_bound(it->second.begin(), it->second.end(), from);
        return w != it->second.end() && *w <= to ? *w : from;
    };
    const auto& iv = timelines.intervals;
    WakeupPreemptions out;
    for (size_t k = 1; k + 1 < iv.size(); ++k) {
        if (!isWakeupThenRun(iv, k)) continue;
        const auto& woken = iv[k];
        const auto& ran = iv[k + 1];
        if (woken.start < derived.windowStartNs || woken.start > derived.windowEndNs || !kept.count(woken.pid)) continue;
        // where it was queued: the CPU it ran on next (the runnable interval's CPU is
        // sched_waking's target_cpu, the CPU it last ran on, which a wakeup migration leaves)
        const int target = ran.cpu >= 0 ? ran.cpu : woken.cpu;
        const uint64_t enqueued = enqueuedAt(woken.pid, woken.start, woken.end);
        const tracing::RunSlice* curr = sliceAt(timelines.slices, target, enqueued);
        if (!curr || curr->pid == 0 || curr->pid == woken.pid) continue;  // idle, or not known busy
        ++out.busyWakeups;
        const bool preempted = curr->end == ran.start && curr->endState == tracing::TaskState::Runnable;
        out.preempting += preempted;
        const uint64_t at = woken.wokenAt ? woken.wokenAt : woken.start;
        const int32_t wakerCpu = woken.waker > 0 && kept.count(woken.waker) ? runningCpuAt(iv, woken.waker, at) : -1;
        if (wakerCpu >= 0 && wakerCpu != target) {
            ++out.remoteBusyWakeups;
            out.remotePreempting += preempted;
            if (preempted && ran.start >= enqueued) out.remoteReschedDelay.add(static_cast<int64_t>(ran.start - enqueued));
        }
    }
    return out;
}

int64_t remoteReschedFrom(const sim::LatencyHistogram& delays) {
    return delays.count() >= kMinRemoteResched ? std::llround(delays.percentileNs(50)) : 0;
}

}  // namespace schedscope::replay
