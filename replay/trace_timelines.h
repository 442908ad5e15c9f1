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

}  // namespace schedscope::replay
