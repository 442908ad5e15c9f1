#pragma once
// Wakeups onto idle CPUs in a recording: how long the idle CPU took to run the task it was woken
// for (the idle state's exit and the wakeup IPI: a few us on bare metal, 34 us on this
// development VM). The simulator waits that long on every wakeup onto an idle CPU
// (sim::SimOptions::idleExitNs) when a replay or a trace what-if runs the recording's tasks.
#include <cstdint>
#include <vector>

#include "derive_workload.h"
#include "event_store.h"
#include "sched_tracker.h"
#include "sim/metrics.h"
#include "trace_timelines.h"

namespace schedscope::replay {

// intervals[k] is a runnable interval followed by the task running (intervals[k + 1]): true when
// it is a wakeup onto an idle CPU, i.e. the task slept before it and the CPU it ran on ran its
// idle task from the wakeup until the switch in.
bool isIdleWakeup(const std::vector<tracing::TaskInterval>& intervals, size_t k, const RunSlicesByCpu& slices);

// The wakeup -> switch in latencies of the derived tasks' wakeups onto idle CPUs in its window.
sim::LatencyHistogram measureIdleWakeups(const TraceTimelines& timelines, const DerivedWorkload& derived);

// The idle exit latency to simulate with: the median of `wakeups` when there are at least
// kMinIdleWakeups of them, else 0 (the wakee runs at once).
constexpr long long kMinIdleWakeups = 5;
int64_t idleExitFrom(const sim::LatencyHistogram& wakeups);

}  // namespace schedscope::replay
