#include "task_group_assign.h"

#include <functional>
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
    // the group and the cgroups above it, each once, with its parent
    std::function<int(const std::string&)> groupIndex = [&](const std::string& name) -> int {
        if (auto found = index.find(name); found != index.end()) return found->second;
        const std::string parentName = tracing::parentGroupOf(name);
        const int parent = parentName.empty() ? -1 : groupIndex(parentName);
        const int at = static_cast<int>(w.groups.size());
        index.emplace(name, at);
        workload::TaskGroupSpec group{name, snapshot.sharesOfGroup(name), parent};
        if (auto limit = snapshot.limitOf.find(name); limit != snapshot.limitOf.end()) {
            group.quotaUs = limit->second.quotaUs;
            group.periodUs = limit->second.periodUs;
            group.burstUs = limit->second.burstUs;
        }
        w.groups.push_back(std::move(group));
        return at;
    };
    int grouped = 0;
    for (size_t i = 0; i < derived.tasks.size() && i < w.tasks.size(); ++i) {
        w.tasks[i].group = -1;
        const auto it = groupOf.find(derived.tasks[i].pid);
        if (it == groupOf.end() || it->second.empty() || it->second == "/") continue;
        w.tasks[i].group = groupIndex(it->second);
        ++grouped;
    }
    return grouped;
}

}  // namespace schedscope::replay
