#pragma once
// The simulator's state, shared by the engine and the policy units (select_task_rq.h,
// load_balance.h, fair_rq.h). Plain structs: policies read them as the kernel reads rq and
// task_struct fields.
#include <cstdint>
#include <algorithm>
#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "domains/domain_tree.h"
#include "sim/avg_vruntime.h"
#include "sim/contention.h"
#include "sim/cpu_times.h"
#include "sim/decision.h"
#include "sim/entity_tree.h"
#include "sim/group_shares.h"
#include "sim/metrics.h"
#include "sim/pelt.h"
#include "sim/sim_options.h"
#include "sim/span_sums.h"
#include "workload/workload.h"

namespace schedscope::sim {

// Throttled: runnable, but held off the runqueue by a group out of CPU bandwidth (cfs_bandwidth.h)
enum class TaskState { NotStarted, Runnable, Running, Sleeping, Blocked, Exited, Throttled };

// Why a task changed CPU; the metrics count migrations per cause.
enum class MigrationCause { Wakeup, Fork, Exec, LbPeriodic, LbNohz, LbNewidle, LbActive, Affinity, Numa, Count };
const char* causeName(MigrationCause c);

enum class BalanceIdle { NotIdle, Idle, NewlyIdle };  // enum cpu_idle_type

// Field order is by use: the first cache line holds what every re-timing and account() reads
// and writes (account() runs for each running task whose speed a context switch changes), the
// second the rest of what account() touches and what enqueue, pick and PELT read; the rest is
// read when a task is placed, runs its script or is reported. 256 tasks' first lines fit in L1
// where whole Tasks did not, and account() touches two lines, not three.
struct alignas(64) Task {
    // hot: progress of the running task (account(), retime())
    double speed = 1.0;     // while running
    double slowness = 1.0;  // 1 / speed: a burst end is remaining x slowness, without a division
    double remaining = 0;   // work left in the current Run op (uncontended ns)
    int64_t lastUpdate = 0;
    double workDone = 0;
    double sumExec = 0;
    // fair class (CFS vruntime or EEVDF deadline); the weight sits with them, as avg_vruntime()
    // reads both for every queued task
    double vruntime = 0;
    double weight = 1024;
    // warm: account(), enqueue, pick, switch
    int id = 0;
    int cpu = -1;       // task_cpu(): where it runs or last ran
    int homeNode = -1;        // where its memory lives: where it first ran, until NUMA balancing moves it
    // CPU time on `stintCpu` not yet added to cpuTime: account() runs for every re-timing and
    // a write into a 1 KB per-task array missed the cache; the sum is added when the task is
    // accounted on another CPU and when the run ends (integers: the same totals)
    int stintCpu = -1;
    int64_t stintNs = 0;
    double bandwidthWork = 0;  // work x GB/s, for the bandwidth unit (account() is here already)
    // what is left of the hand-off (TaskSpec::handoffKB) the current burst began with: time
    // spent but no work done
    double handoffLeftNs = 0;
    TaskState state = TaskState::NotStarted;
    bool inBurst = false;
    // `allowed` is every online CPU: the usual case, where placement need not load the mask (a
    // pointer away: its load missed the cache on a third of select_idle_smt()'s samples)
    bool anyCpu = false;
    // se->sched_delayed (DELAY_DEQUEUE): blocked (Sleeping/Blocked) but still queued on `cpu`
    bool delayed = false;
    bool started = false;  // picked once, startedAt set: every pick asks, startedAt is far away
    // se->rel_deadline (PLACE_REL_DEADLINE): taken off its runqueue by a migration, not a sleep,
    // `deadline` holds the distance from its vruntime, which the next placement keeps
    bool relDeadline = false;
    // RUN_TO_PARITY: the slice the task was last picked with is not used up (update_deadline()
    // has not given it a new deadline since). Not the deadline compared with the one picked: a
    // flattened reweight (its group's shares moving, group_shares.h) rescales that, while the
    // kernel's task entity keeps its weight and its protection.
    bool sliceProtected = false;
    double deadline = 0, vlag = 0;
    // when the task was last picked (set_next_entity(), which stashes its deadline for
    // RUN_TO_PARITY: fair_rq.h's checkPreemptWakeup())
    int64_t pickedAt = -1;
    double prevSumExec = 0;
    int64_t lastRan = 0;      // se.exec_start when not running: cache hotness
    // its place on rq->cfs_tasks, which the balancer walks from the tail: the higher, the nearer
    // the head (set at enqueue, at a pick and when detach_tasks() passes it over; fair_rq.h)
    uint64_t cfsTasksStamp = 0;
    int64_t enqueuedAt = -1;  // became runnable and not yet picked
    // the script interpreter's place (runScript() reads it at every burst's end, with the
    // fields above that block() writes)
    size_t pc = 0;
    int pendingWakes = 0;             // Wait's counting semaphore
    bool inWait = false;              // blocked in a Wait: a Barrier or a Take ends on its own terms
    // the hand-off: the CPU its last waker ran on, until its next burst begins (-1: none pending)
    int handoffFrom = -1;
    int keptHandoffFrom = -1;  // the newest waker's CPU of a wake kept for a later Wait
    // PELT
    Pelt util, runnable, load;
    // placement (select_task_rq); change the mask with setAllowed(), which keeps the three in step
    int nrAllowed = 0;
    int recentUsedCpu = -1;
    CpuSet allowed;
    void setAllowed(CpuSet cpus, int onlineCount) {
        allowed = std::move(cpus);
        nrAllowed = allowed.count();
        anyCpu = nrAllowed == onlineCount;
    }
    // wake_wide() bookkeeping (record_wakee)
    int lastWakee = -1;
    unsigned wakeeFlips = 0;
    int64_t wakeeFlipDecayTs = 0;
    // script interpreter (pc and the Wait state are above)
    const workload::TaskSpec* spec = nullptr;
    std::vector<long long> loopLeft;  // per op index, for Loop ops (empty when the script has none)
    // p->max_allowed_capacity (6.10): the largest capacity among its allowed CPUs; a task on such
    // a CPU is never a misfit, however big it is
    double maxAllowedCapacity = 1024;
    int64_t onNodeSince = 0;  // when it came to the node of `cpu` (NUMA balancing's clock)
    int64_t numaMigrateRetry = 0;  // p->numa_migrate_retry: when NUMA balancing next tries to move it home
    // its task group (SimState::groups, group_shares.h; -1: the root group), the weight its nice
    // value gives, which `weight` is while it is in no group, and its load average as that
    // weight makes it (what its group's runqueue on its CPU holds of it)
    int group = -1;
    int groupCpu = -1;  // the CPU its group's runqueue there counts its load on (GroupOnCpu::attached)
    double niceWeight = 1024;
    Pelt groupLoad;
    // metrics
    int64_t startedAt = -1, exitedAt = -1;
    CpuTimes cpuTime;  // complete once the run finished (see stintNs)
    long long migrations = 0;
    // util_est (util_est.h): the estimate (its EWMA), when it was last updated (it is not again
    // until the average has moved: UTIL_AVG_UNCHANGED) and the CPU whose runqueue counts it
    unsigned utilEst = 0;
    int64_t utilEstAt = -1;
    int utilEstCpu = -1;
};

// The per-CPU copy of a sched_domain's mutable fields, and two constants newidle_balance()
// reads of the domain. The first cache line holds what a newidle visit of the domain reads and
// writes (its interval, cost gate, NI_RANDOM's die and stats), so a visit the gate or the die
// ends touches one line of this CPU's own, not the domain tree's.
struct alignas(64) DomainState {
    int64_t lastBalance = 0;
    // sd->balance_interval; change it with setBalanceInterval() (load_balance.h), which keeps
    // the two below in step
    double balanceIntervalMs = 1;
    // get_sd_balance_interval() of balanceIntervalMs, idle and busy, in ns: read on every tick
    // for every domain, and the interval changes only when a balance fails or succeeds
    int64_t idleIntervalNs = 0, busyIntervalNs = 0;
    double maxNewidleLbCostNs = 0;  // sd->max_newidle_lb_cost (5.16+ newidle gate)
    // the modelled cost of a newidle pass over the domain: 0.25 us per CPU of its span
    double newidlePassCostNs = 0;
    // NI_RANDOM's success rate (sd_init() starts them at 50%): newidle balances tried and, by
    // their weight, pulled a task; newidle_ratio out of 1024
    unsigned newidleCall = 512, newidleSuccess = 256, newidleRatio = 512;
    bool balancesNewidle = false;  // sd->flags & SD_BALANCE_NEWIDLE
    uint8_t busyFactor = 16;       // sd->busy_factor (32 before 5.10)
    unsigned nrBalanceFailed = 0;
    int64_t lastDecayNs = 0;        // sd->last_decay_max_lb_cost
    int64_t newidleStamp = 0;  // sd->newidle_stamp (7.1's NI_RATE): sd_init() sets it, at the start
};

// A runqueue. Whoever changes curr, queued, nrDelayed or the signals' inputs or values tells
// SimState::cpuChanged() (the engine does): the balancer's group sums (span_sums.h) follow it.
// Field order is by use: nrRunning() (curr, nrDelayed and queued's size), which every idle
// test of a wakeup scan or a balance reads for CPU after CPU, sits in the first cache line with
// the load weight; the three PELT signals, which every enqueue, dequeue and switch sets and the
// balancer decays, in the next two.
struct alignas(64) Cpu {
    int id = 0;
    int curr = -1;              // running task or -1 (idle)
    int nrDelayed = 0;          // queued tasks that blocked and are only delayed (DELAY_DEQUEUE)
    // cfs_rq->avg.util_est: the estimates of the tasks enqueued (util_est.h); here, in the padding
    // before `queued`, it keeps a Cpu at four cache lines (at the end it made it five)
    unsigned utilEst = 0;
    // runnable, not running, in no particular order (timeline has the fair class's): change
    // them with queueEntity() / unqueueEntity()
    std::vector<int> queued;
    double loadWeight = 0;      // sum of weights of runnable tasks (curr included)
    int64_t idleStamp = 0;      // rq->idle_stamp
    Pelt util, runnable, load;
    EntityTree timeline;        // cfs_rq->tasks_timeline
    AvgVruntime avgVruntime;    // cfs_rq->avg_vruntime and avg_load over `queued`
    double minVruntime = 0;     // CFS
    // curr's vruntime as the cfs_rq last saw it: as picked, then as update_curr() left it (at
    // the tick, an enqueue or dequeue on this runqueue, a wakeup's preemption check), not where
    // the task's own code stands, so what curr ran since is missing from the average till then
    double seenCurrVruntime = 0;
    double avgIdleNs = 1e6;     // rq->avg_idle (starts at 2 x migration cost)
    int64_t nextBalance = 0;
    bool tickRunning = false;
    bool activeBalance = false;
    int pushCpu = -1;
    std::vector<DomainState> dom;
    int64_t busySince = -1;
    int64_t busyTotal = 0;
    // rq->misfit_task_load: the load of the running task when it does not fit this CPU's
    // capacity (asymmetric machines only; set at the tick and when a task is picked)
    double misfitTaskLoad = 0;
    // CFS's buddies (cfs_rq->next, cfs_rq->last; linux <= 6.5): the wakee that preempted curr
    // and the task it preempted, which pick_next_entity() prefers to the leftmost when that is
    // not unfair; -1: none (fair_rq.h)
    int nextBuddy = -1, lastBuddy = -1;
    // runnable tasks, curr included and delayed-dequeue ones not (cfs h_nr_runnable, 6.13+: the
    // count the balancer, the wakeup path and PELT's runnable sum read)
    int nrRunning() const { return static_cast<int>(queued.size()) - nrDelayed + (curr >= 0 ? 1 : 0); }
    // the tasks on the runqueue, delayed-dequeue ones included (rq->nr_running): what the
    // balancer counts in a group's sum_nr_running and idle CPUs, what marks the root domain
    // overloaded, and what detach_tasks() and the nohz kick look at (6.12+ keeps a delayed task
    // counted until its dequeue finishes)
    int nrQueued() const { return static_cast<int>(queued.size()) + (curr >= 0 ? 1 : 0); }
};

struct LlcShared {  // sd_llc_shared
    int nrIdleScan = 0;
    bool hasIdleCores = false;
};

// Topology-derived lookups, computed once.
struct CpuInfo {
    int llc = 0, cluster = 0, node = 0, core = 0;  // ids: first CPU of the span / node index
    int llcSize = 1;
    int clusterSize = 1;  // the lowest SD_CLUSTER domain's weight, else llcSize (wake_wide()'s cluster factor)
    int sdLlc = -1;       // index of the highest domain with SD_SHARE_LLC
    // sd_asym_cpucapacity: the domain the capacity-aware wakeup scans and whose misfit tasks
    // the nohz kick looks for; -1 when the CPU has none (a symmetric machine or island)
    int sdAsymCapacity = -1;
    int shareId = 0;      // sd_share_id: cluster when SD_CLUSTER exists, else LLC (6.8+)
    std::vector<int> siblings;  // SMT siblings, itself included
    // select_idle_cpu()'s scans, as ascending lists: the span of the sd_llc domain and of its
    // first group (the cluster when the child level is CLS)
    std::vector<int> llcSpan, llcFirstGroup;
    // per domain of this CPU (bottom-up): its span's weight and its groups' weights, so the hot
    // paths do not count bits
    std::vector<int> spanWeight;
    std::vector<std::vector<int>> groupWeight;
    // per domain: its group ring in SimState::ringGroups and where this CPU's view of it
    // starts (GroupRing::first()), so a group's span id is looked up, not stored per CPU: a flat
    // domain of 4096 single-CPU groups would otherwise take 4096 x 4096 ids
    struct GroupSpans {
        int ring = 0;
        size_t first = 0;
        // the view's first group holds this CPU and no other group does (the ring is
        // GroupRingFacts::disjoint): the balancer knows the local group without reading spans
        bool ownFirst = false;
        bool spanOnline = false;  // every CPU of the domain's span is online (env->cpus is the span)
        size_t localImbalanceAt = 0;  // the first group's sgc->imbalance in SimState::groupImbalance
    };
    std::vector<GroupSpans> groupSpans;
};

// select_idle_cpu()'s scratch cpumask (sched_domains_tmpmask): a stamp per CPU, so starting a
// new scan is O(1) and nothing is allocated per wakeup.
class ScanMask {
public:
    void begin(size_t ncpus) {
        if (stamp_.size() != ncpus) stamp_.assign(ncpus, 0);
        if (++gen_ == 0) {  // wrapped: forget every old stamp
            std::fill(stamp_.begin(), stamp_.end(), 0u);
            gen_ = 1;
        }
    }
    void set(int cpu) { stamp_[static_cast<size_t>(cpu)] = gen_; }
    void reset(int cpu) { stamp_[static_cast<size_t>(cpu)] = 0; }
    bool test(int cpu) const { return stamp_[static_cast<size_t>(cpu)] == gen_; }

private:
    std::vector<uint32_t> stamp_;
    uint32_t gen_ = 0;
};

// Which rule made the last placement choice, set by the policies as they decide (a pointer to a
// literal, so it costs nothing when nobody records); step mode turns it into a Decision.
struct Why {
    const char* rule = "";
    int cpu = -1;     // whose domain `domain` indexes
    int domain = -1;  // index into domainsOf(cpu); -1: no domain (a lone CPU or the fallback)
};

struct SimState {
    const Topology* topo = nullptr;
    const DomainTree* tree = nullptr;
    SimOptions opt;
    SimFeatures feat;
    ContentionParams contention;
    int64_t now = 0;
    std::mt19937_64 rng;
    std::vector<Task> tasks;
    std::vector<TaskGroupState> groups;  // the workload's task groups (Task::group), one entry per CPU each
    EntityTree::Pool entityNodes;  // per task: its node in the timeline of the runqueue it is queued on
    uint64_t enqueueSeq = 0;       // enqueues so far: the timelines' tie-break
    uint64_t cfsTasksClock = 0;    // the last Task::cfsTasksStamp given
    // orders the picks and reweights of group entities (GroupOnCpu) within one instant
    uint64_t groupEntityClock = 0;
    std::vector<Cpu> cpus;
    std::vector<CpuInfo> info;
    std::vector<LlcShared> llcShared;  // indexed by the LLC's first CPU (CpuInfo::llc)
    // sgc->imbalance, flat by (topology level, the group's first CPU): the balancer reads it for
    // every group it looks at
    std::vector<char> groupImbalance;
    char& groupImbalanceOf(int topologyLevel, int firstCpu) {
        return groupImbalance[static_cast<size_t>(topologyLevel) * cpus.size() + static_cast<size_t>(firstCpu)];
    }
    CpuSet online;
    CpuSet unpinned;  // where tasks without an affinity may run (SimOptions::unpinnedCpus)
    int onlineCount = 0;
    CpuSet workloadCpus;  // union of affinities: where idle time counts as imbalance
    // per root domain (cpuset root partitions each have one, isolated CPUs share the default
    // one): how many of its CPUs have 2 or more tasks runnable, and how many run a misfit task
    std::vector<int> rootDomainOf;  // per CPU
    std::vector<int> rdOverloadedCpus;
    std::vector<int> rdMisfitCpus;
    // rd->overloaded, which newidle balancing asks: set when a runqueue reaches 2 tasks
    // (add_nr_running()), cleared only by a balance at the top domain that finds no CPU with 2
    // and no misfit task (update_sd_lb_stats()), so it may stay set after the last CPU with two
    // tasks has one again
    std::vector<char> rdOverloadFlag;
    bool rdOverloaded(int cpu) const { return rdOverloadFlag[static_cast<size_t>(rootDomainOf[static_cast<size_t>(cpu)])] != 0; }
    // CPU capacities: arch_scale_cpu_capacity(), which is also capacity_of() here (no RT or IRQ
    // time takes capacity away); 1024 on every CPU of a symmetric machine
    std::vector<double> capacity;
    double capacityOf(int cpu) const { return capacity[static_cast<size_t>(cpu)]; }
    std::vector<double> rdMaxCapacity;  // rd->max_cpu_capacity, per root domain
    double rdMaxCapacityOf(int cpu) const {
        return rdMaxCapacity[static_cast<size_t>(rootDomainOf[static_cast<size_t>(cpu)])];
    }
    // the static key sched_asym_cpucapacity: some domain has SD_ASYM_CPUCAPACITY
    bool asymCapacity = false;
    int64_t nohzNextBalance = 0;
    // static_branch sched_cluster_active: set when any CPU has an SD_CLUSTER domain (one key for
    // the whole machine, as build_sched_domains() sets it)
    bool clusterActive = false;
    bool smtActive = false;  // sched_smt_active(): some online CPU has an SMT sibling
    // arch_asym_cpu_priority() per CPU (ITMT, see asym_packing.h); empty when ASYM_PACKING is off
    std::vector<int> asymPrio;
    // scheduler tunables scaled as sched_update_scaling() does (factor 1 + ilog2(min(ncpu, 8)))
    double latencyNs = 6e6, minGranNs = 0.75e6, wakeupGranNs = 1e6, baseSliceNs = 0.75e6;
    Metrics metrics;
    ScanMask scanMask;  // select_idle_cpu()'s scratch
    // fbq_classify_rq() per CPU (an FbqType, a CPU each from makeSimState()), as
    // find_busiest_group() counted it for the CPUs of the busiest group at a NUMA domain
    // (LbEnv::fbqClassesOfGroup says which, for one pass)
    std::vector<uint8_t> fbqRqClass;
    // the balancer's lists of a runqueue's tasks (load_balance.cpp's cfsTasks()), one per nesting
    // level: detach_tasks() re-enters through a migration's schedule() and newidle balance, so
    // one shared list would be overwritten under the loop reading it. A deque: taking a deeper
    // level's list never moves a shallower one.
    std::deque<std::vector<int>> taskLists;
    size_t taskListsInUse = 0;
    // step mode: decisions are appended here when set (see simulator.h's Simulation)
    std::vector<Decision>* decisions = nullptr;
    Why why;
    std::vector<GroupView> whyGroups, scratchGroups;  // the groups of the last decision (recording only)
    bool recording() const { return decisions != nullptr; }

