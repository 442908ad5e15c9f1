#include "idle_wakeups.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace schedscope::replay {
namespace {

// The CPU ran its idle task from `from` (or before) until `to`, when a switch ended that idle
// slice: a wakee switched in at `to` found it idle when it was woken.
bool idleFromTo(const RunSlicesByCpu& slices, int cpu, uint64_t from, uint64_t to) {
    if (cpu < 0 || static_cast<size_t>(cpu) >= slices.size()) return false;
    const auto& cs = slices[static_cast<size_t>(cpu)];
    auto it = std::lower_bound(cs.begin(), cs.end(), to, [](const tracing::RunSlice& s, uint64_t t) { return s.end < t; });
    return it != cs.end() && it->end == to && it->pid == 0 && it->start <= from;
}

}  // namespace

bool isIdleWakeup(const std::vector<tracing::TaskInterval>& intervals, size_t k, const RunSlicesByCpu& slices) {
    if (!isWakeupThenRun(intervals, k)) return false;
    return idleFromTo(slices, intervals[k + 1].cpu, intervals[k].start, intervals[k].end);
}

sim::LatencyHistogram measureIdleWakeups(const TraceTimelines& timelines, const DerivedWorkload& derived) {
    std::unordered_set<int32_t> kept;
    for (const auto& t : derived.tasks) kept.insert(t.pid);
    const auto& slices = timelines.slices;
    const auto& intervals = timelines.intervals;
    sim::LatencyHistogram out;
    for (size_t k = 0; k + 1 < intervals.size(); ++k) {
        const auto& iv = intervals[k];
        if (iv.end < derived.windowStartNs || iv.end > derived.windowEndNs || !kept.count(iv.pid)) continue;
        if (isIdleWakeup(intervals, k, slices)) out.add(static_cast<int64_t>(iv.end - iv.start));
    }
    return out;
}

int64_t idleExitFrom(const sim::LatencyHistogram& wakeups) {
    return wakeups.count() >= kMinIdleWakeups ? std::llround(wakeups.percentileNs(50)) : 0;
}

}  // namespace schedscope::replay
