#pragma once
// The recording's timelines that replay reads several times: every task's intervals (running,
// runnable, sleeping) and every CPU's run slices. Derived once per trace and shared by
// deriveWorkload(), measureRecording() and measureIdleWakeups(): each derivation is a pass over
// the whole trace (a fifth of a 1.1M-event replay's time, and 60 MB of intervals, each time).
#include <vector>

#include "event_store.h"
#include "sched_tracker.h"

namespace schedscope::replay {

using RunSlicesByCpu = std::vector<std::vector<tracing::RunSlice>>;

struct TraceTimelines {
    std::vector<tracing::TaskInterval> intervals;  // computeTaskIntervals()
    RunSlicesByCpu slices;                         // computeRunSlices()

    static TraceTimelines of(const tracing::EventStore& store) {
        return {tracing::computeTaskIntervals(store), tracing::computeRunSlices(store)};
    }
};

// intervals[k] is a wakeup that ran: the task slept before it (intervals[k - 1]), was runnable,
// and then ran (intervals[k + 1], on the CPU it ran on). Both the idle wakeups and the wakeup
// preemptions of a recording are counted over these.
inline bool isWakeupThenRun(const std::vector<tracing::TaskInterval>& intervals, size_t k) {
    if (k == 0 || k + 1 >= intervals.size()) return false;
    const auto& before = intervals[k - 1];
    const auto& iv = intervals[k];
    const auto& next = intervals[k + 1];
    return iv.phase == tracing::TaskPhase::Runnable && before.pid == iv.pid &&
           before.phase == tracing::TaskPhase::Sleeping && next.pid == iv.pid && next.phase == tracing::TaskPhase::Running &&
           !next.startUnseen;  // (its switch in was lost: the wakeup's latency is not known)
}

}  // namespace schedscope::replay
