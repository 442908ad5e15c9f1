#include "sim/group_runqueues.h"

#include <algorithm>
#include <string>

namespace schedscope::sim {

namespace {
// how often a group's load is summed afresh over all its CPUs
constexpr int64_t kGroupLoadRefreshNs = 1000000;
// groups x CPUs the simulator keeps a group runqueue for (about 50 bytes each: 500 MB at most)
constexpr size_t kMaxGroupRunqueues = 10'000'000;

double attachedLoad(const GroupOnCpu& on, const std::vector<Task>& tasks, int64_t now) {
    double load = 0;
    for (int m : on.attached) load += tasks[static_cast<size_t>(m)].groupLoad.peek(now);
    return load;
}
}  // namespace

Status setUpTaskGroups(SimState& s, const workload::Workload& wl) {
    s.groups.assign(wl.groups.size(), TaskGroupState{});
    for (size_t g = 0; g < wl.groups.size(); ++g) {
        const int shares = wl.groups[g].shares;
        if (shares < workload::kMinGroupShares || shares > workload::kMaxGroupShares)
            return Error{"workload group '" + wl.groups[g].name + "': shares " + std::to_string(shares) + " outside " +
                         std::to_string(workload::kMinGroupShares) + ".." + std::to_string(workload::kMaxGroupShares)};
        s.groups[g].shares = shares;
        const int parent = wl.groups[g].parent;
        if (parent >= static_cast<int>(wl.groups.size()) || parent == static_cast<int>(g))
            return Error{"workload group '" + wl.groups[g].name + "': its parent " + std::to_string(parent) +
                         " is not another of the workload's groups"};
        s.groups[g].parent = parent;
        if (parent >= 0) s.groups[static_cast<size_t>(parent)].hasChildren = true;
        const workload::TaskGroupSpec& spec = wl.groups[g];
        if (spec.quotaUs > 0 && s.opt.bandwidth) {
            if (!workload::bandwidthLimitInRange(spec.quotaUs, spec.periodUs, spec.burstUs))
                return Error{"workload group '" + spec.name + "': a quota of " + std::to_string(spec.quotaUs) + " us per " +
                             std::to_string(spec.periodUs) + " us (burst " + std::to_string(spec.burstUs) +
                             " us) is outside the kernel's limits (period 1 ms..1 s, quota at least 1 ms, burst at most the quota)"};
            setBandwidth(s.groups[g].bandwidth, spec.quotaUs * 1000, spec.periodUs * 1000, spec.burstUs * 1000);
        }
    }
    // each group's top group (a child of the root), and each top group's family (itself first)
    for (size_t g = 0; g < s.groups.size(); ++g) {
        int top = static_cast<int>(g);
        for (int depth = 0; s.groups[static_cast<size_t>(top)].parent >= 0; ++depth) {
            if (depth > workload::kMaxGroupDepth)
                return Error{"workload group '" + wl.groups[g].name + "': its parents do not reach the root group within " +
                             std::to_string(workload::kMaxGroupDepth) + " levels"};
            top = s.groups[static_cast<size_t>(top)].parent;
        }
        s.groups[g].top = top;
    }
    for (size_t g = 0; g < s.groups.size(); ++g)
        if (static_cast<size_t>(s.groups[g].top) == g) s.groups[g].family.push_back(static_cast<int>(g));
    for (size_t g = 0; g < s.groups.size(); ++g)
        if (static_cast<size_t>(s.groups[g].top) != g)
            s.groups[static_cast<size_t>(s.groups[g].top)].family.push_back(static_cast<int>(g));
    // each group's subtree: it and its descendants, by walking every group's parent chain
    for (size_t g = 0; g < s.groups.size(); ++g)
        for (int k = static_cast<int>(g); k >= 0; k = s.groups[static_cast<size_t>(k)].parent)
            s.groups[static_cast<size_t>(k)].subtree.push_back(static_cast<int>(g));
    for (const Task& t : s.tasks)
        if (t.group >= 0) s.groups[static_cast<size_t>(t.group)].members.push_back(t.id);
    // a group without tasks of its own needs its runqueues when one below it has tasks: its
    // entity is queued on its parent's runqueues as theirs are; a group only listed takes none
    const size_t n = s.cpus.size();
    std::vector<char> needed(s.groups.size(), 0);
    for (size_t g = 0; g < s.groups.size(); ++g)
        if (!s.groups[g].members.empty())
            for (int k = static_cast<int>(g); k >= 0 && !needed[static_cast<size_t>(k)]; k = s.groups[static_cast<size_t>(k)].parent)
                needed[static_cast<size_t>(k)] = 1;
    size_t runqueues = 0;
    for (char need : needed) runqueues += need ? n : 0;
    if (runqueues > kMaxGroupRunqueues)
        return Error{"simulate: " + std::to_string(runqueues / n) + " task groups in use on " + std::to_string(n) +
                     " CPUs need " + std::to_string(runqueues) + " group runqueues, more than the " +
                     std::to_string(kMaxGroupRunqueues) + " the simulator keeps (put tasks in fewer groups)"};
    for (size_t g = 0; g < s.groups.size(); ++g)
        if (needed[g]) s.groups[g].onCpu.assign(n, GroupOnCpu{});
    return {};
}

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
