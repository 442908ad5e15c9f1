#pragma once
// Task placement at wakeup, fork and exec, mirroring kernel/sched/fair.c. Each function is a
// small unit named after the kernel function; tests drive them on tiny topologies.
#include "sim/group_stats.h"
#include "sim/sim_state.h"

namespace schedscope::sim {

enum WakeFlags : int { WF_TTWU = 1, WF_FORK = 2, WF_EXEC = 4, WF_SYNC = 8 };

// mirrors record_wakee(): the waker's wakee_flips count how often it switches wakee, halved
// once a second.
void recordWakee(SimState& s, Task& waker, const Task& wakee);
// mirrors wake_wide(): 1 when waker and wakee flip between many partners, the LLC's size the
// factor as in the kernel (4.13+); SimFeatures::wakeWide may make it the cluster's size, which
// seed 001 tried and dropped, or turn it off, which the seed found faster for pgbench in one LLC.
bool wakeWide(const SimState& s, const Task& waker, const Task& wakee, int thisCpu);
// mirrors wake_affine() with wake_affine_idle() then wake_affine_weight(); returns this_cpu or prev_cpu.
int wakeAffine(SimState& s, int sdIndex, const Task& p, int thisCpu, int prevCpu, bool sync, const Task* waker);
// mirrors select_idle_core(): the whole SMT core of `core` idle; records an idle CPU seen.
int selectIdleCore(SimState& s, const Task& p, int core, ScanMask& scan, int& idleCpu);
// mirrors select_idle_smt(): an idle SMT sibling of target.
int selectIdleSmt(SimState& s, const Task& p, int target);
// mirrors select_idle_cpu(): scan the LLC from target+1, at most nr_idle_scan CPUs (SIS_UTIL),
// the target's cluster first when the profile has the cluster-first scan and SD_CLUSTER exists.
int selectIdleCpu(SimState& s, const Task& p, bool hasIdleCore, int target);
// mirrors select_idle_sibling(): target, prev, recent_used_cpu, then the scans.
int selectIdleSibling(SimState& s, Task& p, int prev, int target);
// mirrors update_sg_wakeup_stats(): group statistics as if `p` were not queued anywhere.
SgStats sgWakeupStats(SimState& s, int cpu, int sdIndex, int groupIndex, const Task& p);
// mirrors find_idlest_group(): index into the domain's groups, or -1 to stay local.
int findIdlestGroup(SimState& s, int cpu, int sdIndex, const Task& p);
// mirrors find_idlest_group_cpu(): the most recently idled CPU, else the least loaded.
int findIdlestGroupCpu(SimState& s, const CpuSet& group, const Task& p, int thisCpu);
// mirrors find_idlest_cpu(): walk down from the domain `sdIndex` of `cpu`.
int findIdlestCpu(SimState& s, const Task& p, int cpu, int prevCpu, int sdIndex, uint32_t sdFlag);
// mirrors select_task_rq_fair(): `thisCpu` is where the waker/parent runs, `waker` may be null
// (timer wakeups).
int selectTaskRqFair(SimState& s, Task& p, int prevCpu, int thisCpu, int wakeFlags, Task* waker);
// mirrors adjust_numa_imbalance() as the profile's kernel has it.
long adjustNumaImbalance(const SimState& s, long imbalance, int dstRunning, int imbNumaNr, int groupWeight);

}  // namespace schedscope::sim
