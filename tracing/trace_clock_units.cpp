#include "trace_clock_units.h"

#include <array>
#include <utility>

namespace schedscope::tracing {

namespace {
// kernel/trace/trace.c's trace_clocks[] (name, in_ns), the same from 4.x to 7.x
constexpr std::array<std::pair<std::string_view, bool>, 9> kKernelClocks{{
    {"local", true},
    {"global", true},
    {"counter", false},  // one tick per event
    {"uptime", false},   // jiffies_64_to_clock_t(): USER_HZ ticks
    {"perf", true},
    {"mono", true},
    {"mono_raw", true},
    {"boot", true},
    {"tai", true},
}};
}  // namespace

bool traceClockCountsNs(std::string_view clock, bool libraryInNs) {
    for (const auto& [name, inNs] : kKernelClocks)
        if (clock == name) return inNs;
    return libraryInNs;  // x86-tsc, ppc-tb (ARCH_TRACE_CLOCKS) or a clock this table does not know
}

std::string nsClockAdvice(std::string_view clock) {
    // trace-cmd's --tsc2nsec converts a TSC, and only where the kernel exports its scaling
    std::string advice = "record with a ns clock, e.g. trace-cmd record -C local";
    if (clock == "x86-tsc") advice += ", or with --tsc2nsec where the kernel allows it";
    return advice;
}

std::string oneTimestampProblem(const EventStore& store) {
    if (store.size() < 2 || store.firstTs() != store.lastTs()) return "";
    return "all " + std::to_string(store.size()) +
           " events have one timestamp, so nothing can be timed (text printed from a coarse clock: trace-cmd report "
           "prints an uptime-clock trace's jiffies this way; " + nsClockAdvice(store.traceClock()) + ")";
}

}  // namespace schedscope::tracing
