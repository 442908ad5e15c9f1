#pragma once
// Kernel profiles: what changed across kernel versions in how domains are built and named,
// kept in one table instead of scattered ifs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedscope {

// Scheduler Kconfig options that shape the domain levels.
struct KernelConfig {
    bool schedSmt = true;
    bool schedCluster = true;  // CONFIG_SCHED_CLUSTER (5.16+); off in Debian's arm64 6.1 kernel
    bool schedMc = true;
    bool numa = true;
};

enum class FairClass { Cfs, Eevdf };

// What x86's arch_sched_node_distance() makes of the SLIT for the NUMA levels on Granite Rapids
// and Clearwater Forest (sched_node_distance.h): nothing before 6.19; 6.19 puts the mean of all
// remote distances in place of each; 7.0 averages only between packages, and only with SNC-3.
enum class X86SncDistances { Slit, AverageRemote, PackageMeans };

// One kernel version's behaviours, as far as schedscope models them. A profile is built from a
// list of dated kernel changes (profile.cpp), so any version gets the changes it has:
// profileForKernelRelease("6.10.3") has PKG and SD_SHARE_LLC but no delayed dequeue.
// Which domains get SD_ASYM_CPUCAPACITY on a machine whose CPUs differ in capacity
enum class AsymCapacityRule {
    None,       // 4.14-4.19: the core never sets it (an arch's table could; no mainline one did)
    OneLevel,   // 4.20-5.9: the level asym_cpu_capacity_level() finds, alone, on every CPU
    FromLevel,  // 5.10-5.13: that level and every level above it ("Propagate SD_ASYM_CPUCAPACITY upwards")
    PerSpan,    // 5.14+: each domain whose span holds two capacities, _FULL when it holds all of them
};

// How a wakeup weighs CPU capacities on a machine whose CPUs differ in capacity
enum class AsymWakeup {
    WakeCap,           // until 5.6: wake_cap() gives up the affine wakeup when the wakee does not fit
    IdleCapacityFirst, // 5.7-5.9: select_idle_sibling() starts with select_idle_capacity()
    FitsFirst,         // 5.10+: target, prev and recent_used_cpu if idle and the task fits, then the scan
};

