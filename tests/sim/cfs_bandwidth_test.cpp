// CFS bandwidth control (cfs_bandwidth.h): a group's pool of quota per period, the per-CPU
// allowances it hands out in slices, throttling when it runs dry and the period and slack timers
// that unthrottle. The pool's arithmetic against fair.c's by hand; the engine's against what
// cgroup cpu.max gives on a real machine: a hog limited to half a CPU runs half the time, a
// group of four hogs limited to one CPU gets one CPU whatever the machine has free.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "sim/cfs_bandwidth.h"
#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"
#include "workload/workload_json.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;
using workload::OpKind;

constexpr int64_t kMs = 1'000'000;

// ---- the pool

TEST(CfsBandwidthPool, StartsFullAndRefillsAQuotaPerPeriodUpToQuotaPlusBurst) {
    CfsBandwidth b;
    setBandwidth(b, 50 * kMs, 100 * kMs, 20 * kMs);
    EXPECT_EQ(b.runtimeNs, 50 * kMs) << "tg_set_cfs_bandwidth() refills once";
    int64_t remaining = 0;
    EXPECT_TRUE(topUpRuntime(b, remaining, 10 * kMs));
    EXPECT_EQ(remaining, kBandwidthSliceNs) << "a slice";
    EXPECT_EQ(b.runtimeNs, 45 * kMs);
    refillBandwidth(b, 100 * kMs);
    EXPECT_EQ(b.runtimeNs, 70 * kMs) << "45 + 50, capped at quota + burst";
    refillBandwidth(b, 150 * kMs);
    EXPECT_EQ(b.runtimeNs, 70 * kMs) << "no boundary passed";
    b.runtimeNs = 0;
    refillBandwidth(b, 10'000 * kMs);
    EXPECT_EQ(b.runtimeNs, 70 * kMs) << "many periods at once: still capped";
}

TEST(CfsBandwidthPool, ARunqueueInDeficitAsksForASliceAndItsDeficit) {
    CfsBandwidth b;
    setBandwidth(b, 20 * kMs, 100 * kMs, 0);
    int64_t remaining = -3 * kMs;  // overran by 3 ms before the tick saw it
    EXPECT_TRUE(topUpRuntime(b, remaining, 0));
    EXPECT_EQ(remaining, kBandwidthSliceNs);
    EXPECT_EQ(b.runtimeNs, 20 * kMs - 8 * kMs);
    // a pool with less than the deficit leaves it throttled
    b.runtimeNs = 2 * kMs;
    remaining = -3 * kMs;
    EXPECT_FALSE(topUpRuntime(b, remaining, 0));
    EXPECT_EQ(remaining, -kMs);
    EXPECT_EQ(b.runtimeNs, 0);
}

TEST(CfsBandwidthPool, AnEmptiedRunqueueKeepsOneMsAndGivesTheRestBack) {
    CfsBandwidth b;
    setBandwidth(b, 100 * kMs, 100 * kMs, 0);
    b.runtimeNs = 0;
    b.throttledCpus = {3};
    int64_t remaining = 4 * kMs;
    EXPECT_FALSE(returnSlack(b, remaining, 10 * kMs)) << "3 ms back: not more than a slice";
    EXPECT_EQ(remaining, kMinCfsRqRuntimeNs);
    EXPECT_EQ(b.runtimeNs, 3 * kMs);
    remaining = 5 * kMs;
    EXPECT_TRUE(returnSlack(b, remaining, 10 * kMs)) << "7 ms in the pool and a runqueue throttled: the slack timer";
    remaining = 5 * kMs;
    EXPECT_FALSE(returnSlack(b, remaining, 95 * kMs)) << "the period ends within 7 ms: it hands out the runtime anyway";
    remaining = kMinCfsRqRuntimeNs / 2;
    const int64_t before = b.runtimeNs;
    EXPECT_FALSE(returnSlack(b, remaining, 10 * kMs));
    EXPECT_EQ(b.runtimeNs, before) << "nothing beyond 1 ms to give";
}

TEST(CfsBandwidthPool, DistributionGoesInThrottleOrderWhileThePoolLasts) {
    CfsBandwidth b;
    setBandwidth(b, 10 * kMs, 100 * kMs, 0);
    std::vector<int64_t> remaining = {-4 * kMs, -8 * kMs, 0, -1};
    b.throttledCpus = {1, 0, 3, 2};
    b.runtimeNs = 0;
    // at the boundary the pool is 10 ms: cpu 1 takes 8 ms + 1 ns, cpu 0 what is left (< 4 ms)
    const std::vector<int> out = distributeRuntime(b, [&](int cpu) -> int64_t& { return remaining[static_cast<size_t>(cpu)]; },
                                                   100 * kMs);
    EXPECT_EQ(out, std::vector<int>({1}));
    EXPECT_EQ(remaining[1], 1);
    EXPECT_EQ(remaining[0], -4 * kMs + (2 * kMs - 1));
    EXPECT_EQ(b.runtimeNs, 0);
    EXPECT_EQ(b.throttledCpus, std::vector<int>({0, 3, 2})) << "the rest stay throttled, in order";
}

// ---- the engine

workload::TaskSpec hogIn(const std::string& name, int group) {
    workload::TaskSpec t;
    t.name = name;
    t.group = group;
    t.script = {op(OpKind::Run, 100e9)};
    return t;
}

Topology coreCount(int n) {
    Shape shape;
    shape.coresPerCluster = n;
    return makeTopology(std::to_string(n) + " cores", shape);
}

struct Outcome {
    std::vector<double> cpuS;  // per task
    double throttledS = 0;     // the first group's
    long long nrThrottled = 0;
    double waitP99Us = 0;
};

Outcome runLimited(const Topology& topo, const workload::Workload& wl, double seconds, bool bandwidth = true,
            const std::string& profile = "linux-6.12") {
    const DomainTree tree = buildTree(topo, profile, true, true);
    SimOptions o;
    o.durationS = seconds;
    o.bandwidth = bandwidth;
    auto st = simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    Outcome out;
    if (!st.ok()) return out;
    for (const Task& t : (*st)->tasks) out.cpuS.push_back(static_cast<double>(t.cpuTime.total()) / 1e9);
    if (!(*st)->groups.empty()) {
        out.throttledS = static_cast<double>((*st)->groups[0].bandwidth.throttledNs) / 1e9;
        out.nrThrottled = (*st)->groups[0].bandwidth.nrThrottled;
    }
    out.waitP99Us = (*st)->metrics.waitLatency.percentileNs(99) / 1e3;
    return out;
}

double cpuSum(const std::vector<double>& v, size_t from = 0, size_t to = SIZE_MAX) {
    return std::accumulate(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(std::min(to, v.size())), 0.0);
}

// A hog under cpu.max "50000 100000" runs half of each period, under both fair classes, and is
// throttled once a period; unlimited it runs all the time.
TEST(CfsBandwidth, AHogLimitedToHalfACpuRunsHalfTheTime) {
    const Topology topo = coreCount(2);
    for (const std::string profile : {"linux-6.1", "linux-6.12"}) {
        workload::Workload wl;
        wl.groups = {{"box", 1024, -1, 50000, 100000, 0}};
        wl.tasks = {hogIn("h", 0)};
        const Outcome limited = runLimited(topo, wl, 3.0, true, profile);
        ASSERT_EQ(limited.cpuS.size(), 1u);
        EXPECT_NEAR(limited.cpuS[0], 1.5, 0.01) << profile;
        EXPECT_EQ(limited.nrThrottled, 30) << profile;
        EXPECT_NEAR(limited.throttledS, 1.5, 0.05) << profile << ": throttled the other half";
        EXPECT_GT(limited.waitP99Us, 40000) << profile << ": each throttle is a ~50 ms wait";
        const Outcome free = runLimited(topo, wl, 3.0, false, profile);
        EXPECT_NEAR(free.cpuS[0], 3.0, 0.01) << profile;
        EXPECT_EQ(free.nrThrottled, 0) << profile;
    }
}

// Four hogs in a group limited to one CPU (cpu.max "100000 100000") on four CPUs, beside an
// unlimited hog: the group gets one CPU in all, wherever its tasks are, and the free hog most of
// a CPU; without the limit the group's four take the three CPUs the free hog leaves them (the
// balancer weighs the group's entity, 1024 on each of its CPUs, against the free hog's 1024).
TEST(CfsBandwidth, AGroupIsLimitedOverAllItsCpusTogether) {
    const Topology topo = coreCount(4);
    workload::Workload wl;
    wl.groups = {{"box", 1024, -1, 100000, 100000, 0}};
    for (int i = 0; i < 4; ++i) wl.tasks.push_back(hogIn("b" + std::to_string(i), 0));
    wl.tasks.push_back(hogIn("free", -1));
    const Outcome limited = runLimited(topo, wl, 3.0);
    ASSERT_EQ(limited.cpuS.size(), 5u);
    EXPECT_NEAR(cpuSum(limited.cpuS, 0, 4), 3.0, 0.05) << "one CPU for the group";
    // the free hog keeps most of its CPU (2.76 s of 3): a box task the balancer leaves beside it
    // shares it while the box has quota (no balancer moves one into a CPU where the box is
    // throttled)
    EXPECT_GT(limited.cpuS[4], 2.7) << "the free hog is not held back";
    EXPECT_GT(limited.throttledS, 3.0) << "throttled runqueues on several CPUs";
    const Outcome free = runLimited(topo, wl, 3.0, false);
    EXPECT_NEAR(cpuSum(free.cpuS), 12.0, 0.05);
    EXPECT_NEAR(cpuSum(free.cpuS, 0, 4), 9.0, 0.2);
}

// A task that works 25 ms and then sleeps 150 ms, under a quota of 20 ms per 100 ms: each
// stretch of work starts 55 ms into a period (the throttle lines it up so), overruns the
// period's quota, is throttled and finishes 5 ms into the next period. With a burst allowance of
// 20 ms (cpu.max.burst) the quota that next period left unused carries over (the pool fills up
// to 35 ms) and the 25 ms fit: after the first period, no throttling, and more rounds done.
TEST(CfsBandwidth, ABurstAllowanceCarriesAnIdlePeriodsQuota) {
    const Topology topo = coreCount(2);
    workload::Workload wl;
    workload::TaskSpec t;
    t.name = "spiky";
    t.group = 0;
    workload::Op loop = op(OpKind::Loop);
    loop.to = 0;
    t.script = {op(OpKind::Run, 25e6), op(OpKind::Sleep, 150e6), loop};
    wl.tasks = {t};
    wl.groups = {{"box", 1024, -1, 20000, 100000, 0}};
    const Outcome strict = runLimited(topo, wl, 4.0);
    wl.groups[0].burstUs = 20000;
    const Outcome burst = runLimited(topo, wl, 4.0);
    ASSERT_EQ(strict.cpuS.size(), 1u);
    EXPECT_GT(strict.nrThrottled, 10) << "25 ms of work against 20 ms per period";
    EXPECT_LE(burst.nrThrottled, 1) << "the first period's only: later ones carry 15 ms over";
    EXPECT_GT(burst.cpuS[0], strict.cpuS[0] * 1.05) << "more rounds of work done in the 4 s";
}

// Nested limits: a parent limited to one CPU over two child groups, one of them limited to a
// quarter CPU. The limited child gets its quarter, its sibling the rest of the parent's CPU.
TEST(CfsBandwidth, NestedLimitsHoldAtEachLevel) {
    const Topology topo = coreCount(4);
    workload::Workload wl;
    wl.groups = {{"parent", 1024, -1, 100000, 100000, 0}, {"small", 1024, 0, 25000, 100000, 0}, {"rest", 1024, 0, -1, 100000, 0}};
    wl.tasks = {hogIn("s0", 1), hogIn("s1", 1), hogIn("r0", 2), hogIn("r1", 2)};
    const Outcome o = runLimited(topo, wl, 3.0);
    ASSERT_EQ(o.cpuS.size(), 4u);
    EXPECT_NEAR(cpuSum(o.cpuS), 3.0, 0.06) << "the parent's one CPU";
    EXPECT_NEAR(o.cpuS[0] + o.cpuS[1], 0.75, 0.05) << "the small group's quarter";
}

// After every event of a run with a limited group among busy and sleepy tasks on four CPUs:
// a throttled task is held on its CPU off the runqueue, no task of a group throttled on a CPU
// runs or waits queued there, and each runqueue's weight is the sum of its queued tasks'.
TEST(CfsBandwidth, AThrottledGroupHasNothingQueuedWhereItIsThrottled) {
    const Topology topo = coreCount(4);
    workload::Workload wl;
    wl.groups = {{"box", 1024, -1, 30000, 50000, 0}, {"other", 2048, -1, -1, 100000, 0}};
    for (int i = 0; i < 10; ++i)
        wl.tasks.push_back(runSleepLoop("t" + std::to_string(i), i % 3 == 2 ? -1 : i % 3, 0.9e6 + 0.3e6 * i, 0.3e6 + 0.2e6 * (i % 4)));
    TestRun r = startRun(topo, "linux-6.12", wl, 1.0);
    ASSERT_TRUE(r.sim);
    const SimState& s = r.sim->state();
    long long events = 0, throttledSeen = 0;
    while (r.sim->stepEvent()) {
        ++events;
        for (const Cpu& rq : s.cpus) {
            double weight = 0;
            for (const Task& t : s.tasks) {
                if (t.cpu != rq.id) continue;
                const bool held = t.group == 0 && s.groups[0].onCpu[static_cast<size_t>(rq.id)].throttled;
                if (t.state == TaskState::Throttled) {
                    ++throttledSeen;
                    ASSERT_TRUE(held) << "task " << t.id << " held on cpu " << rq.id << " at " << s.now;
                    ASSERT_EQ(std::count(rq.queued.begin(), rq.queued.end(), t.id), 0);
                    ASSERT_NE(rq.curr, t.id);
                }
                if (held && !t.delayed) {
                    ASSERT_TRUE(t.state != TaskState::Running && t.state != TaskState::Runnable)
                        << "task " << t.id << " of a group throttled on cpu " << rq.id << " at " << s.now;
                }
                if (t.state == TaskState::Running || t.state == TaskState::Runnable || t.delayed) weight += t.weight;
            }
            ASSERT_NEAR(rq.loadWeight, weight, 1e-6) << "cpu " << rq.id << " at " << s.now;
        }
    }
    EXPECT_GT(events, 1000);
    EXPECT_GT(throttledSeen, 100) << "the check saw throttled tasks";
}

// The same seed gives the same run, throttling and all.
TEST(CfsBandwidth, RunsAreDeterministic) {
    const Topology topo = coreCount(4);
    workload::Workload wl;
    wl.groups = {{"box", 1024, -1, 70000, 100000, 10000}};
    for (int i = 0; i < 6; ++i) wl.tasks.push_back(runSleepLoop("t" + std::to_string(i), i % 2 == 0 ? 0 : -1, 2e6, 1e6));
    const Outcome a = runLimited(topo, wl, 1.0), b = runLimited(topo, wl, 1.0);
    EXPECT_EQ(a.cpuS, b.cpuS);
    EXPECT_EQ(a.throttledS, b.throttledS);
    EXPECT_GT(a.nrThrottled, 0);
}

// A workload file's group limits: read, written back, and refused outside the kernel's ranges
// with the group named.
TEST(CfsBandwidth, WorkloadFilesCarryTheLimits) {
    const std::string tasks = R"(, "tasks": [{"name": "a", "group": "box", "script": [{"run_ms": 1}]}]})";
    auto ok = workload::parseWorkloadJson(
        R"({"groups": {"box": {"quota_us": 50000, "period_us": 200000, "burst_us": 1000}})" + tasks, "w.json", 4);
    ASSERT_TRUE(ok.ok()) << ok.error();
    ASSERT_EQ(ok->groups.size(), 1u);
    EXPECT_EQ(ok->groups[0].quotaUs, 50000);
    EXPECT_EQ(ok->groups[0].periodUs, 200000);
    EXPECT_EQ(ok->groups[0].burstUs, 1000);
    EXPECT_TRUE(workload::hasBandwidthLimits(*ok));
    auto none = workload::parseWorkloadJson(R"({"groups": {"box": {"shares": 512}})" + tasks, "w.json", 4);
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->groups[0].quotaUs, -1);
    EXPECT_FALSE(workload::hasBandwidthLimits(*none));
    const std::pair<std::string, std::string> bad[] = {
        {R"({"quota_us": 999})", "w.json: group 'box': quota_us must be an integer in 1000..17592186044415"},
        {R"({"quota_us": 5000, "period_us": 500})", "w.json: group 'box': period_us must be an integer in 1000..1000000"},
        {R"({"quota_us": 5000, "burst_us": 6000})", "w.json: group 'box': burst_us must be an integer in 0..5000"},
        {R"({"period_us": 100000})",
         "w.json: group 'box': period_us and burst_us go with a quota_us (the group's CPU time per period)"},
    };
    for (const auto& [group, message] : bad) {
        std::string text = R"({"groups": {"box": )";
        text += group;
        text += "}";
        text += tasks;
        auto r = workload::parseWorkloadJson(text, "w.json", 4);
        ASSERT_FALSE(r.ok()) << group;
        EXPECT_EQ(r.error(), message);
    }
}

}  // namespace
}  // namespace schedscope::test
