#pragma once
// ASYM_PACKING (kernel/sched/fair.c, v6.12): on a machine whose domains carry SD_ASYM_PACKING
// (x86 ITMT: hybrid CPUs, Turbo Boost Max 3.0; POWER7's asymmetric SMT) the balancer packs tasks
// onto the CPUs of highest priority (arch_asym_cpu_priority()). On x86 priorities come from the
// CPU kinds, the more powerful kind higher (hwloc lists kinds from the least powerful); the SMT
// siblings of a core share one since 6.5 ("x86/sched/itmt: Give all SMT siblings of a core the
// same priority"), and before it the i-th sibling had the core's x siblings / i^2 (a second
// thread below every first one). Elsewhere the lower CPU number wins. Every function is false
// when all CPUs have the same priority.
#include <vector>

#include "domains/domain_tree.h"
#include "sim/sim_state.h"

namespace schedscope::sim {

// Per CPU, or empty when no domain has SD_ASYM_PACKING or (x86) all CPUs have one priority.
std::vector<int> asymPriorities(const Topology& topology, const DomainTree& tree);

// sched_asym_prefer(): a's priority above b's
inline bool schedAsymPrefer(const SimState& s, int a, int b) {
    return s.asymPrio[static_cast<size_t>(a)] > s.asymPrio[static_cast<size_t>(b)];
}
// sched_use_asym_prio(): the domain packs, and with SMT on, between cores only from an idle core
bool schedUseAsymPrio(const SimState& s, const SchedDomain& sd, int cpu);
// sched_asym(): dst may pull from src by priority
bool schedAsym(const SimState& s, const SchedDomain& sd, int dst, int src);
// sg->asym_prefer_cpu: the group's CPU of highest priority (the first one on a tie)
int asymPreferCpu(const SimState& s, const CpuSet& span);
// per_cpu(sd_asym_packing): index of the CPU's highest domain with SD_ASYM_PACKING, -1 when none
int sdAsymPacking(const SimState& s, int cpu);

}  // namespace schedscope::sim
