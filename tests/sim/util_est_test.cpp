// util_est (UTIL_EST): the update rule of util_est_update() worked out by hand, the runqueue's
// sum as tasks come and go, what the balancer and fit checks read with it, and whole runs whose
// runqueue sums must always be those of the tasks enqueued there.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "balance_fixture.h"
#include "domains/profile.h"
#include "sim/sched_knobs.h"
#include "sim/util_est.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

constexpr int64_t kPeriodNs = 1024 * 1000;  // PELT's period

// a task's averages as PELT left them at the sleep's dequeue
void setAverages(SimState& s, int id, double util, double runnable) {
    Task& t = s.tasks[static_cast<size_t>(id)];
    t.util = {util, 0.0, s.now};
    t.runnable = {runnable, 0.0, s.now};
}

struct UtilEstFixture : Fixture {
    UtilEstFixture() : Fixture(kunpeng920_24(), "linux-6.12", true, 3) {
        s->feat.utilEst = true;
        s->now = 100 * kPeriodNs + 10;  // just past a period boundary
    }
    Task& task(int id) { return s->tasks[static_cast<size_t>(id)]; }
    // the next sleep, `periods` PELT periods later
    void sleepAfter(int periods, int id, double util, double runnable) {
        s->now += periods * kPeriodNs;
        setAverages(*s, id, util, runnable);
        utilEstUpdate(*s, task(id), 0);
    }
};

TEST(UtilEst, ARiseIsTakenAtOnceAFallDecaysByAQuarter) {
    UtilEstFixture f;
    f.sleepAfter(0, 0, 600.7, 600);
    EXPECT_EQ(f.task(0).utilEst, 600u) << "task_util() is the integer average";
    f.sleepAfter(2, 0, 200, 200);
    EXPECT_EQ(f.task(0).utilEst, 500u) << "600 + (200 - 600) / 4";
    f.sleepAfter(2, 0, 300, 300);
    EXPECT_EQ(f.task(0).utilEst, 450u) << "500 + (300 - 500) / 4";
    f.sleepAfter(2, 0, 900, 900);
    EXPECT_EQ(f.task(0).utilEst, 900u) << "UTIL_EST_FASTUP: a rise at once";
}

TEST(UtilEst, WithinTheMarginItStays) {
    UtilEstFixture f;
    f.sleepAfter(0, 0, 500, 500);
    f.sleepAfter(2, 0, 491, 491);  // 9 below: under 1% of 1024
    EXPECT_EQ(f.task(0).utilEst, 500u);
    f.sleepAfter(2, 0, 490, 490);  // 10 below: decays
    EXPECT_EQ(f.task(0).utilEst, 497u) << "(500 * 4 - 10) / 4, truncated";
}

TEST(UtilEst, NotUpdatedTwiceWithinOnePeltPeriod) {
    UtilEstFixture f;
    f.sleepAfter(0, 0, 500, 500);
    f.s->now += kPeriodNs / 4;  // woken and asleep again before the average could move
    setAverages(*f.s, 0, 100, 100);
    utilEstUpdate(*f.s, f.task(0), 0);
    EXPECT_EQ(f.task(0).utilEst, 500u) << "UTIL_AVG_UNCHANGED";
    f.sleepAfter(1, 0, 100, 100);
    EXPECT_EQ(f.task(0).utilEst, 400u) << "a period later: (500 * 4 - 400) / 4";
}

TEST(UtilEst, NoDecayForATaskThatWaitedOrOutgrewItsCpu) {
    UtilEstFixture f;
    f.sleepAfter(0, 0, 500, 500);
    f.sleepAfter(2, 0, 200, 400);  // runnable far above its utilisation: it wanted more CPU than it got
    EXPECT_EQ(f.task(0).utilEst, 500u);
    f.s->capacity[0] = 300;  // a little CPU: 400 is more than it could give
    f.sleepAfter(2, 0, 400, 400);
    EXPECT_EQ(f.task(0).utilEst, 500u);
    EXPECT_EQ(f.task(0).utilEstAt, 100 * kPeriodNs + 10 + 2 * kPeriodNs) << "left without the UNCHANGED mark";
    f.s->capacity[0] = 1024;
    f.s->now += 1;  // the same period: not held back, as no update happened
    setAverages(*f.s, 0, 400, 400);
    utilEstUpdate(*f.s, f.task(0), 0);
    EXPECT_EQ(f.task(0).utilEst, 475u);
}

TEST(UtilEst, ARunqueueCountsTheEstimatesOfItsTasks) {
    UtilEstFixture f;
    SimState& s = *f.s;
    f.task(0).utilEst = 300;
    f.task(1).utilEst = 200;
    utilEstEnqueue(s, f.task(0), 0);
    utilEstEnqueue(s, f.task(1), 0);
    EXPECT_EQ(s.cpus[0].utilEst, 500u);
    utilEstEnqueue(s, f.task(0), 1);  // moved: counted where it is now only
    EXPECT_EQ(s.cpus[0].utilEst, 200u);
    EXPECT_EQ(s.cpus[1].utilEst, 300u);
    f.task(1).utilEst = 250;  // (never while enqueued in the kernel) lsub_positive() stops at 0
    utilEstDequeue(s, f.task(1));
    EXPECT_EQ(s.cpus[0].utilEst, 0u);
    EXPECT_EQ(f.task(1).utilEstCpu, -1);
    utilEstDequeue(s, f.task(1));  // twice: nothing more
    EXPECT_EQ(s.cpus[0].utilEst, 0u);
}