struct KernelProfile {
    std::string name;           // "linux-6.1"
    std::string description;
    std::string pkgLevelName;   // "DIE" before 6.7, "PKG" since
    std::string llcFlagName;    // "SD_SHARE_PKG_RESOURCES" before 6.9, "SD_SHARE_LLC" since
    bool hasNodeLevel = false;         // NUMA identity NODE level, since 4.15
    bool hasClusterLevel = false;      // CLS level, since 5.16
    // sched_init_numa() takes the NUMA levels' distances from every node's row of the distance
    // table, since 5.12; before, from node 0's row alone (another row's distances went unbuilt)
    bool numaDistancesFromEveryRow = false;
    // ... from the nodes with CPUs only, since 5.18; before, memory-only nodes' distances made
    // levels too (degenerate ones, as such a node adds no CPU to a span)
    bool numaDistancesFromCpuNodesOnly = false;
    // NUMA diameters above 2: an overlap group comes from a sibling's descendant whose child stays
    // inside the domain, since 5.13; before, the sibling's child, which can reach past the domain
    bool numaDescendedSibling = false;
    bool clusterFlag = false;          // SD_CLUSTER on the CLS level, since 6.8
    bool clusterScanOnWakeup = false;  // select_idle_cpu scans the cluster first, since 6.8
    bool overlapFlag = true;           // SD_OVERLAP on NUMA levels, until 6.16 (6.17 keys on SD_NUMA)
    FairClass fairClass = FairClass::Cfs;  // CFS before 6.6, EEVDF since
    // x86 ITMT (Turbo Boost Max 3.0, hybrid CPUs, AMD preferred cores), arch/x86/kernel/smpboot.c:
    bool asymPackingOnSmt = true;           // x86_smt_flags() adds ITMT's SD_ASYM_PACKING, until 6.4
    // sched_set_itmt_core_prio(): a core's i-th SMT sibling gets prio x siblings / i^2, until 6.4
    bool itmtScalesSmtSiblings = true;
    bool asymPackingOnHybridPkg = false;    // x86_die_flags(): SD_ASYM_PACKING on hybrid CPUs, since 6.5
    bool asymPackingOnPkg = false;          // PKG takes x86_sched_itmt_flags() on any CPU, since 6.14
    bool clusterOnIntelHybrid = false;      // CLS on hybrid CPUs: skipped 5.16-6.5, built since 6.6
    bool hybridCapacityWithoutSmt = false;  // intel_pstate: asym capacity, not ITMT, on hybrid without SMT (6.12)
    AsymCapacityRule asymCapacity = AsymCapacityRule::None;
    bool asymBalanceWake = false;  // 4.20-5.6: SD_BALANCE_WAKE on the asymmetric domain and those below it
    AsymWakeup asymWakeup = AsymWakeup::WakeCap;
    // fair class behaviours the simulator follows
    bool sisUtil = false;              // SIS_UTIL scan limit in select_idle_cpu, since 6.0
    int numaImbalance = 0;             // adjust_numa_imbalance: 0 none, 1 25% of the span (5.7), 2 imb_numa_nr (5.18)
    bool legacyActiveBalance = true;   // before 5.10: active balance for any imbalance type
    // before 5.10 sd_degenerate()/sd_parent_degenerate() listed their flags by hand: a one-group
    // parent kept SD_NUMA, SD_SERIALIZE (with several nodes), SD_OVERLAP and SD_ASYM_PACKING, so
    // a NUMA level cut down to its non-NUMA child's span (a cpuset partition) stayed
    bool legacyDegenerateMasks = true;
    // 6.5: update_sd_pick_busiest() keeps an SMT core as the busiest of equally loaded fully busy
    // groups, and prefer_sibling comes from the busiest group's child domain, not the local one's
    bool smtFullyBusyBusiest = false;
    // 6.6: group_smt_balance (an SMT core with more than one task is the busiest for an idle CPU,
    // and a non-SMT group may pull from it), sibling_imbalance() (spread tasks per core between
    // groups of different core counts) and should_we_balance() preferring a CPU of an idle core
    bool smtBalance = false;
    bool delayDequeue = false;         // DELAY_DEQUEUE, since 6.12
    bool hasUtilEst = false;           // UTIL_EST exists (the simulator models it off by default), since 4.17
    bool placeRelDeadline = false;     // PLACE_REL_DEADLINE: a migration keeps the virtual deadline, since 6.12
    bool migrateEligibleFirst = false; // can_migrate_task() keeps ineligible tasks until a failure, since 6.14
    // RUN_TO_PARITY: a group entity's slice protection outlives its reweights, since 7.0 (until
    // 6.16 it is a copy of the deadline in se->vlag, 6.17-6.19 keep se->vprot in a union with
    // se->vlag: reweight_entity() writes the entity's lag over it)
    bool groupEntityKeepsProtection = false;
    bool smtNeverCacheHot = false;     // task_hot(): no task is cache hot to an SMT sibling, since 5.10
    // sd_init(): a domain's imbalance_pct where no SMT or LLC rule sets it, 125 (117 since 5.10,
    // "sched/fair: Reduce minimal imbalance threshold"), and its busy_factor, 32 (16 since 5.10,
    // "sched/fair: Reduce busy load balance interval")
    unsigned defaultImbalancePct = 125;
    unsigned busyFactor = 32;
    // get_sd_balance_interval(): a busy CPU's interval one jiffy short, so a domain's busy
    // balances do not fall on its children's ticks, since 5.10 ("sched/fair: Minimize concurrent
    // LBs between domain level")
    bool busyIntervalLessAJiffy = false;
    bool utilShrBound = false;         // detach_tasks(): migrate_util relaxes its bound as balances fail, since 6.8
    bool misfitNoBackoff = false;      // a failed misfit balance is no nr_balance_failed, no longer interval, since 6.10
    double baseSliceMs = 0.75;         // sysctl_sched_base_slice: 0.75 ms, 0.70 ms since 6.15
    bool newidleCostGate = false;      // newidle gated by max_newidle_lb_cost, not migration cost, since 5.16
    bool cfsSliceFloor = false;        // CFS sched_slice() is at least min_granularity (BASE_SLICE), since 5.13
    bool newidleFailBump = false;      // failed newidle passes bump max_newidle_lb_cost, 6.17 to 6.19's revert
    bool newidleRandom = false;        // NI_RANDOM: newidle balance by success rate, 6.19 (and stable backports)
    bool newidleRate = false;          // NI_RATE: the newidle ratio also counts how rarely it runs, 7.1
    bool sdWeightWithinCpuMap = false; // sd_init()'s weight (balance intervals) counts the cpu_map's CPUs only, 7.1
    X86SncDistances x86SncDistances = X86SncDistances::Slit;
    // the sched_verbose log's "root domain span: LIST (max cpu_capacity = N)"; the capacity part
    // went with root_domain::max_cpu_capacity in 6.10
    bool rootDomainCapacityInLog = true;
    // x86 leaves PKG out when there is more than one node per package (topology_num_nodes_per_package(),
    // 7.0), not when one package's CPUs are on several nodes (x86_has_numa_in_package, before)
    bool pkgByNodesPerPackage = false;
    // the first kernel this profile stands for; the sublevel is not 0 for a stable release that
    // took a later change in ("linux-6.18.5")
    int sinceMajor = 0, sinceMinor = 0, sinceSublevel = 0;
};

