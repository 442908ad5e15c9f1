#include "task_group_note.h"

#include <algorithm>
#include <map>

namespace schedscope::replay {

std::vector<TaskGroupCount> countTaskGroups(const tracing::TaskGroupSnapshot& snapshot, const tracing::EventStore& store,
                                            const DerivedWorkload& derived) {
    std::vector<int32_t> pids;
    for (const auto& t : derived.tasks)
        if (t.cpuTimeNs > 0) pids.push_back(t.pid);
    std::map<std::string, int> counts;
    for (const auto& [pid, group] : tracing::groupsOfTasks(snapshot, store, pids))
        if (!group.empty()) ++counts[group];
    std::vector<TaskGroupCount> out;
    out.reserve(counts.size());
    for (const auto& [group, n] : counts) out.push_back({group, n});
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.tasks > b.tasks; });
    return out;
}

std::string taskGroupAssumption(const std::vector<TaskGroupCount>& groups, bool guessed) {
    if (groups.empty()) return "";
    auto list = [&] {
        std::string s;
        for (size_t i = 0; i < groups.size() && i < 6; ++i)
            s += (i ? ", " : "") + groups[i].group + " (" + std::to_string(groups[i].tasks) + ")";
        if (groups.size() > 6) s += ", ...";
        return s;
    };
    const std::string from = guessed ? "sessions guessed from the trace's forks (--sessions-from-forks): each task "
                                       "the trace does not show forked leads one, a forked task is in its parent's"
                                     : "the recording's groups sidecar";
    if (groups.size() == 1)
        return "the kept tasks that ran were in one task group, " + list() + " (" + from +
               "): the kernel's fairness between groups played no part, its weighing of each task by its share of the "
               "group's load did";
    return "the kept tasks that ran were in " + std::to_string(groups.size()) + " task groups (" + from +
           (guessed ? "" : "; cgroups or autogroup sessions") + ", with their task counts): " + list() +
           ". As the kernel does, the replay shares a CPU between the groups queued on it by their shares, then among "
           "their tasks, nested as the cgroups are; the tasks the trace does not keep take no share (--no-task-groups: "
           "one group for all)";
}

std::string noGroupsSidecarAssumption() {
    return "the trace has no groups sidecar (schedscope-cli record saves one): every kept task replays in the root "
           "group. Under autogroup or cpu cgroups the kernel shares a CPU between sessions first and weighs each task "
           "by its share of its group's load, so the balancer moves many tasks of a busy session at once: "
           "--sessions-from-forks guesses the sessions from the trace's forks";
}

std::string bandwidthAssumption(const workload::Workload& workload) {
    std::string limits;
    int n = 0;
    for (const workload::TaskGroupSpec& g : workload.groups) {
        if (g.quotaUs <= 0) continue;
        if (n++ < 4) limits += (n > 1 ? ", " : "") + g.name + " (" + workload::describeBandwidthLimit(g.quotaUs, g.periodUs, g.burstUs) + ")";
    }
    if (n == 0) return "";
    if (n > 4) limits += ", ...";
    return "the replay holds " + std::string(n == 1 ? "a group" : std::to_string(n) + " groups") +
           " to the CPU bandwidth limit recorded with it (cgroup cpu.max): " + limits +
           "; once a group has used its quota, its tasks wait for the next period (--no-cpu-limits: the groups without their limits)";
}

}  // namespace schedscope::replay
