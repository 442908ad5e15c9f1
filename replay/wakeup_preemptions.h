#pragma once
// Wakeup preemption in a recording: of the derived tasks' wakeups onto a CPU that was running
// another task, how many preempted it at once, i.e. the CPU's next switch put the running task
// back on the runqueue (prev_state R) and switched to the wakee. It is the share EEVDF's wakeup
// preemption decides (check_preempt_wakeup_fair()), and a steadier figure than the median wait,
// which sits between immediate preemptions and waits for a slice. The simulator counts the
// same wakeups and decisions (sim::Metrics::busyWakeups, wakeupPreemptions).
#include "derive_workload.h"
#include "trace_timelines.h"

namespace schedscope::replay {

struct WakeupPreemptions {
    long long busyWakeups = 0;  // woken onto a CPU running another task
    long long preempting = 0;   // ... whose next switch preempted it for the wakee
};

WakeupPreemptions measureWakeupPreemptions(const TraceTimelines& timelines, const DerivedWorkload& derived);

}  // namespace schedscope::replay
