#pragma once
// A task group's runqueues, one per CPU (group_shares.h): which of its tasks' load averages each
// CPU holds, blocked tasks' too, and the group's load in all, tg->load_avg, as the sum of the
// CPUs' contributions. The engine keeps them as its tasks move, start and exit.
#include <cstdint>
#include <vector>

#include "sim/group_shares.h"
#include "sim/sim_state.h"
#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::sim {

// SimState::groups for `workload`'s groups, with the tasks already set up (Task::group: -1 for
// each when the run has no groups): shares, parents, each group's top group and family, and
// a runqueue per CPU for each group with tasks in it or below it, which are bounded (200,000
// tasks in their own groups on 4096 CPUs would want tens of GB). Errors name the group.
Status setUpTaskGroups(SimState& s, const workload::Workload& workload);

// The group's runqueue load average on `cpu` (its attached tasks'; a parent group's, its queued
// weight), which becomes that CPU's contribution to tg->load_avg. As the kernel's update_blocked_averages() refreshes the
// contributions of CPUs that saw no event of the group, every contribution is summed afresh
// once a millisecond (update_tg_load_avg()'s own rate limit): a task's load left on a CPU it
// slept on made its one-task group weigh half where it woke.
double refreshGroupLoad(TaskGroupState& group, int cpu, const std::vector<Task>& tasks, int64_t now);

// `t` (of `group`) is counted on `cpu` (-1: on none, it exited): where its load average is
// attached. A task that moves takes its load along; the CPU it left contributes what remains.
void attachToGroupCpu(TaskGroupState& group, Task& t, int cpu, const std::vector<Task>& tasks, int64_t now);

}  // namespace schedscope::sim
