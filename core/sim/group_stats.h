#pragma once
// struct sg_lb_stats and group_classify() from kernel/sched/fair.c, shared by the fork/exec
// placement (find_idlest_group) and the load balancer (update_sd_lb_stats).
#include <string>

namespace schedscope::sim {

// enum group_type, in the kernel's order of "busier"
enum class GroupType { HasSpare, FullyBusy, MisfitTask, AsymPacking, Imbalanced, Overloaded };
const char* groupTypeName(GroupType t);

struct SgStats {
    double avgLoad = 0;
    double groupLoad = 0;
    double groupUtil = 0;
    double groupRunnable = 0;
    double groupCapacity = 0;
    int sumNrRunning = 0;
    int idleCpus = 0;
    int groupWeight = 0;
    // ASYM_PACKING (balancer only): the idle dst CPU is preferred to this group (sched_group_asym()),
    // and the priority of the group's asym_prefer_cpu, to pick the lowest such group
    bool asymPacking = false;
    int asymPreferPrio = 0;
    GroupType type = GroupType::HasSpare;
};

// group_is_overloaded(): more tasks than CPUs and not enough capacity for them
bool groupIsOverloaded(unsigned imbalancePct, const SgStats& sgs);
// group_has_capacity(): fewer tasks than CPUs, or util/runnable below capacity
bool groupHasCapacity(unsigned imbalancePct, const SgStats& sgs);
// group_classify(); `imbalanced` is sg_imbalanced() (pinned tasks kept a child unbalanced).
// Asym packing: sgs.asymPacking, set by the balancer (asym_packing.h). Misfit needs asymmetric
// CPU capacities, which the simulator does not model.
GroupType groupClassify(unsigned imbalancePct, const SgStats& sgs, bool imbalanced);

}  // namespace schedscope::sim
