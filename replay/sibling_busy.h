#pragma once
// When a CPU's SMT siblings were busy in the recording. A thread whose sibling runs too gets
// part of the core (the simulator's contention model slows it by smtSlowdown), so recorded CPU
// time with a busy sibling is less work than the same time alone: replay turns it into work at
// the speed it ran, or a what-if on the same machine would pay the sharing twice.
#include <cstdint>
#include <vector>

#include "trace_timelines.h"
#include "util/cpuset.h"

namespace schedscope::replay {

class SiblingBusy {
public:
    SiblingBusy() = default;
    // `siblings[c]`: the recording machine's SMT siblings of CPU c (c itself may be in it);
    // empty for a machine without SMT or a CPU it does not list.
    SiblingBusy(const RunSlicesByCpu& slices, const std::vector<CpuSet>& siblings);

    // Of [start, end) on `cpu`, the ns during which some sibling ran a task (not idle).
    uint64_t overlapNs(int cpu, uint64_t start, uint64_t end) const;

private:
    struct Span {
        uint64_t start, end;
    };
    std::vector<std::vector<Span>> busy_;  // per CPU: its siblings' busy time, sorted and merged
};

}  // namespace schedscope::replay
