#include "wakeup_preemptions.h"

#include <algorithm>
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

}  // namespace

WakeupPreemptions measureWakeupPreemptions(const TraceTimelines& timelines, const DerivedWorkload& derived) {
    std::unordered_set<int32_t> kept;
    for (const auto& t : derived.tasks) kept.insert(t.pid);
    const auto& iv = timelines.intervals;
    WakeupPreemptions out;
    for (size_t k = 1; k + 1 < iv.size(); ++k) {
        if (!isWakeupThenRun(iv, k)) continue;
        const auto& woken = iv[k];
        const auto& ran = iv[k + 1];
        if (woken.start < derived.windowStartNs || woken.start > derived.windowEndNs || !kept.count(woken.pid)) continue;
        const int target = woken.cpu >= 0 ? woken.cpu : ran.cpu;
        const tracing::RunSlice* curr = sliceAt(timelines.slices, target, woken.start);
        if (!curr || curr->pid == 0 || curr->pid == woken.pid) continue;  // idle, or not known busy
        ++out.busyWakeups;
        out.preempting += ran.cpu == target && curr->end == ran.start && curr->endState == tracing::TaskState::Runnable;
    }
    return out;
}

}  // namespace schedscope::replay
