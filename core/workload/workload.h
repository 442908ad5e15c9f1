#pragma once
// A workload for the simulator: tasks, each running a small behaviour script (run bursts,
// sleeps, wakeups of other tasks, forks, barriers, affinity changes, exit). Generators
// (workload_spec.h) and the JSON file format (workload_json.h) both produce one of these.
#include <cstdint>
#include <string>
#include <vector>

#include "util/cpuset.h"

namespace schedscope::workload {

enum class OpKind {
    Run,          // run `amountNs` of uncontended work (stretched by contention), +-jitter
    Sleep,        // block for `amountNs` (+-jitter), then wake on a timer
    Wait,         // block until another task's Wake (a counting semaphore: early wakes are kept,
                  // also those sent before the task was forked)
    Wake,         // wake every task in `targets` (1:1 or 1:N), `sync` as WF_SYNC
    Fork,         // start every task in `targets` (they must have startAtBegin = false)
    Barrier,      // wait until `parties` tasks reached barrier `id`; the last one wakes the rest
    Post,         // put an item into work queue `id`: the task waiting longest in its Take gets
                  // it and is woken (`sync` as WF_SYNC), else the queue keeps it
    Take,         // take an item from work queue `id`, blocking while it is empty (the
                  // condition variable of a thread pool: one Post wakes one taker, FIFO)
    SetAffinity,  // change this task's allowed CPUs to `cpus` (empty: the unpinned CPUs, see sim::SimOptions)
    Exec,         // execve(): sched_exec() may move the running task to the idlest CPU its
                  // SD_BALANCE_EXEC domains offer (the stopper moves it), before the new image runs
    Loop,         // jump back to op `to`, `count` times (-1: for ever)
    Exit,         // end the task (also implied after the last op)
};

// Fields ordered by size: a derived workload holds one Op per recorded run or sleep (750k for
// a 1M-event trace), and the padding between mixed sizes was 16 of 104 bytes.
struct Op {
    OpKind kind = OpKind::Run;
    bool sync = false;         // Wake, Post
    int id = 0;                // Barrier, Post, Take
    int parties = 0;           // Barrier
    int to = 0;                // Loop
    double amountNs = 0;       // Run, Sleep
    double jitter = 0;         // Run, Sleep: uniform relative jitter, 0.1 = +-10%
    long long count = -1;      // Loop
    std::vector<int> targets;  // Wake, Fork: task indices
    CpuSet cpus;               // SetAffinity
};

// TaskSpec::handoffKB's limit: a GB handed over on every wakeup is a typo, not a workload
constexpr double kMaxHandoffKB = 1024.0 * 1024.0;

struct TaskSpec {
    std::string name;
    int nice = 0;                  // -20..19, the weight comes from sched_prio_to_weight
    CpuSet affinity;               // empty: every CPU of the topology
    bool startAtBegin = true;      // false: started by another task's Fork
    // A task that starts at the beginning starts on this CPU, with no placement decision: where
    // a recording shows it when its window opens. -1: placed as an exec from the first
    // housekeeping CPU of its affinity, as a shell starting it would.
    int startCpu = -1;
    double memFraction = 0;        // share of uncontended time spent on memory traffic, 0..1
    double bandwidthGBs = 0;       // memory bandwidth the task draws when running alone
    // share of uncontended time spent on hits in a shared cache (a cluster's L3 tag / L2, an
    // LLC) that turn into memory accesses once the cache is shared past its size, 0..1 with
    // memFraction; and the footprint those hits need there
    double cacheFraction = 0;
    double cacheMB = 0;
    // data it reads from whoever woke it (a Wake or a Post): a request, a reply, a lock's
    // protected state. Held in the waker's caches, it costs the wakee a transfer that grows
    // with the distance between the two CPUs (sim::ContentionParams::handoff*), none when both
    // ran on one core. 0: the wakee reads nothing of its waker's.
    double handoffKB = 0;
    // index into Workload::groups: the task group (cgroup, autogroup) it runs in; -1 the root group
    int group = -1;
    std::vector<Op> script;
};

// A task group: the fair class shares a CPU between the entities queued there by their weights,
// a group being one entity in its parent's runqueue (the root's at the top) and its tasks and
// child groups entities in its own (CONFIG_FAIR_GROUP_SCHED).
struct TaskGroupSpec {
    std::string name;  // "autogroup-12", "/system.slice/db.service"
    // tg->shares: cgroup v1 cpu.shares, v2 cpu.weight x 1024 / 100, an autogroup's nice weight
    int shares = 1024;
    int parent = -1;  // index into Workload::groups of the group it is a child of; -1: the root group
    // CFS bandwidth control (cgroup v2 cpu.max and cpu.max.burst, v1 cpu.cfs_quota_us,
    // cpu.cfs_period_us and cpu.cfs_burst_us): the group's tasks may run `quotaUs` of CPU time,
    // on all CPUs together, in each `periodUs`; -1: no limit ("max")
    long long quotaUs = -1;
    long long periodUs = 100000;
    long long burstUs = 0;  // unused quota a period may carry into the next, up to this much
};
// tg->shares' bounds (MIN_SHARES, MAX_SHARES in kernel/sched/sched.h)
constexpr int kMinGroupShares = 2;
constexpr int kMaxGroupShares = 1 << 18;
// the bandwidth limits' bounds (tg_set_cfs_bandwidth(): a period of 1 ms to 1 s, a quota of at
// least 1 ms and at most max_cfs_runtime, 2^44 - 1 us; a burst of at most the quota)
constexpr long long kMinBandwidthPeriodUs = 1000;
constexpr long long kMaxBandwidthPeriodUs = 1000000;
constexpr long long kMinBandwidthQuotaUs = 1000;
constexpr long long kMaxBandwidthQuotaUs = (1LL << 44) - 1;
// how deep groups may nest below the root (a parent chain longer than this is refused)
constexpr int kMaxGroupDepth = 32;

struct Workload {
    std::string name;  // "stream", "custom"...
    std::string spec;  // the text it came from
    std::vector<TaskSpec> tasks;
    std::vector<TaskGroupSpec> groups;  // the groups TaskSpec::group names; none: all in the root group
    // How a task's work rate turns into the benchmark's own unit: throughput in `unit` is
    // work-seconds per second times `unitPerWorkSecond` (stream: GB/s, others: work/s).
    std::string unit = "work/s";
    double unitPerWorkSecond = 1.0;
    bool bandwidthUnit = false;  // true: each task's rate is scaled by its bandwidthGBs instead
    double durationS = 0;        // 0: run until every task exited or the simulation duration
};

// A limit tg_set_cfs_bandwidth() would take: the ranges above, a burst of at most the quota.
inline bool bandwidthLimitInRange(long long quotaUs, long long periodUs, long long burstUs) {
    return quotaUs >= kMinBandwidthQuotaUs && quotaUs <= kMaxBandwidthQuotaUs && periodUs >= kMinBandwidthPeriodUs &&
           periodUs <= kMaxBandwidthPeriodUs && burstUs >= 0 && burstUs <= quotaUs;
}

// A CPU bandwidth limit in words: "50 ms per 100 ms", ", burst 10 ms" when it has one.
std::string describeBandwidthLimit(long long quotaUs, long long periodUs, long long burstUs);

// a group of `w` has a CPU bandwidth limit (TaskGroupSpec::quotaUs)
inline bool hasBandwidthLimits(const Workload& w) {
    for (const TaskGroupSpec& g : w.groups)
        if (g.quotaUs > 0) return true;
    return false;
}

}  // namespace schedscope::workload
