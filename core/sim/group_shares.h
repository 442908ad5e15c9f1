#pragma once
// Task groups (CONFIG_FAIR_GROUP_SCHED: cgroups with the cpu controller, autogroups), nested and
// flattened. The kernel queues a group's tasks, and its child groups as entities, on the group's
// own runqueue on each CPU, and that runqueue, as one entity of weight calc_group_shares(), on
// its parent's (the CPU's at the top): a CPU's time is shared between the entities at each level
// in turn. Here every task stays on the CPU's one queue, weighing its share of each group entity
// on its way up:
//
//     weight(task) = nice weight(task) x product over its group and their ancestors g of
//                    shares(g, cpu) / queued weight(g, cpu)
//
// where a group's queued weight on a CPU is its queued tasks' nice weights plus the weights of
// its child groups' entities queued there. A group's tasks on a CPU then weigh what its entity
// does, the CPU's load is the sum of its top entities' (as the root runqueue's is), and a task's
// load is task_h_load(). The order in which a CPU's tasks run follows one EEVDF queue, not one
// per group: the shares over time are the kernel's, the order within a slice may not be.
#include <cstdint>
#include <vector>

#include "sim/cfs_bandwidth.h"
#include "sim/pelt.h"

namespace schedscope::sim {

// A group on one CPU: its runqueue's queued weight and what the group was last charged there.
struct GroupOnCpu {
    // cfs_rq->load.weight: nice weights of its queued tasks (curr too) and the weights of its
    // child groups' entities queued here
    double queuedWeight = 0;
    double shares = 0;        // the group entity's weight there, calc_group_shares()
    double inParent = 0;      // what its entity adds to its parent's queuedWeight here (0: not queued)
    double loadContrib = 0;   // cfs_rq->tg_load_avg_contrib: its load average when last weighed
    std::vector<int> attached;  // the group's tasks whose load is on this CPU (blocked ones too)
    // CFS bandwidth control (cfs_bandwidth.h), for a group with a quota: this runqueue's
    // allowance (cfs_rq->runtime_remaining), whether it is throttled, and since when
    int64_t runtimeRemaining = 0;
    bool throttled = false;
    int64_t throttledAt = 0;
    // RUN_TO_PARITY for the group's entity here (fair_rq.h's checkPreemptWakeup()): when
    // set_next_entity() last picked it, and which came last of that pick and reweight_entity()
    // changing its weight (SimState::groupEntityClock's stamps: events of one instant in order)
    int64_t pickedAt = -1;
    uint64_t pickedStamp = 0;
    uint64_t reweightedStamp = 0;
};

struct TaskGroupState {
    double shares = 1024;     // tg->shares
    int parent = -1;          // its parent group; -1: the root group
    // a parent's load on a CPU is its queued weight (its children's load averages are not kept)
    bool hasChildren = false;
    std::vector<int> family;  // for a top group (a child of the root): it and every group below it
    int top = -1;             // the top group it is in (itself for a top group)
    std::vector<int> members;  // task ids
    std::vector<GroupOnCpu> onCpu;
    // the group and every group below it (throttling it stops theirs too)
    std::vector<int> subtree;
    CfsBandwidth bandwidth;  // its quota (none: bandwidth.limited() is false) and pool
    double loadAvg = 0;  // tg->load_avg: the sum of the CPUs' loadContrib
    int64_t refreshedAt = -(int64_t{1} << 62);  // when every CPU's contribution was last summed afresh
};

// calc_group_shares(): the group's shares split by the CPUs' loads, where this CPU's load is the
// larger of its queued weight and its load average (`cfsLoadAvg`), the other CPUs' as they last
// contributed; clamped to [MIN_SHARES, tg->shares].
double calcGroupShares(const TaskGroupState& g, int cpu, double cfsLoadAvg);

// A task's weight on a CPU where its group's entity weighs `shares` over `queuedWeight` of nice
// weight: never below MIN_SHARES' 2 (the kernel's smallest entity weight).
double flattenedWeight(double niceWeight, double shares, double queuedWeight);
// The same through every level: `groups` from the task's group up to the root, as
// `group`'s parent chain on `cpu` gives them.
double flattenedWeight(double niceWeight, const std::vector<TaskGroupState>& groups, int group, int cpu);

// `g` is `h` or a group above it; the root group (-1) is above every group
bool isGroupOrAncestorOf(const std::vector<TaskGroupState>& groups, int g, int h);

// `group` or a group above it is throttled on `cpu` (out of CPU bandwidth there, cfs_bandwidth.h)
bool groupThrottledOn(const std::vector<TaskGroupState>& groups, int group, int cpu);

}  // namespace schedscope::sim