// The named profiles offered in menus and --help: long-term kernels of the major distributions
// and the versions where what the tool shows changed.
const std::vector<KernelProfile>& kernelProfiles();
// "linux-4.14, linux-5.15, ..., linux-6.19": the named profiles, for help texts and errors.
std::string profileNameList();
// "unknown kernel profile 'NAME' (known: linux-4.14, ..., linux-7.1, or any linux-X.Y[.Z] from
// 4.14 to 7.1)": what findProfile() takes, for its callers' errors
std::string unknownProfileError(const std::string& name);
// A named profile, or any "linux-MAJOR.MINOR[.SUBLEVEL]" (built from the changes that version
// has: "linux-6.12.70" has the stable backports of 6.12.65); nullptr when unknown.
const KernelProfile* findProfile(const std::string& name);
const KernelProfile& defaultProfile();  // the newest
// The profile of a kernel by its release ("6.1.0-13-amd64", uname -r): the changes up to its
// MAJOR.MINOR (a 5.10 kernel: NODE and no CLS; 6.8: PKG, SD_CLUSTER, SD_SHARE_PKG_RESOURCES)
// and those its stable SUBLEVEL took in ("6.18.44": NI_RANDOM and the partition-aware
// sd_weight, as linux-6.18.33), the named profile when one has exactly that kernel's behaviours. nullptr when the release does not
// start with MAJOR.MINOR. Debian's "6.1.0-13" names its ABI, not its sublevel, so it gets the
// branch's first release. A release older than 4.14 (a 3.10 or 4.4 trace) gets 4.14's, the
// oldest modelled (no NODE, no CLS); the summary lines name both.
const KernelProfile* profileForKernelRelease(std::string_view release);
// The running kernel's profile (uname's release); nullptr when it cannot be told.
const KernelProfile* runningKernelProfile();
// The flag's name as this profile's kernel prints it.
std::string flagName(const KernelProfile& profile, uint32_t flag);
std::vector<std::string> flagNames(const KernelProfile& profile, uint32_t flags);
// The flags this profile's kernel has of `flags` (SD_OVERLAP is gone since 6.17; the builder
// still marks overlapping NUMA groups with it).
uint32_t shownFlags(const KernelProfile& profile, uint32_t flags);
// Inverse of flagName under this profile; 0 when unknown.
uint32_t flagFromName(const KernelProfile& profile, const std::string& name);

}  // namespace schedscope
