#pragma once
// Automatic NUMA balancing's task side: task_numa_migrate() in kernel/sched/fair.c (v6.1),
// which the NUMA hinting faults of a task running away from its memory call every
// numa_migrate_retry (a sixteenth of its scan period). It moves the task to an idle CPU of the
// node its memory is on when that node has room the balancer would not take back
// (adjust_numa_imbalance()), or swaps it with a task running there when the swap gains more
// than the two tasks lose and keeps the two nodes' loads as balanced (migrate_swap()).
//
// When that node has no room it tries the other nodes in turn, and the last one with room wins.
//
// The memory side is the engine's (SimOptions::numaMemoryFollowsS): memory moves to a node the
// task has stayed on for a scan period. A task's memory is all on its home node, so its
// preferred node (task_numa_placement()) is that node and task_weight() is 1000 there; on
// machines of more than two distances a node near it scores part of that (score_nearby_nodes():
// scaled by distance on a glueless mesh such as Kunpeng 920's 4 nodes, in full within the hop
// limit on a backplane such as EPYC's 2 sockets). A task without memory traffic has no NUMA
// faults, no preference and weight 0 everywhere. Not modelled: NUMA groups (tasks sharing
// memory).
#include <string>

#include "sim/sim_state.h"

namespace schedscope::sim {

// task_numa_migrate()'s choice for a task: move it to `dstCpu`, or swap it with `swapWith`,
// the task running on `dstCpu`. dstCpu -1: it stays.
struct NumaPlacement {
    int dstCpu = -1;
    int swapWith = -1;
    const char* rule = "";  // why, for the decision log
};

// p->numa_preferred_nid: the node task_numa_placement() prefers for `t`, its memory's, once NUMA
// balancing has scanned its memory: after a scan delay (numa_balancing_scan_delay_ms,
// SimOptions::numaMemoryFollowsS) of its CPU time, when its first hinting faults come in. -1
// before (the kernel's NUMA_NO_NODE, no faults yet), for a task without memory traffic and with
// NUMA balancing off.
int numaPreferredNode(const SimState& s, const Task& t);

// Why NUMA balancing cannot change a run of `wl` under `opt` (its duration, else the workload's),
// "" when it can: a run no longer than the scan delay (SimOptions' default numaMemoryFollowsS)
// ends before any task has a preferred node or has stayed on a node long enough for its memory
// to follow, so with it and without it the runs are the same.
std::string numaBalancingTooShort(const workload::Workload& wl, const SimOptions& opt);

// task_numa_migrate() for `p`, running on p.cpu away from its memory. Reads the state only.
NumaPlacement taskNumaMigrate(SimState& s, const Task& p);

}  // namespace schedscope::sim