TEST(UtilEst, TheCpuAndTheTaskReadTheLargerOfAverageAndEstimate) {
    UtilEstFixture f;
    SimState& s = *f.s;
    s.cpus[2].util = {100, 100, s.now};
    EXPECT_DOUBLE_EQ(s.cpuUtil(2), 100);
    f.task(2).utilEst = 700;
    utilEstEnqueue(s, f.task(2), 2);
    EXPECT_DOUBLE_EQ(s.cpuUtil(2), 700) << "cpu_util_cfs(): max(util_avg, util_est)";
    EXPECT_DOUBLE_EQ(s.cpuSignals(2).util, 700);
    f.task(0).utilEst = 900;
    utilEstEnqueue(s, f.task(0), 2);
    EXPECT_DOUBLE_EQ(s.cpuUtil(2), 1024) << "clamped to the CPU's capacity";
    setAverages(s, 2, 50, 50);
    EXPECT_DOUBLE_EQ(s.taskUtilEst(2), 700) << "task_util_est()";
    // the span sums keep the averages; the estimates add what they exceed them by
    CpuSet span = CpuSet::single(2);
    span.set(3);
    EXPECT_DOUBLE_EQ(utilEstExcess(s, span), 1024 - 100);
}

TEST(UtilEst, OffNothingIsCounted) {
    UtilEstFixture f;
    SimState& s = *f.s;
    s.feat.utilEst = false;
    f.task(0).utilEst = 300;
    utilEstEnqueue(s, f.task(0), 0);
    EXPECT_EQ(s.cpus[0].utilEst, 0u);
    f.sleepAfter(2, 1, 400, 400);
    EXPECT_EQ(f.task(1).utilEst, 0u);
    EXPECT_DOUBLE_EQ(utilEstExcess(s, s.online), 0);
}

// Whole runs with UTIL_EST on: after every event each runqueue's estimate is the sum of those of
// the tasks it counts, a task is counted only where it is queued or running (not while asleep,
// delayed included), and the balancer's group sums, estimates added, match a CPU-by-CPU count.
void expectRunqueueSumsHold(const Topology& topo, const std::string& profileName, const std::string& spec, double seconds) {
    const DomainTree tree = buildTree(topo, profileName, true, true);
    auto wl = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(wl.ok()) << wl.error();
    const auto profile = findProfile(profileName);
    ASSERT_TRUE(profile);
    SchedKnobs knobs;
    knobs.utilEst = true;
    auto features = featuresWithKnobs(*profile, knobs);
    ASSERT_TRUE(features.ok()) << features.error();
    SimOptions opt;
    opt.durationS = seconds;
    opt.features = *features;
    auto sim = Simulation::create(topo, tree, *wl, opt);
    ASSERT_TRUE(sim.ok()) << sim.error();
    SimState& s = (*sim)->state();
    s.verifySpanSums = true;
    long long events = 0, countedAsleep = 0, sumMismatches = 0;
    unsigned largest = 0;
    while ((*sim)->stepEvent()) {
        ++events;
        std::vector<unsigned> sums(s.cpus.size(), 0);
        for (const Task& t : s.tasks) {
            if (t.utilEstCpu < 0) continue;
            sums[static_cast<size_t>(t.utilEstCpu)] += t.utilEst;
            const bool queued = (t.state == TaskState::Running || t.state == TaskState::Runnable ||
                                 t.state == TaskState::Throttled) && !t.delayed;
            if (!queued || t.cpu != t.utilEstCpu) ++countedAsleep;
            largest = std::max(largest, t.utilEst);
        }
        for (size_t c = 0; c < s.cpus.size(); ++c) sumMismatches += sums[c] != s.cpus[c].utilEst;
    }
    EXPECT_GT(events, 1000);
    EXPECT_EQ(countedAsleep, 0) << spec << " under " << profileName;
    EXPECT_EQ(sumMismatches, 0) << spec << " under " << profileName;
    EXPECT_GT(largest, 100u) << "the tasks' activations left estimates";
    EXPECT_GT(s.spanSumChecks, 100);
    EXPECT_EQ(s.spanSumMismatches, 0) << "group utilisation: span sums plus the estimates' excess";
}

TEST(UtilEstInRuns, RunqueueSumsAreTheirTasksEstimates) {
    const Topology topo = kunpeng920_24();
    expectRunqueueSumsHold(topo, "linux-6.1", "hackbench:groups=2", 0.1);
    expectRunqueueSumsHold(topo, "linux-6.12", "hackbench:groups=2", 0.1);  // delayed dequeues
    expectRunqueueSumsHold(topo, "linux-7.1", "pgbench:clients=16", 0.2);
}

TEST(UtilEstInRuns, APreKernelHasNone) {
    const auto profile = findProfile("linux-4.14");
    ASSERT_TRUE(profile);
    SchedKnobs knobs;
    knobs.utilEst = true;
    const auto f = featuresWithKnobs(*profile, knobs);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error(), "UTIL_EST needs linux-4.17 or later, not linux-4.14");
    EXPECT_TRUE(featuresWithKnobs(*findProfile("linux-4.17"), knobs).ok());
    EXPECT_FALSE(featuresFor(*findProfile("linux-7.1")).utilEst) << "modelled, off unless a what-if sets it";
}

}  // namespace
}  // namespace schedscope::test
