#pragma once
// A replay's tasks in the task groups they ran in (the recording's groups sidecar,
// tracing/task_groups.h): the simulator then shares each CPU between the groups by their shares
// before their tasks, as the kernel did (sim/group_shares.h).
#include "derive_workload.h"
#include "event_store.h"
#include "task_groups.h"

namespace schedscope::replay {

// Puts each derived task in its group, with the group's shares and CPU bandwidth limit (cpu.max),
// and the cgroups above that group
// in the workload as its ancestors (a cgroup path's prefixes); a task of the root group, or of
// no known group, stays in the root group. Returns how many tasks went into a group.
int assignTaskGroups(DerivedWorkload& derived, const tracing::TaskGroupSnapshot& snapshot, const tracing::EventStore& store);

}  // namespace schedscope::replay
