#pragma once
// struct sg_lb_stats and group_classify() from kernel/sched/fair.c, shared by the fork/exec
// placement (find_idlest_group) and the load balancer (update_sd_lb_stats).
#include <string>

namespace schedscope::sim {

// enum group_type, in the kernel's order of "busier"
// (group_smt_balance is 6.6's: an SMT core running more than one task, seen by an idle CPU)
enum class GroupType { HasSpare, FullyBusy, MisfitTask, SmtBalance, AsymPacking, Imbalanced, Overloaded };
const char* groupTypeName(GroupType t);

struct SgStats {
    double avgLoad = 0;
    double groupLoad = 0;
    double groupUtil = 0;
    double groupRunnable = 0;
    double groupCapacity = 0;
    // sum_nr_running: the tasks on the group's runqueues (rq->nr_running, delayed-dequeue ones
    // included); sum_h_nr_running: those that can run (h_nr_runnable), which the balancer reads
    // where it asks whether the group has a task to give
    int sumNrRunning = 0;
    int sumHNrRunning = 0;
    int idleCpus = 0;
    int groupWeight = 0;
    // ASYM_PACKING (balancer only): the idle dst CPU is preferred to this group (sched_group_asym()),
    // and the priority of the group's asym_prefer_cpu, to pick the lowest such group
    bool asymPacking = false;
    int asymPreferPrio = 0;
    // the group's shape (balancer only): its SMT cores and flags (its child domain's: an SMT core
    // has SD_SHARE_CPUCAPACITY), and 6.6's smt_balance(): an SMT core with more than one task,
    // not the local group, seen by an idle CPU
    int cores = 1;
    unsigned flags = 0;
    bool smtBalance = false;
    // asymmetric capacities: the largest misfit task load of the group's CPUs (balancer: other
    // groups of an SD_ASYM_CPUCAPACITY domain; fork/exec placement: 1 when the task fits none of
    // its CPUs) and the group's smallest and largest CPU capacity (sgc->min/max_capacity)
    double misfitTaskLoad = 0;
    double minCapacity = 1024, maxCapacity = 1024;
    GroupType type = GroupType::HasSpare;
};

// group_is_overloaded(): more tasks than CPUs and not enough capacity for them
bool groupIsOverloaded(unsigned imbalancePct, const SgStats& sgs);
// group_has_capacity(): fewer tasks than CPUs, or util/runnable below capacity
bool groupHasCapacity(unsigned imbalancePct, const SgStats& sgs);
// group_classify(); `imbalanced` is sg_imbalanced() (pinned tasks kept a child unbalanced).
// Asym packing: sgs.asymPacking, set by the balancer (asym_packing.h); SMT balance:
// sgs.smtBalance, set by the balancer from 6.6; misfit: sgs.misfitTaskLoad.
GroupType groupClassify(unsigned imbalancePct, const SgStats& sgs, bool imbalanced);

}  // namespace schedscope::sim
