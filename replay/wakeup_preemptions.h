#pragma once
// Wakeup preemption in a recording: of the derived tasks' wakeups onto a CPU that was running
// another task, how many preempted it at once, i.e. the CPU's next switch put the running task
// back on the runqueue (prev_state R) and switched to the wakee. It is the share EEVDF's wakeup
// preemption decides (check_preempt_wakeup_fair()), and a steadier figure than the median wait,
// which sits between immediate preemptions and waits for a slice. The simulator counts the
// same wakeups and decisions (sim::Metrics::busyWakeups, wakeupPreemptions), and both split off
// the wakeups a task on another CPU made: on the kernels recorded here a wakee queued on its
// waker's own busy CPU preempts it far more often than one queued on another busy CPU.
#include "derive_workload.h"
#include "event_store.h"
#include "sim/metrics.h"
#include "trace_timelines.h"

namespace schedscope::replay {

struct WakeupPreemptions {
    long long busyWakeups = 0;  // woken onto a CPU running another task
    long long preempting = 0;   // ... whose next switch preempted it for the wakee
    // ... of them, those a kept task running on another CPU woke (the simulator's waker CPU
    // differs from the wakee's: a remote resched), and how many of those preempted
    long long remoteBusyWakeups = 0, remotePreempting = 0;
    // ... and for each of those preempting ones, how long from the wakee's sched_wakeup to the
    // switch that put curr back for it: a remote resched's way to the CPU's next preemption
    // point (the IPI, then the return to user or a blocking call), as far as a trace shows it
    // (a task that blocked first left no figure, so this is the short end of the delays)
    sim::LatencyHistogram remoteReschedDelay;
};

// The remote resched latency to simulate with (sim::SimOptions::remoteReschedNs): the median of
// `delays` when there are at least kMinRemoteResched of them, else 0 (a resched acts at once).
constexpr long long kMinRemoteResched = 5;
int64_t remoteReschedFrom(const sim::LatencyHistogram& delays);

// A wakeup is judged at its sched_wakeup (the enqueue, where the kernel decides), found in
// `store`: a remote sched_waking comes microseconds before, and the CPU may switch meanwhile.
WakeupPreemptions measureWakeupPreemptions(const TraceTimelines& timelines, const DerivedWorkload& derived,
                                           const tracing::EventStore& store);

}  // namespace schedscope::replay
