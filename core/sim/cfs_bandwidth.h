#pragma once
// CFS bandwidth control (CONFIG_CFS_BANDWIDTH: cgroup v2 cpu.max and cpu.max.burst, v1
// cpu.cfs_quota_us, cpu.cfs_period_us and cpu.cfs_burst_us): a group's tasks may run `quota` of
// CPU time, on all CPUs together, in each `period`.
//
// As kernel/sched/fair.c keeps it: the group has a pool (cfs_b->runtime), refilled by `quota` at
// every period boundary up to quota + burst. Each CPU's runqueue of the group (a GroupOnCpu here)
// runs on a local allowance (cfs_rq->runtime_remaining) that the time its tasks run is charged to
// (update_curr()); when the allowance runs out it takes a slice (5 ms) and its deficit from the
// pool. With the pool empty the runqueue is throttled at its next schedule: its tasks stop there
// (their CPU picks other work or idles) until a period refills the pool and hands each throttled
// runqueue, in the order they were throttled, what it overran by plus 1 ns. A runqueue left with
// nothing queued gives all but 1 ms of its allowance back to the pool, which a slack timer
// 5 ms later hands to the throttled ones.
//
// The allowance is checked where the kernel checks it, when update_curr() runs (a tick, a switch,
// an enqueue): a task overruns its group's quota by up to a tick, as on the real machine.
// Period boundaries are multiples of the period from the run's start (the kernel's hrtimer
// keeps its phase while it idles), refilled lazily when the pool is next read.
#include <cstdint>
#include <functional>
#include <vector>

namespace schedscope::sim {

constexpr int64_t kBandwidthSliceNs = 5'000'000;        // sysctl_sched_cfs_bandwidth_slice_us
constexpr int64_t kMinCfsRqRuntimeNs = 1'000'000;       // min_cfs_rq_runtime: what a runqueue keeps
constexpr int64_t kBandwidthSlackPeriodNs = 5'000'000;  // cfs_bandwidth_slack_period
constexpr int64_t kMinBandwidthExpirationNs = 2'000'000;  // min_bandwidth_expiration

struct CfsBandwidth {
    int64_t quotaNs = -1;  // -1: no limit (RUNTIME_INF)
    int64_t periodNs = 100'000'000;
    int64_t burstNs = 0;
    int64_t runtimeNs = 0;        // cfs_b->runtime: the pool
    int64_t refilledPeriods = 0;  // the period boundaries refilled at so far
    std::vector<int> throttledCpus;  // cfs_b->throttled_cfs_rq: the throttled runqueues' CPUs, in order
    bool periodTimerArmed = false;   // an unthrottling period boundary is due
    bool slackTimerArmed = false;
    // cpu.stat: the periods in which the group was throttled somewhere, and the time its
    // runqueues spent throttled, over all CPUs (throttled_usec)
    long long nrThrottled = 0;
    int64_t throttledNs = 0;
    int64_t lastThrottledPeriod = -1;

    bool limited() const { return quotaNs > 0; }
};

// tg_set_cfs_bandwidth(): the limits, and a full pool to begin with.
void setBandwidth(CfsBandwidth& b, int64_t quotaNs, int64_t periodNs, int64_t burstNs);
// __refill_cfs_bandwidth_runtime() for every period boundary up to `now`.
void refillBandwidth(CfsBandwidth& b, int64_t now);
// The first period boundary after `now`.
int64_t nextPeriodBoundary(const CfsBandwidth& b, int64_t now);
// __assign_cfs_rq_runtime(): up to `wanted` ns from the pool into a runqueue's `remaining`;
// true when that leaves it positive.
bool assignRuntime(CfsBandwidth& b, int64_t& remaining, int64_t wanted, int64_t now);
// assign_cfs_rq_runtime(): a runqueue that ran out asks for a slice and its deficit.
bool topUpRuntime(CfsBandwidth& b, int64_t& remaining, int64_t now);
// __return_cfs_rq_runtime(): a runqueue with nothing queued keeps 1 ms and gives the rest back;
// true when the slack timer should start (the pool holds more than a slice, a runqueue is
// throttled, and the period does not end within 7 ms).
bool returnSlack(CfsBandwidth& b, int64_t& remaining, int64_t now);
// distribute_cfs_runtime(): the throttled runqueues in order (`remainingOf` gives each one's
// allowance by CPU) get what they overran by plus 1 ns while the pool lasts; those that come
// out positive are taken off the throttled list and returned, in order.
std::vector<int> distributeRuntime(CfsBandwidth& b, const std::function<int64_t&(int cpu)>& remainingOf, int64_t now);

}  // namespace schedscope::sim
