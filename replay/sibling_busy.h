#pragma once
// When a CPU's SMT siblings were busy in the recording, and how many of them. A thread whose
// siblings run too gets part of the core (the simulator's contention model slows each of k busy
// threads by smtSlowdownOf(k)), so recorded CPU time with busy siblings is less work than the
// same time alone: replay turns it into work at the speed it ran, or a what-if on the same
// machine would pay the sharing twice. On an SMT4 or SMT8 core the speed depends on how many
// of the others ran, not only on whether one did.
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
    // Of [start, end) on `cpu`, the ns during which exactly k siblings ran a task, added to
    // byBusy[k] for k >= 1 (the vector grows to the largest k met).
    void addOverlapByBusy(int cpu, uint64_t start, uint64_t end, std::vector<uint64_t>& byBusy) const;

private:
    struct Span {
        uint64_t start, end;
        int busy;  // siblings running a task over [start, end), >= 1
    };
    std::vector<std::vector<Span>> busy_;  // per CPU: sorted, disjoint, only where a sibling ran
};

}  // namespace schedscope::replay
