#pragma once
// CPUs a trace has no event of at all. A CPU that ran anything, or only took a timer's wakeup,
// has sched events; one with none was most likely left out of the recording (trace-cmd record
// -M MASK), and its lane is not an idle CPU's.
#include <string>
#include <vector>

#include "event_store.h"

namespace schedscope::tracing {

// The CPUs below `cpus` (at least the store's own, and as many as its recording's header names)
// without a single event; none for an empty store.
std::vector<int> silentCpus(const EventStore& store, int cpus);
// "" when none; else "no events at all on CPU 0 (not traced: trace-cmd record -M? or idle
// throughout)"
std::string describeSilentCpus(const std::vector<int>& silent);

}  // namespace schedscope::tracing
