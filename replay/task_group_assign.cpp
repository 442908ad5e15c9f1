#include "task_group_assign.h"

#include <map>

namespace schedscope::replay {

int assignTaskGroups(DerivedWorkload& derived, const tracing::TaskGroupSnapshot& snapshot, const tracing::EventStore& store) {
    std::vector<int32_t> pids;
    pids.reserve(derived.tasks.size());
    for (const auto& t : derived.tasks) pids.push_back(t.pid);
    const std::map<int32_t, std::string> groupOf = tracing::groupsOfTasks(snapshot, store, pids);
    workload::Workload& w = derived.workload;
    w.groups.clear();
    std::map<std::string, int> index;
    int grouped = 0;
    for (size_t i = 0; i < derived.tasks.size() && i < w.tasks.size(); ++i) {
        w.tasks[i].group = -1;
        const auto it = groupOf.find(derived.tasks[i].pid);
        if (it == groupOf.end() || it->second.empty() || it->second == "/") continue;
        auto [at, added] = index.emplace(it->second, static_cast<int>(w.groups.size()));
        if (added) w.groups.push_back({it->second, snapshot.sharesOfGroup(it->second)});
        w.tasks[i].group = at->second;
        ++grouped;
    }
    return grouped;
}

}  // namespace schedscope::replay
