#pragma once
// Gaps in a trace's chains of sched_switch events. On one CPU each switch's prev is the task the
// previous switch put on (next), unless switches between them are missing: an event filter at
// record time (trace-cmd record -f 'prev_pid != 0' keeps no switch out of the idle task), a ring
// buffer that overran, or a kernel that drops some. Every view that follows the switches then
// misses runs: a task's run is only seen ending, or idle time shows as the last task's. The
// gaps are counted so the user hears of them before trusting busy times and migrations.
#include <cstdint>
#include <string>

#include "event_store.h"

namespace schedscope::tracing {

struct SwitchGaps {
    uint64_t switches = 0;   // sched_switch events
    uint64_t gaps = 0;       // switches whose prev is not the previous switch's next on that CPU
    uint64_t intoIdle = 0;   // next is the idle task (pid 0)
    uint64_t outOfIdle = 0;  // prev is the idle task
};

SwitchGaps switchGaps(const EventStore& store);

// "" when the chains hold (or too few switches to tell); else one sentence naming what is
// missing and what it does to the views, e.g. "no sched_switch leaves the idle task (412 enter
// it): the recording filtered them (trace-cmd record -f 'prev_pid != 0'?), so runs that began
// on an idle CPU are not seen"
std::string describeSwitchGaps(const SwitchGaps& gaps);

}  // namespace schedscope::tracing
