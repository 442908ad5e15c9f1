#include "switch_gaps.h"

#include <cstdio>

namespace schedscope::tracing {

namespace {
// Fewer switches than this say too little: a short trace of a quiet CPU may well never have
// left idle, and a handful of gaps is what a recording's start and end leave.
constexpr uint64_t kEnoughSwitches = 50;
// A share of gaps below this is noise (a lost event or two); above it the views miss runs.
constexpr double kGapShare = 0.01;
}  // namespace

SwitchGaps switchGaps(const EventStore& store) {
    SwitchGaps g;
    for (int cpu = 0; cpu < store.cpuCount(); ++cpu) {
        int32_t current = -1;  // the task the CPU's last switch put on; -1 before its first
        for (size_t i = 0; i < store.cpuSize(cpu); ++i) {
            if (store.kindAt(cpu, i) != EventKind::Switch) continue;
            const SchedEvent e = store.at(cpu, i);
            ++g.switches;
            if (e.pid == 0) ++g.outOfIdle;
            if (e.pid2 == 0) ++g.intoIdle;
            if (current >= 0 && e.pid != current) ++g.gaps;
            current = e.pid2;
        }
    }
    return g;
}

std::string describeSwitchGaps(const SwitchGaps& g) {
    if (g.switches < kEnoughSwitches || g.gaps == 0) return "";
    const std::string seen = std::to_string(g.switches);
    // one direction missing altogether is a filter's signature, not a loss
    if (g.outOfIdle == 0 && g.intoIdle >= kEnoughSwitches / 5)
        return "no sched_switch leaves the idle task (" + std::to_string(g.intoIdle) +
               " enter it): the recording filtered them (trace-cmd record -f 'prev_pid != 0'?), so runs that began "
               "on an idle CPU are not seen and migrations are undercounted";
    if (g.intoIdle == 0 && g.outOfIdle >= kEnoughSwitches / 5)
        return "no sched_switch enters the idle task (" + std::to_string(g.outOfIdle) +
               " leave it): the recording filtered them (trace-cmd record -f 'next_pid != 0'?), so idle time shows "
               "as the last task's run";
    if (static_cast<double>(g.gaps) < kGapShare * static_cast<double>(g.switches)) return "";
    const double pct = 100.0 * static_cast<double>(g.gaps) / static_cast<double>(g.switches);
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", pct);
    // idle exits missing more often than entries: the shape of a kernel or filter losing them
    const std::string which = g.intoIdle > g.outOfIdle && 2 * (g.intoIdle - g.outOfIdle) >= g.gaps
                                  ? ", most of them out of the idle task (" + std::to_string(g.intoIdle) + " switches enter it, " +
                                        std::to_string(g.outOfIdle) + " leave it)"
                                  : "";
    return std::to_string(g.gaps) + " of " + seen + " sched_switch events (" + share +
           ") do not follow on from their CPU's previous switch: switches are missing" + which +
           " (an event filter, lost events, or a kernel that drops some), so some runs are not seen";
}

}  // namespace schedscope::tracing
