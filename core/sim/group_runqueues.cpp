#include "sim/group_runqueues.h"

#include <algorithm>

namespace schedscope::sim {

namespace {
// how often a group's load is summed afresh over all its CPUs
constexpr int64_t kGroupLoadRefreshNs = 1000000;

double attachedLoad(const GroupOnCpu& on, const std::vector<Task>& tasks, int64_t now) {
    double load = 0;
    for (int m : on.attached) load += tasks[static_cast<size_t>(m)].groupLoad.peek(now);
    return load;
}
}  // namespace

double refreshGroupLoad(TaskGroupState& group, int cpu, const std::vector<Task>& tasks, int64_t now) {
    // a parent group's queued weight changes only on its CPU's events: every contribution is current
    auto loadOf = [&](const GroupOnCpu& on) { return group.hasChildren ? on.queuedWeight : attachedLoad(on, tasks, now); };
    if (now - group.refreshedAt >= kGroupLoadRefreshNs) {
        group.refreshedAt = now;
        group.loadAvg = 0;
        for (GroupOnCpu& on : group.onCpu) {
            if (on.attached.empty() && on.loadContrib == 0 && on.queuedWeight == 0) continue;
            on.loadContrib = loadOf(on);
            group.loadAvg += on.loadContrib;
        }
        return group.onCpu[static_cast<size_t>(cpu)].loadContrib;
    }
    GroupOnCpu& here = group.onCpu[static_cast<size_t>(cpu)];
    const double load = loadOf(here);
    group.loadAvg = std::max(0.0, group.loadAvg + load - here.loadContrib);
    here.loadContrib = load;
    return load;
}

void attachToGroupCpu(TaskGroupState& group, Task& t, int cpu, const std::vector<Task>& tasks, int64_t now) {
    if (t.groupCpu == cpu) return;
    const int from = t.groupCpu;
    if (from >= 0) {
        std::vector<int>& list = group.onCpu[static_cast<size_t>(from)].attached;
        list.erase(std::find(list.begin(), list.end(), t.id));
    }
    if (cpu >= 0) group.onCpu[static_cast<size_t>(cpu)].attached.push_back(t.id);
    t.groupCpu = cpu;
    if (from >= 0) refreshGroupLoad(group, from, tasks, now);
}

}  // namespace schedscope::sim
