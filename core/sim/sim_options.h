#pragma once
// What a simulation run is configured with, and the kernel behaviours a profile selects.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "domains/profile.h"
#include "util/cpuset.h"
#include "util/result.h"

namespace schedscope::sim {

// wake_wide()'s factor: the kernel's sd_llc_size, the cluster's size (seed 001's experiment on
// Kunpeng 920, where it is 4 against an LLC of 24), or no wake_wide() at all (every wakeup may
// be affine: the seed's "always return 0")
enum class WakeWide { Llc, Cluster, Off };

// Kernel behaviours that differ across the profiles, in one place.
struct SimFeatures {
    FairClass fairClass = FairClass::Eevdf;
    bool sisUtil = true;            // SIS_UTIL scan limit in select_idle_cpu (5.20/6.0+)
    bool clusterScan = false;       // cluster-first wakeup scan (6.8+)
    int numaImbalance = 2;          // adjust_numa_imbalance: 0 none (<5.5), 1 25% of span (5.x), 2 imb_numa_nr (5.18+)
    bool legacyActiveBalance = false;  // before 5.10: active balance after nr_balance_failed > cache_nice_tries+2 for any imbalance, not only migrate_task
    // 6.5+: an SMT core wins ties between fully busy groups; prefer_sibling is the busiest group's
    bool smtFullyBusyBusiest = true;
    // 6.6+: group_smt_balance, sibling_imbalance() by cores, should_we_balance()'s idle core first
    bool smtBalance = true;
    // DELAY_DEQUEUE (6.12+, with DELAY_ZERO): a task that blocks while not eligible stays queued
    // until it is picked (then leaves) or woken (then runs where it is: no select_task_rq)
    bool delayDequeue = false;
    // PLACE_REL_DEADLINE (6.12+): a task a migration (not a sleep) takes off a runqueue keeps the
    // distance from its vruntime to its deadline where it is placed next, not a fresh slice
    bool placeRelDeadline = false;
    // RUN_TO_PARITY (EEVDF, 6.6+): a woken task does not preempt curr while curr is eligible and
    // still in the slice it was picked with (off in every profile: see featuresFor())
    bool runToParity = false;
    // a group entity's RUN_TO_PARITY protection survives its reweights (7.0: se->vprot is a field
    // of its own, rescaled by reweight_entity()); before, the first reweight ends it
    bool groupEntityKeepsProtection = false;
    // UTIL_EST (4.17+, on in the kernels): a CPU's and a task's utilisation, as the balancer, the
    // wakeup path and fork placement read them, is at least what the tasks' recent activations
    // used (util_est.h); off unless a what-if sets it (see featuresFor())
    bool utilEst = false;
    // can_migrate_task() leaves a task that would not be eligible on the destination until the
    // domain has failed to balance (6.14+, task_is_ineligible_on_dst_cpu())
    bool migrateEligibleFirst = false;
    // task_hot() (5.10+): SMT siblings share their caches, so no task is hot to one
    bool smtNeverCacheHot = true;
    // get_sd_balance_interval() (5.10+): a busy CPU's interval is one jiffy short
    bool busyIntervalLessAJiffy = true;
    // detach_tasks() (6.8+): a migrate_util balance that failed takes a task of up to
    // 2^nr_balance_failed times the imbalance, as migrate_load does
    bool utilShrBound = true;
    // sched_balance_rq() (6.10+): a misfit balance that moved nothing counts no nr_balance_failed
    // (that count is for cache-hot and load/util moves) and does not double the balance interval
    bool misfitNoBackoff = true;
    double baseSliceNs = 0.75e6;  // sysctl_sched_base_slice before scaling (0.70 ms since 6.15)
    // NI_RANDOM (6.19; 6.1.160, 6.6.120, 6.12.65, 6.18.5): newidle balance runs at a domain with
    // the probability of its recent success, so a domain where pulling rarely works is rarely tried
    bool newidleRandom = false;
    // NI_RATE (7.1): the ratio also grows with the time its last 512 newidle balances took, so a
    // domain balanced rarely keeps a high ratio whatever its success; at 1024 no die is thrown
    bool newidleRate = false;
    // newidle balance needs an expected idle longer than the lowest domain's recent pass cost,
    // not than sysctl_sched_migration_cost (5.16+)
    bool newidleCostGate = true;
    // a failed newidle pass bumps the domain's cost by half (6.17 until the 6.19 revert)
    bool newidleFailBump = false;
    // CFS: sched_slice() is at least sysctl_sched_min_granularity (BASE_SLICE, 5.13+): a low
    // weight among heavy ones still runs that long before the tick preempts it
    bool cfsSliceFloor = true;
    WakeWide wakeWide = WakeWide::Llc;  // every kernel since 4.13 ("sched: Implement smarter wake-affine logic")
    AsymWakeup asymWakeup = AsymWakeup::FitsFirst;  // capacities in the wakeup path (KernelProfile::asymWakeup)
};

struct SimOptions {
    uint64_t seed = 1;
    double durationS = 1.0;       // simulated seconds (a workload's own duration= wins)
    int hz = 250;                 // CONFIG_HZ: tick and jiffies
    double samplePeriodS = 0.01;  // placement timeline sampling
    double migrationCostNs = 500000;  // sysctl_sched_migration_cost (0.5 ms)
    bool nohz = true;             // idle CPUs stop their tick (NO_HZ_IDLE) and rely on the ilb
    // Automatic NUMA balancing (numa_balancing=1, the default on NUMA machines since 3.8): a
    // task's memory follows it to a node it has run on for this long. The scanner unmaps a
    // share of its pages once per scan period (numa_balancing_scan_period_min_ms, 1 s) and the
    // task's next faults from the new node migrate them; modelled as one move after a period.
    // The same period is the scan delay after which a task's faults begin, and a sixteenth of
    // it the interval at which NUMA balancing tries to take a task back to its memory
    // (numa_balancing.h). 0: off (numa_balancing=0), its memory stays where it first ran.
    double numaMemoryFollowsS = 1.0;
    // The workload's task groups (workload::Workload::groups): false runs every task in the root
    // group, as one group for all (what-if --compare task-groups, replay --no-task-groups).
    bool taskGroups = true;
    // The groups' CPU bandwidth limits (workload::TaskGroupSpec::quotaUs, cfs_bandwidth.h):
    // false lets every group run unlimited (what-if --compare bandwidth).
    bool bandwidth = true;
    // A task woken onto an idle CPU runs this long after the wakeup: the idle state's
    // exit latency and the wakeup IPI (a few us on bare metal in C1, tens of us from deeper
    // states or in a VM). 0: at once. Replay sets it from the recording's own wakeups.
    int64_t idleExitNs = 0;
    // A resched a wakeup asks of a CPU that another CPU's task woke it onto (a remote resched:
    // TIF_NEED_RESCHED and an IPI) takes effect this long after, at that CPU's next preemption
    // point, if its task is still running then; a switch meanwhile answers it (the task blocked
    // first), and later wakeups add no second one (check_preempt_wakeup_fair() returns while the
    // flag is set). Under preempt=none or voluntary a task inside a syscall runs on to its
    // return to user or its blocking, so this depends on the workload. 0: at once. Replay sets
    // it from the recording's own remote wakeup preemptions.
    int64_t remoteReschedNs = 0;
    // This many events at one instant end the run with an error: a script looping through ops
    // that take no time would otherwise spin for ever (a real burst of same-time events, such
    // as thousands of tasks forked at once, is far below it).
    uint64_t stuckEvents = 20'000'000;
    // The CPUs of a task that names none (an empty TaskSpec::affinity, a SetAffinity op with no
    // CPUs); empty: every online CPU. Replay keeps a 2-CPU recording's tasks on CPUs 0-1 of a
    // larger machine this way, and so runs one workload on both machines without copying it.
    CpuSet unpinnedCpus;
    // What-if: kernel behaviours other than the profile's (e.g. a 4.15 balancer with the NODE level).
    std::optional<SimFeatures> features;
    // Long runs: called every 65536 events with the share of the duration simulated so far
    // (0..1); returning false stops the run, and simulate() fails with "simulation cancelled".
    // It only reads the clock, so a run with it is the same run as one without.
    std::function<bool(double simulatedShare)> progress;
};

SimFeatures featuresFor(const KernelProfile& profile);
// `profile`'s behaviours with DELAY_DEQUEUE set to `on` (the kernel's sched_features knob); on is
// an error for a CFS profile, which has no lag to delay on.
Result<SimFeatures> featuresWithDelayDequeue(const KernelProfile& profile, bool on);

}  // namespace schedscope::sim
