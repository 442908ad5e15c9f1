#pragma once
// Automatic NUMA balancing's task side: task_numa_migrate() in kernel/sched/fair.c (v6.1),
// which the NUMA hinting faults of a task running away from its memory call every
// numa_migrate_retry (a sixteenth of its scan period). It moves the task to an idle CPU of the
// node its memory is on when that node has room the balancer would not take back
// (adjust_numa_imbalance()), or swaps it with a task running there when the swap gains more
// than the two tasks lose and keeps the two nodes' loads as balanced (migrate_swap()).
//
// The memory side is the engine's (SimOptions::numaMemoryFollowsS): memory moves to a node the
// task has stayed on for a scan period. A task's memory is all on its home node, so its
// preferred node (task_numa_placement()) is that node and task_weight() is 1000 there and 0
// elsewhere; a task without memory traffic has no NUMA faults, no preference and weight 0
// everywhere. Not modelled: NUMA groups (tasks sharing memory), and the kernel's second try at
// the other nodes when the preferred one has no room (scored by their distance to the memory on
// machines of more than two distance levels).
#include "sim/sim_state.h"

namespace schedscope::sim {

// task_numa_migrate()'s choice for a task: move it to `dstCpu`, or swap it with `swapWith`,
// the task running on `dstCpu`. dstCpu -1: it stays.
struct NumaPlacement {
    int dstCpu = -1;
    int swapWith = -1;
    const char* rule = "";  // why, for the decision log
};

// The node task_numa_placement() prefers for `t`: its memory's node, or -1 without NUMA faults.
int numaPreferredNode(const Task& t);

// task_numa_migrate() for `p`, running on p.cpu away from its memory. Reads the state only.
NumaPlacement taskNumaMigrate(SimState& s, const Task& p);

}  // namespace schedscope::sim
