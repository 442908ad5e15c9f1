// CPU capacities in the simulator (cpu_capacity.h): misfit tracking and balancing, the
// capacity-aware wakeup per kernel version, and their effect on a real asymmetric machine (an
// NVIDIA DGX GB10's sysfs: five little cores of capacity 718 and 731 and ten big ones of 997 to
// 1024, in two clusters). Unit cases on a four-core machine with two big (1024) and two little
// (512) cores, expectations worked out from fair.c.
#include <gtest/gtest.h>

#include "domains/domain_builder.h"
#include "sim/cpu_capacity.h"
#include "sim/select_task_rq.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "workload/workload_spec.h"
#include "balance_fixture.h"

namespace schedscope::sim {
namespace {

using test::Fixture;
using test::NullOps;

// CPUs 0-1 big (1024), 2-3 little (512), one cluster and L2/L3 (MC only)
Topology bigLittle(unsigned little = 512) {
    test::Shape shape;
    shape.coresPerCluster = 4;
    Topology t = test::makeTopology("big-little", shape);
    for (auto& c : t.cpus) c.capacity = c.id < 2 ? 1024u : little;
    return t;
}

// task `id` has utilisation `util` (as if it had run like that for a long while)
void setUtil(SimState& s, int id, double util) { s.tasks[static_cast<size_t>(id)].util = {util, util, s.now}; }

int mcIndex(const Fixture& f, int cpu) { return test::domainIndex(f.tree, cpu, "MC"); }

}  // namespace

TEST(CpuCapacity, FitsLeavesTwentyPercentAndGreaterMeansFivePercentMore) {
    EXPECT_TRUE(fitsCapacity(409, 512));   // 409 x 1.25 = 511.25
    EXPECT_FALSE(fitsCapacity(410, 512));  // 512.5
    EXPECT_TRUE(capacityGreater(1024, 971));
    EXPECT_FALSE(capacityGreater(1024, 997));  // GB10's big cores are all one size to the balancer
}

TEST(CpuCapacity, ATaskTooBigForItsLittleCpuIsAMisfitUnlessNothingBiggerIsAllowed) {
    Fixture f(bigLittle(), "linux-6.12", true, 3);
    SimState& s = *f.s;
    ASSERT_TRUE(s.asymCapacity);
    f.place(0, 2);
    setUtil(s, 0, 600);
    updateMisfitStatus(s, 2, 0);
    EXPECT_GT(s.cpus[2].misfitTaskLoad, 0);
    // rd->overloaded, which newidle balancing asks, changes only at the top domain's balances:
    // one that sees a misfit task in another group marks the root domain overloaded
    EXPECT_FALSE(s.rdOverloaded(0));
    NullOps ops;
    loadBalance(s, ops, 1, mcIndex(f, 1), BalanceIdle::Idle, MigrationCause::LbPeriodic);
    EXPECT_TRUE(s.rdOverloaded(0)) << "a misfit marks the root domain overloaded, so newidle balance runs";
    EXPECT_TRUE(checkMisfitStatus(s, 2));
    // the same task on a big CPU fits
    f.place(1, 0);
    setUtil(s, 1, 600);
    updateMisfitStatus(s, 0, 1);
    EXPECT_EQ(s.cpus[0].misfitTaskLoad, 0);
    // pinned to the little CPUs: there is nowhere bigger to go
    Task& pinned = s.tasks[2];
    pinned.setAllowed(*CpuSet::parseList("2-3"), s.onlineCount);
    pinned.maxAllowedCapacity = maxAllowedCapacity(s, pinned);
    f.place(2, 3);
    setUtil(s, 2, 600);
    updateMisfitStatus(s, 3, 2);
    EXPECT_EQ(s.cpus[3].misfitTaskLoad, 0);
    // going idle clears it, and the root domain is no longer overloaded by it
    updateMisfitStatus(s, 2, -1);
    EXPECT_EQ(s.cpus[2].misfitTaskLoad, 0);
    EXPECT_TRUE(s.rdOverloaded(0)) << "until the next balance at the top domain";
    s.now += 100000000;  // past the domain's interval
    loadBalance(s, ops, 1, mcIndex(f, 1), BalanceIdle::Idle, MigrationCause::LbPeriodic);
    EXPECT_FALSE(s.rdOverloaded(0));
}

namespace {
// a balance pass of idle CPU `dst` at MC with one task of utilisation `util` running on little CPU 2
NullOps balanceWithOneTaskOnCpu2(double util, int dst) {
    Fixture f(bigLittle(), "linux-6.12", true, 1);
    SimState& s = *f.s;
    f.place(0, 2);
    setUtil(s, 0, util);
    updateMisfitStatus(s, 2, 0);
    EXPECT_EQ(s.cpus[2].misfitTaskLoad > 0, !fitsCapacity(util, 512));
    NullOps ops;
    loadBalance(s, ops, dst, mcIndex(f, dst), BalanceIdle::Idle, MigrationCause::LbPeriodic);
    return ops;
}
}  // namespace

TEST(CpuCapacity, AnIdleBigCpuPullsARunningMisfitThroughTheStopperAndALittleOneDoesNot) {
    const NullOps fromLittle = balanceWithOneTaskOnCpu2(600, 3);
    EXPECT_EQ(fromLittle.active, 0) << "CPU 3 is no bigger than the misfit's CPU";
    const NullOps fromBig = balanceWithOneTaskOnCpu2(600, 0);
    EXPECT_EQ(fromBig.active, 1) << "migrate_misfit: the running task goes by active balance";
    EXPECT_TRUE(fromBig.moved.empty());
}

// "sched/fair: Don't double balance_interval for migrate_misfit" (6.10): a misfit balance that
// moved nothing is no failure of the domain's (nr_balance_failed is for cache-hot and load/util
// moves) and, when the misfit may not run on the balancing CPU (out_one_pinned), does not back
// the domain's interval off; before 6.10 both happened as for any failed balance
TEST(CpuCapacity, FromSixTenAFailedMisfitBalanceIsNoFailureAndNoBackoff) {
    for (const auto& [profile, since610] : {std::pair{"linux-6.12", true}, std::pair{"linux-6.6", false}}) {
        for (const bool pinnedAway : {false, true}) {
            Fixture f(bigLittle(), profile, true, 1);
            SimState& s = *f.s;
            Task& t = s.tasks[0];
            // allowed big CPU 1 and little CPUs 2-3: still a misfit on CPU 2, but not CPU 0's to take
            if (pinnedAway) t.setAllowed(*CpuSet::parseList("1-3"), s.onlineCount);
            t.maxAllowedCapacity = maxAllowedCapacity(s, t);
            f.place(0, 2);
            setUtil(s, 0, 600);
            updateMisfitStatus(s, 2, 0);
            ASSERT_GT(s.cpus[2].misfitTaskLoad, 0);
            const int mc = mcIndex(f, 0);
            DomainState& ds = s.cpus[0].dom[static_cast<size_t>(mc)];
            const double interval = ds.balanceIntervalMs;
            NullOps ops;
            EXPECT_EQ(loadBalance(s, ops, 0, mc, BalanceIdle::Idle, MigrationCause::LbPeriodic), 0);
            EXPECT_EQ(ops.active, pinnedAway ? 0 : 1) << profile;
            EXPECT_EQ(ds.nrBalanceFailed, since610 ? 0u : 1u) << profile << (pinnedAway ? ", pinned away" : "");
            if (pinnedAway) {
                EXPECT_EQ(ds.balanceIntervalMs, since610 ? interval : 2 * interval) << profile << ": out_one_pinned";
            }
        }
    }
}

TEST(CpuCapacity, ATaskThatFitsItsLittleCpuStaysPut) {
    const NullOps ops = balanceWithOneTaskOnCpu2(300, 0);
    EXPECT_EQ(ops.active, 0);
    EXPECT_TRUE(ops.moved.empty());
}

TEST(CpuCapacity, AWakeupLooksForAnIdleCpuTheTaskFitsFromFiveSeven) {
    Fixture f(bigLittle(), "linux-6.12", true, 1);
    SimState& s = *f.s;
    Task& p = s.tasks[0];
    p.cpu = 2;
    p.state = TaskState::Sleeping;
    setUtil(s, 0, 600);
    // prev and target idle but too small: the scan from the target finds big CPU 0
    EXPECT_EQ(selectIdleSibling(s, p, 2, 2), 0) << s.why.rule;
    setUtil(s, 0, 100);
    EXPECT_EQ(selectIdleSibling(s, p, 2, 2), 2) << "it fits the idle target";
    // every CPU it fits busy: the biggest idle one
    setUtil(s, 0, 600);
    f.place(0, 0);  // tasks only to fill CPUs 0 and 1 (their own task 0 is enough for idle())
    s.cpus[1].curr = 0;
    EXPECT_EQ(selectIdleCapacity(s, p, mcIndex(f, 2), 2), 2) << "no idle CPU it fits: the biggest idle, the first seen";
}

TEST(CpuCapacity, FromFiveTenPrevComesBeforeTheCapacityScanAndBeforeThatNot) {
    // target 1 busy, prev 3 idle and big enough for a small task: 5.10+ keeps prev; 5.7-5.9 scan
    // the asymmetric domain from the target first and take CPU 2
    for (const auto& [profile, expected] : {std::pair{"linux-6.12", 3}, std::pair{"linux-5.8", 2}}) {
        Fixture f(bigLittle(), profile, true, 2);
        SimState& s = *f.s;
        f.place(1, 1);
        Task& p = s.tasks[0];
        p.cpu = 3;
        p.state = TaskState::Sleeping;
        setUtil(s, 0, 100);
        EXPECT_EQ(selectIdleSibling(s, p, 3, 1), expected) << profile << ": " << s.why.rule;
    }
}

TEST(CpuCapacity, UntilFiveSixATooBigWakeeGetsNoAffineWakeup) {
    Fixture f(bigLittle(), "linux-5.4", true, 1);
    SimState& s = *f.s;
    const Task& p = s.tasks[0];
    setUtil(s, 0, 600);
    EXPECT_TRUE(wakeCap(s, p, 2, 0)) << "600 does not fit the waker's little CPU";
    EXPECT_FALSE(wakeCap(s, p, 0, 1)) << "both big";
    setUtil(s, 0, 100);
    EXPECT_FALSE(wakeCap(s, p, 2, 3));
    // capacities within an eighth of each other do not count as asymmetric
    Fixture near(bigLittle(960), "linux-5.4", true, 1);
    setUtil(*near.s, 0, 900);
    EXPECT_FALSE(wakeCap(*near.s, near.s->tasks[0], 2, 3));
}

namespace {

struct Gb10Run {
    double bigShare = 0;  // of all CPU time, on CPUs of capacity 997 and more
    double throughput = 0;  // work done
    long long activeMoves = 0;
};

Gb10Run runOnGb10(const char* profile, const std::string& spec) {
    static const Topology topo = [] {
        const std::string dir = test::extractFixture("topologies/sysfs/nvidia-dgx-gb10.tar.bz2");
        auto t = loadSysfsTopology(dir + "/nvidia-dgx-gb10", Arch::Arm64);
        EXPECT_TRUE(t.ok()) << t.error();
        return t.ok() ? *t : Topology{};
    }();
    const auto st = test::runSpec(topo, profile, spec, 1.0);
    Gb10Run out;
    if (!st) return out;
    double total = 0;
    for (const auto& t : st->tasks)
        for (const CpuTimes::Entry& e : t.cpuTime) {
            total += static_cast<double>(e.ns);
            if (topo.cpus[static_cast<size_t>(e.cpu)].capacity >= 997) out.bigShare += static_cast<double>(e.ns);
        }
    out.bigShare /= total;
    for (const auto& t : st->tasks) out.throughput += t.workDone;  // work per second: 1 s ran
    out.activeMoves = st->metrics.migrationsByCause[static_cast<size_t>(MigrationCause::LbActive)];
    return out;
}

}  // namespace

TEST(CpuCapacity, OnAGb10BusyThreadsEndOnTheBigCoresFromFiveFourteen) {
    // five busy threads forked from CPU 0 start on the little cores 0-4
    const Gb10Run old = runOnGb10("linux-4.14", "sysbench-cpu:threads=5");
    const Gb10Run now = runOnGb10("linux-6.12", "sysbench-cpu:threads=5");
    EXPECT_EQ(old.activeMoves, 0) << "no misfit balancing before 4.20";
    EXPECT_LT(old.bigShare, 0.2);
    EXPECT_GE(now.activeMoves, 5);
    EXPECT_GT(now.bigShare, 0.9);
    // a big core does about 1.4 times a little one's work
    EXPECT_GT(now.throughput, 1.25 * old.throughput);
    // before 5.14 only the level where every capacity is seen has SD_ASYM_CPUCAPACITY, here the
    // whole machine, whose groups are the clusters: their biggest CPUs (997 and 1024) are not
    // 5% apart, so no CPU is big enough to pull the misfits of the first cluster
    const Gb10Run fiveTen = runOnGb10("linux-5.10", "sysbench-cpu:threads=5");
    EXPECT_EQ(fiveTen.activeMoves, 0);
}

}  // namespace schedscope::sim
