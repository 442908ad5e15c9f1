#pragma once
// What a replay can say of the task groups its tasks ran in (the recording's groups sidecar,
// tracing/task_groups.h), which it simulates them in (task_group_assign.h): their names and task
// counts, and how far the simulator's groups go.
#include <string>
#include <vector>

#include "derive_workload.h"
#include "event_store.h"
#include "task_groups.h"

namespace schedscope::replay {

struct TaskGroupCount {
    std::string group;  // a cgroup path ("/user.slice/...") or "autogroup-N"; "/" the root group
    int tasks = 0;      // kept tasks that ran (CPU time in the window) in it
};

// The groups of the derived tasks that ran, most tasks first; tasks of no known group are left out.
std::vector<TaskGroupCount> countTaskGroups(const tracing::TaskGroupSnapshot& snapshot, const tracing::EventStore& store,
                                            const DerivedWorkload& derived);
// The assumption line for them ("" when none is known); `guessed`: the groups are sessions
// guessed from the trace's forks (session_guess.h), not the recording's sidecar.
std::string taskGroupAssumption(const std::vector<TaskGroupCount>& groups, bool guessed = false);
// The assumption line of a recording without a groups sidecar replayed in the root group.
std::string noGroupsSidecarAssumption();
// The assumption line for the CPU bandwidth limits of the groups the replay runs its tasks in
// (`workload`'s, assignTaskGroups()), "" when none has one.
std::string bandwidthAssumption(const workload::Workload& workload);

}  // namespace schedscope::replay
