#pragma once
// Whether a trace clock's timestamps count nanoseconds. libtracecmd's flag for it comes from a
// list of its own that takes `uptime` (jiffies, in USER_HZ ticks) for a ns clock and leaves `boot`
// and `tai` (ns) out; the kernel's own table says which are which.
#include <string>
#include <string_view>

#include "event_store.h"

namespace schedscope::tracing {

// `clock` as a trace.dat names it; `libraryInNs` is libtracecmd's TRACECMD_FL_IN_USECS, which
// decides only for a hardware counter (x86-tsc, ppc-tb: ns when trace-cmd converted them with
// --tsc2nsec) and for a clock the kernel's table does not list.
bool traceClockCountsNs(std::string_view clock, bool libraryInNs);
// How to record times instead of counts with `clock`: "record with a ns clock, e.g. trace-cmd
// record -C local", and for a TSC ", or with --tsc2nsec where the kernel allows it"
std::string nsClockAdvice(std::string_view clock);
// "" unless every event of a store of several has one timestamp: then what that means ("all 16981
// events have one timestamp: ...") for text whose times were printed too coarsely to tell any
// apart (trace-cmd report of an uptime-clock trace prints the jiffies as seconds).
std::string oneTimestampProblem(const EventStore& store);

}  // namespace schedscope::tracing
