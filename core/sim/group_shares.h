#pragma once
// Task groups (CONFIG_FAIR_GROUP_SCHED: cgroups with the cpu controller, autogroups), one level
// deep and flattened. The kernel queues a group's tasks on the group's own runqueue on each CPU
// and that runqueue, as one entity of weight calc_group_shares(), on the CPU's: a CPU's time is
// shared between the groups there first and among a group's tasks second. Here the group's
// tasks stay on the CPU's one queue, each weighing its share of the group's entity:
//
//     weight(task) = nice weight(task) x shares(group, cpu) / queued nice weight(group, cpu)
//
// so a group's tasks on a CPU weigh what its entity would, the CPU's load is the sum of its
// groups' entities (as the root runqueue's is), and a task's load is task_h_load(). The order
// in which a CPU's tasks run follows one EEVDF queue, not one per group: the shares over time
// are the kernel's, the order within a slice may not be.
#include <cstdint>
#include <vector>

#include "sim/pelt.h"

namespace schedscope::sim {

// A group on one CPU: its runqueue's queued weight and what the group was last charged there.
struct GroupOnCpu {
    double queuedWeight = 0;  // cfs_rq->load.weight: nice weights of its queued tasks (curr too)
    double shares = 0;        // the group entity's weight there, calc_group_shares()
    double loadContrib = 0;   // cfs_rq->tg_load_avg_contrib: its load average when last weighed
    std::vector<int> attached;  // the group's tasks whose load is on this CPU (blocked ones too)
};

struct TaskGroupState {
    double shares = 1024;     // tg->shares
    std::vector<int> members;  // task ids
    std::vector<GroupOnCpu> onCpu;
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

}  // namespace schedscope::sim