    // tree->domainsOf(cpu) without the bounds check: the engine checked the tree matches
    const std::vector<SchedDomain>& domainsOf(int cpu) const { return tree->cpus[static_cast<size_t>(cpu)].domains; }
    bool idle(int cpu) const { return cpus[static_cast<size_t>(cpu)].nrRunning() == 0; }  // available_idle_cpu()
    // is_core_idle(): every other SMT sibling of `cpu` is idle
    bool coreIdle(int cpu) const {
        for (int sib : info[static_cast<size_t>(cpu)].siblings)
            if (sib != cpu && !idle(sib)) return false;
        return true;
    }
    // Inline: the balancer reads them for every CPU of every group it looks at.
    double cpuLoad(int cpu) { return advanced(cpus[static_cast<size_t>(cpu)].load); }  // cpu_load(): the runqueue's load_avg
    // cpu_util_cfs(): the average, or the estimate of the tasks queued when that is larger (0
    // without UTIL_EST: util_est.h)
    double cpuUtil(int cpu) {
        Cpu& r = cpus[static_cast<size_t>(cpu)];
        return std::min(1024.0, withUtilEst(advanced(r.util), r.utilEst));
    }
    double cpuRunnable(int cpu) { return advanced(cpus[static_cast<size_t>(cpu)].runnable); }
    // cpuLoad(), cpuUtil() and cpuRunnable() at one decay
    struct CpuSignals {
        double load, util, runnable;
    };
    CpuSignals cpuSignals(int cpu) {
        Cpu& r = cpus[static_cast<size_t>(cpu)];
        advanceTogether(now, r.load, r.util, r.runnable);
        return {r.load.value, std::min(1024.0, withUtilEst(r.util.value, r.utilEst)), r.runnable.value};
    }
    // update_sg_lb_stats()'s sums over a group span (SpanSums): the CPUs changed since the last
    // read are folded in first. cpuChanged() marks a CPU whose signals' inputs or values, or
    // whose nr_running, changed.
    SpanSums spanSums;
    // What update_sg_lb_stats() reads of a group besides its sums, per span id: the SMT cores it
    // holds (sched_group::cores) and its flags, which are its child domain's (sched_group::flags;
    // 0 when that child was a lone CPU, a degenerate domain the kernel removed)
    struct GroupShape {
        int cores = 1;
        uint32_t flags = 0;
        double minCapacity = 1024, maxCapacity = 1024;  // sgc->min_capacity, sgc->max_capacity
    };
    std::vector<GroupShape> spanShapes;
    // Everything update_sg_lb_stats() reads of a group that stays as it is for the whole run, in
    // one place: the balancer looks at several groups on every pass, and finding the span id,
    // weight, capacity, shape and imbalance flag of each through as many tables was a third of
    // a pass's instructions.
    struct RingGroup {
        int spanId = 0;    // its sums in spanSums: the part of the group inside its domain's span
        int onlyCpu = -1;  // spanSums.onlyCpu(spanId): the one CPU of a one-CPU span, else -1
        int weight = 0;    // group_weight: the group's CPUs
        int firstCpu = 0;  // its first CPU: where its sgc->imbalance sits in groupImbalance
        double capacity = 0;  // sgc->capacity (1024 per CPU when the tree gives none)
        GroupShape shape;     // spanShapes[spanId]
    };
    struct GroupRingFacts {
        std::vector<RingGroup> groups;  // in ring order
        bool disjoint = true;  // no two groups share a CPU (only some NUMA levels' groups overlap)
    };
    std::vector<GroupRingFacts> ringGroups;  // per distinct group ring
    // group `g` of domain `sd` of `cpu`
    const RingGroup& ringGroup(int cpu, int sd, int g) const {
        const CpuInfo::GroupSpans& gs = info[static_cast<size_t>(cpu)].groupSpans[static_cast<size_t>(sd)];
        const std::vector<RingGroup>& ring = ringGroups[static_cast<size_t>(gs.ring)].groups;
        const size_t at = gs.first + static_cast<size_t>(g);
        return ring[at < ring.size() ? at : at - ring.size()];
    }
    // NUMA balancing's sched_numa_topology_type and sched_max_numa_distance, found on first use
    // (numa_balancing.cpp); type -1: not yet
    struct {
        int type = -1;
        int maxDistance = 0;
    } numaShape;
    void cpuChanged(int cpu) { spanSums.markChanged(cpu); }
    SpanSums::Sums groupSums(const RingGroup& g) {
        if (const int cpu = g.onlyCpu; cpu >= 0) {
            const CpuSignals sig = cpuSignals(cpu);
            const Cpu& r = cpus[static_cast<size_t>(cpu)];
            const int nr = r.nrQueued();
            return {sig.load, sig.util, sig.runnable, nr, r.nrRunning(), nr == 0 ? 1 : 0};
        }
        if (!spanSums.changedCpus().empty()) publishChangedCpus();
        return spanSums.read(g.spanId, now);
    }
    // tests: updateSgLbStats() also adds up the CPUs one by one, counts the groups it read from
    // the span sums and those whose sums differ (beyond SpanSums' rounding)
    bool verifySpanSums = false;
    long long spanSumChecks = 0, spanSumMismatches = 0;
    double taskLoad(int task) { return advanced(tasks[static_cast<size_t>(task)].load); }
    double taskUtil(int task) { return advanced(tasks[static_cast<size_t>(task)].util); }
    // task_util_est(): the average, or the task's estimate when that is larger (util_est.h)
    double taskUtilEst(int task) { return withUtilEst(taskUtil(task), tasks[static_cast<size_t>(task)].utilEst); }
    // max(util, estimate) under UTIL_EST; without it the estimate, kept away from the hot fields,
    // is not even read (a cache line more per CPU the balancer looks at)
    double withUtilEst(double util, const unsigned& estimate) const {
        return feat.utilEst ? std::max(util, static_cast<double>(estimate)) : util;
    }
    // set with opt.hz when the run starts: the tick, the balancer and the vruntime clamp read it
    // on every event, and an integer division is tens of cycles
    int64_t jiffyLengthNs = 4000000;
    int64_t jiffyNs() const { return jiffyLengthNs; }

private:
    void publishChangedCpus();
    double advanced(Pelt& p) const {
        p.update(now);
        return p.value;
    }
};

// The i-th sched domain of `cpu` (0: the lowest level) and how many it has: the walks of the
// wakeup path (select_task_rq.cpp) and the balancer (load_balance.cpp) by level.
inline const SchedDomain& dom(const SimState& s, int cpu, int i) {
    return s.domainsOf(cpu)[static_cast<size_t>(i)];
}
inline int nrDomains(const SimState& s, int cpu) { return static_cast<int>(s.domainsOf(cpu).size()); }

}  // namespace schedscope::sim
