// Unit tests of the placement and balancing policies on tiny hand-built situations, with the
// expectations worked out from the kernel functions they mirror.
#include <gtest/gtest.h>

#include "balance_fixture.h"
#include "sim/fair_rq.h"
#include "sim/load_balance.h"
#include "sim/select_task_rq.h"
#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

TEST(SelectIdleSibling, SameClusterIdleCpuBeforeOtherClusterWithClusterScan) {
    // target 3 (cluster 0-3) busy; idle: CPU 1 (same cluster) and CPU 4 (next cluster).
    // select_idle_cpu scans from target+1 = 4: the plain scan meets 4 first, the cluster-first
    // scan (6.8+, SD_CLUSTER) wraps inside 0-3 and meets 1.
    for (const auto& [profile, expected] : {std::pair<std::string, int>{"linux-6.12", 1}, {"linux-6.1", 4}}) {
        Fixture f(kunpeng920_24(), profile, true, 30);
        int id = 0;
        for (int c = 0; c < 24; ++c)
            if (c != 1 && c != 4) f.place(id++, c);
        Task& p = f.s->tasks[29];
        p.cpu = 3;
        EXPECT_EQ(selectIdleSibling(*f.s, p, 3, 3), expected) << profile;
    }
}

TEST(SelectIdleSibling, IdlePrevInSameLlcIsTaken) {
    Fixture f(kunpeng920_24(), "linux-6.1", true, 4);
    f.place(0, 0);
    Task& p = f.s->tasks[3];
    EXPECT_EQ(selectIdleSibling(*f.s, p, 7, 0), 7);
}

TEST(WakeWide, FlipsAtTheLlcSizeFactor) {
    Fixture f(kunpeng920_24(), "linux-6.1", true, 2);  // LLC = a 24-CPU node: factor 24
    Task& waker = f.s->tasks[0];
    Task& wakee = f.s->tasks[1];
    wakee.wakeeFlips = 23;
    waker.wakeeFlips = 10000;
    EXPECT_FALSE(wakeWide(*f.s, waker, wakee, 0)) << "slave below the factor";
    wakee.wakeeFlips = 24;
    waker.wakeeFlips = 24 * 24 - 1;
    EXPECT_FALSE(wakeWide(*f.s, waker, wakee, 0)) << "master below slave * factor";
    waker.wakeeFlips = 24 * 24;
    EXPECT_TRUE(wakeWide(*f.s, waker, wakee, 0));
}

// Seed 001's experiment: the cluster's size as the factor (4 on Kunpeng 920, against an LLC of
// 24) makes a wakeup wide with far fewer flips; off, none is; with no CLS level the cluster
// factor falls back to the LLC's size.
TEST(WakeWide, TheClusterFactorGoesWideSoonerAndOffNever) {
    Fixture f(kunpeng920_24(), "linux-6.12", true, 2);
    Task& waker = f.s->tasks[0];
    Task& wakee = f.s->tasks[1];
    wakee.wakeeFlips = 4;
    waker.wakeeFlips = 16;  // slave * 4, far below slave * 24
    EXPECT_FALSE(wakeWide(*f.s, waker, wakee, 0)) << "llc: slave below 24";
    f.s->feat.wakeWide = WakeWide::Cluster;
    EXPECT_TRUE(wakeWide(*f.s, waker, wakee, 0)) << "cluster: 4 >= 4 and 16 >= 4 * 4";
    waker.wakeeFlips = 15;
    EXPECT_FALSE(wakeWide(*f.s, waker, wakee, 0)) << "cluster: master below slave * 4";
    wakee.wakeeFlips = 100;
    waker.wakeeFlips = 100000;
    f.s->feat.wakeWide = WakeWide::Off;
    EXPECT_FALSE(wakeWide(*f.s, waker, wakee, 0)) << "off: never wide";

    Fixture noCls(kunpeng920_24(), "linux-6.12", false, 2);
    noCls.s->feat.wakeWide = WakeWide::Cluster;
    noCls.s->tasks[1].wakeeFlips = 4;
    noCls.s->tasks[0].wakeeFlips = 16;
    EXPECT_FALSE(wakeWide(*noCls.s, noCls.s->tasks[0], noCls.s->tasks[1], 0)) << "no cluster domain: the LLC's 24";
    noCls.s->tasks[1].wakeeFlips = 24;
    noCls.s->tasks[0].wakeeFlips = 24 * 24;
    EXPECT_TRUE(wakeWide(*noCls.s, noCls.s->tasks[0], noCls.s->tasks[1], 0));
}

TEST(RecordWakee, CountsSwitchesOfWakee) {
    Fixture f(kunpeng920_24(), "linux-6.1", true, 3);
    Task& w = f.s->tasks[0];
    recordWakee(*f.s, w, f.s->tasks[1]);
    recordWakee(*f.s, w, f.s->tasks[1]);
    recordWakee(*f.s, w, f.s->tasks[2]);
    EXPECT_EQ(w.wakeeFlips, 2u);
}

TEST(FindIdlestGroup, ForkSpreadsOverClustersOnlyWithCls) {
    // the parent runs on CPU 0; the child is forked. With CLS the MC level's groups are clusters
    // and the idlest cluster wins; without, MC's groups are single CPUs and CPU 1 wins.
    for (const auto& [cls, inOtherCluster] : {std::pair<bool, bool>{true, true}, {false, false}}) {
        Fixture f(kunpeng920_24(), "linux-6.1", cls, 2);
        f.place(0, 0);
        Task& child = f.s->tasks[1];
        child.cpu = 0;
        child.setAllowed(CpuSet::range(0, 23), f.s->onlineCount);
        const int cpu = selectTaskRqFair(*f.s, child, 0, 0, WF_FORK, nullptr);
        EXPECT_EQ(cpu >= 4, inOtherCluster) << "cls=" << cls << " cpu=" << cpu;
        EXPECT_LT(cpu, 24);
    }
}

TEST(SelectTaskRq, AffinityIsRespected) {
    Fixture f(kunpeng920_24(), "linux-6.12", true, 3);
    f.place(0, 0);
    Task& p = f.s->tasks[1];
    p.cpu = 0;
    p.setAllowed(CpuSet::single(17), f.s->onlineCount);
    EXPECT_EQ(selectTaskRqFair(*f.s, p, 0, 0, WF_FORK, nullptr), 17);
    EXPECT_EQ(selectTaskRqFair(*f.s, p, 0, 0, WF_TTWU, &f.s->tasks[0]), 17);
}

// select_task_rq() (core.c) calls the fair class's placement only for a task allowed more than
// one CPU: a wakee pinned to one is no wakee flip of its waker's (record_wakee() never runs),
// where an unpinned one is.
TEST(SelectTaskRq, APinnedWakeeIsNoFlipOfItsWaker) {
    Fixture f(kunpeng920_24(), "linux-6.12", true, 3);
    f.place(0, 0);
    Task& waker = f.s->tasks[0];
    for (const bool pinned : {true, false}) {
        Task& p = f.s->tasks[pinned ? 1 : 2];
        p.cpu = 5;
        if (pinned) p.setAllowed(CpuSet::single(5), f.s->onlineCount);
        const unsigned flips = waker.wakeeFlips;
        const int cpu = selectTaskRqFair(*f.s, p, 5, 0, WF_TTWU, &waker);
        if (pinned) {
            EXPECT_EQ(cpu, 5);
            EXPECT_EQ(waker.wakeeFlips, flips) << "no record_wakee() for a task allowed one CPU";
            EXPECT_EQ(waker.lastWakee, -1);
        } else {
            EXPECT_EQ(waker.lastWakee, p.id) << "record_wakee() for one allowed more";
            EXPECT_EQ(waker.wakeeFlips, flips + 1);
        }
    }
}

TEST(LoadBalance, BusiestGroupIsTheOverloadedCluster) {
    // cluster 0 (CPUs 0-3) has 2 tasks per CPU (overloaded), cluster 1 one per CPU (fully busy),
    // CPU 8 is idle and balances at MC, whose groups are the clusters.
    Fixture f(kunpeng920_24(), "linux-6.1", true, 12);
    int id = 0;
    for (int c = 0; c < 4; ++c) { f.place(id++, c); f.place(id++, c); }
    for (int c = 4; c < 8; ++c) f.place(id++, c);
    const auto& doms = f.tree.domainsOf(8);
    int mc = -1;
    for (size_t i = 0; i < doms.size(); ++i)
        if (doms[i].level == "MC") mc = static_cast<int>(i);
    ASSERT_GE(mc, 0);
    LbEnv env;
    env.sd = mc;
    env.dstCpu = 8;
    env.idle = BalanceIdle::Idle;
    env.cpus = doms[static_cast<size_t>(mc)].span;
    SdLbStats sds;
    const int g = findBusiestGroup(*f.s, env, sds);
    ASSERT_GE(g, 0);
    EXPECT_EQ(doms[static_cast<size_t>(mc)].groups[static_cast<size_t>(g)].span.toList(), "0-3");
    EXPECT_EQ(sds.busiestStat.type, GroupType::Overloaded);
    EXPECT_EQ(sds.localStat.type, GroupType::HasSpare);
    EXPECT_EQ(env.type, MigrationType::Task);  // prefer_sibling from CLS: spread the tasks
    EXPECT_EQ(env.imbalance, 4);               // (8 - 0) >> 1
    EXPECT_EQ(findBusiestQueue(*f.s, env, g), 0);
}

TEST(LoadBalance, OneTaskPerCpuInAClusterNeedsActiveBalanceAfterFailures) {
    // the seed's stream case: 4 tasks on the 4 CPUs of cluster 0, CPU 8 idle. Nothing queued to
    // detach, so load_balance fails; after cache_nice_tries + 2 failures it asks for an active
    // balance (imbalanced_active_balance()).
    Fixture f(kunpeng920_24(), "linux-6.1", true, 4);
    for (int c = 0; c < 4; ++c) f.place(c, c);
    int mc = -1;
    const auto& doms = f.tree.domainsOf(8);
    for (size_t i = 0; i < doms.size(); ++i)
        if (doms[i].level == "MC") mc = static_cast<int>(i);
    NullOps ops;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(loadBalance(*f.s, ops, 8, mc, BalanceIdle::Idle, MigrationCause::LbPeriodic), 0);
    EXPECT_EQ(ops.active, 1);
    EXPECT_TRUE(ops.moved.empty());
}

// NI_RANDOM (6.19, and the 6.1.160/6.6.120/6.12.65/6.18.5 stable releases): CPU 8 goes newly
// idle while CPU 0 runs two tasks pinned to it, so no newidle pass can ever pull. Every visit of a
// domain counts as a failure, whether the die let the pass run or not: from sd_init()'s 512 calls
// with 256 successes, update_newidle_stats() sets the ratio at call 1024 and halves both counts,
// so 4096 visits give the ratios 256, 128, ..., 2 (eight halvings). Passes then run about
// (1 + ratio + 1) / 1024 of the time; without NI_RANDOM (6.18) every visit runs one.
// `times` newidle visits of CPU 8 while CPU 0 runs two tasks pinned to it (nothing to pull),
// `stepNs` apart from 1 s on
std::unique_ptr<Fixture> hopelessNewidleVisits(const std::string& profile, int times, int64_t stepNs = 0) {
    auto f = std::make_unique<Fixture>(kunpeng920_24(), profile, true, 0);
    f->wl = dummyTasks(2, CpuSet::single(0));
    auto st = makeSimState(f->topo, f->tree, f->wl, SimOptions{});
    EXPECT_TRUE(st.ok());
    f->s = std::move(*st);
    f->s->now = 1000000000;
    f->place(0, 0);
    f->place(1, 0);
    f->s->rdOverloadedCpus[0] = 1;  // CPU 0 has two tasks: the root domain is overloaded
    f->s->rdOverloadFlag[0] = 1;
    NullOps ops;
    for (int i = 0; i < times; ++i) {
        EXPECT_FALSE(newidleBalance(*f->s, ops, 8));
        f->s->now += stepNs;
    }
    EXPECT_TRUE(ops.moved.empty());
    return f;
}

TEST(NewidleBalance, NiRandomTriesAFailingDomainInProportionToItsSuccess) {
    auto visit = [](const std::string& profile, int times) { return hopelessNewidleVisits(profile, times); };
    auto on = visit("linux-6.19", 4096);
    const size_t domains = on->tree.domainsOf(8).size();
    ASSERT_EQ(domains, 5u) << "CLS, MC and the three NUMA levels";
    for (const DomainState& d : on->s->cpus[8].dom) {
        EXPECT_EQ(d.newidleRatio, 2u);
        EXPECT_EQ(d.newidleCall, 512u);
        EXPECT_EQ(d.newidleSuccess, 1u);
    }
    const long long visits = 4096LL * static_cast<long long>(domains);
    EXPECT_EQ(on->s->metrics.newidleBalances + on->s->metrics.newidleSkipped, visits);
    // the first 512 visits of a domain still run half the passes; afterwards ever fewer
    EXPECT_GT(on->s->metrics.newidleBalances, 256LL * static_cast<long long>(domains));
    EXPECT_LT(on->s->metrics.newidleBalances, visits / 4);

    auto off = visit("linux-6.18", 4096);
    EXPECT_EQ(off->s->metrics.newidleBalances, visits);
    EXPECT_EQ(off->s->metrics.newidleSkipped, 0);
}

// NI_RATE (7.1): the ratio update also adds the time since the last one, 1 per 2^22 ns. The same
// hopeless newidle visits as above, 10 ms apart: 512 visits between updates take 5.12 s, the
// time term alone is 1220, the ratio is capped at 1024 and no die is thrown any more: every visit
// runs a pass, however few succeed. Under 6.19 the same pace still halves the ratio down to 2.
TEST(NewidleBalance, NiRateKeepsBalancingADomainVisitedRarely) {
    const auto visit = hopelessNewidleVisits;
    auto rare = visit("linux-7.1", 4096, 10000000);
    const long long domains = static_cast<long long>(rare->tree.domainsOf(8).size());
    for (const DomainState& d : rare->s->cpus[8].dom) EXPECT_EQ(d.newidleRatio, 1024u);
    // dice only in the first 512 visits of each domain, at sd_init()'s ratio of 512
    EXPECT_LE(rare->s->metrics.newidleSkipped, 512 * domains);
    EXPECT_GT(rare->s->metrics.newidleSkipped, 0);
    EXPECT_EQ(rare->s->metrics.newidleBalances + rare->s->metrics.newidleSkipped, 4096 * domains);

    auto before = visit("linux-6.19", 4096, 10000000);
    for (const DomainState& d : before->s->cpus[8].dom) EXPECT_EQ(d.newidleRatio, 2u);
    EXPECT_LT(before->s->metrics.newidleBalances, 4096 * domains / 4);

    // at one instant the time term is that of the start only: 1 s / 2^22 = 238 on the first
    // update, then nothing, and the ratio falls as 6.19's does
    auto burst = visit("linux-7.1", 4096, 0);
    for (const DomainState& d : burst->s->cpus[8].dom) EXPECT_EQ(d.newidleRatio, 2u);
    EXPECT_EQ(findProfile("linux-7.0")->newidleRate, false);
}

// CPU 0 runs one task and queues another; CPU 8, newly idle, expects 0.4 ms of idle.
std::unique_ptr<Fixture> queuedOnCpu0IdleCpu8(const std::string& profile) {
    auto f = std::make_unique<Fixture>(kunpeng920_24(), profile, true, 2);
    f->place(0, 0);
    f->place(1, 0);
    f->s->rdOverloadedCpus[0] = 1;  // CPU 0 has two tasks: the root domain is overloaded
    f->s->rdOverloadFlag[0] = 1;
    f->s->cpus[8].avgIdleNs = 400000;
    return f;
}

// The newidle gate. CPU 0 runs one task and queues another; CPU 8 goes newly idle expecting
// 0.4 ms of idle. Before 5.16 that is below sysctl_sched_migration_cost (0.5 ms) and it does not
// balance at all; since, it only has to exceed what a pass of its lowest domain cost (modelled:
// 0.25 us per CPU, 1 us for the 4-CPU cluster), so it pulls the queued task at MC.
TEST(NewidleBalance, SinceLinux516AnExpectedIdleLongerThanAPassIsEnough) {
    for (const std::string profile : {"linux-5.15", "linux-6.12"}) {
        auto f = queuedOnCpu0IdleCpu8(profile);
        NullOps ops;
        const bool pulled = newidleBalance(*f->s, ops, 8);
        EXPECT_EQ(pulled, profile == "linux-6.12") << profile;
        EXPECT_EQ(ops.moved.size(), profile == "linux-6.12" ? 1u : 0u) << profile;
    }
}

// 6.17's bump (reverted in 6.19 and 6.18.5): once a pass at MC has pulled (and so recorded its
// 6 us cost), every failed pass there charges 1.5x the domain's max cost, up to
// sysctl_sched_migration_cost + 200 ns; with 0.4 ms of expected idle MC is then skipped, as it
// was before 5.16. 6.12 keeps the pass's own cost and keeps balancing MC.
TEST(NewidleBalance, FailedPassesBumpTheCostIn617) {
    for (const std::string profile : {"linux-6.12", "linux-6.18"}) {
        auto fixture = queuedOnCpu0IdleCpu8(profile);
        Fixture& f = *fixture;
        NullOps ops;
        ASSERT_TRUE(newidleBalance(*f.s, ops, 8)) << profile;
        const size_t mc = 1;  // CLS, MC, NUMA...
        EXPECT_DOUBLE_EQ(f.s->cpus[8].dom[mc].maxNewidleLbCostNs, 6000.0) << profile;
        for (Task& t : f.s->tasks) t.setAllowed(CpuSet::single(0), f.s->online.count());  // nothing can move now
        for (int i = 0; i < 20; ++i) EXPECT_FALSE(newidleBalance(*f.s, ops, 8)) << profile << " " << i;
        const long long before = f.s->metrics.newidleBalances;
        EXPECT_FALSE(newidleBalance(*f.s, ops, 8));
        const long long passes = f.s->metrics.newidleBalances - before;
        if (profile == "linux-6.18") {
            EXPECT_DOUBLE_EQ(f.s->cpus[8].dom[mc].maxNewidleLbCostNs, 500200.0);
            EXPECT_EQ(passes, 1) << "CLS only: MC's cost is now above the expected idle";
        } else {
            EXPECT_DOUBLE_EQ(f.s->cpus[8].dom[mc].maxNewidleLbCostNs, 6000.0);
            EXPECT_EQ(passes, 5) << "every domain";
        }
    }
}

TEST(CanMigrateTask, RefusesCacheHotTaskUntilBalancingFailedEnough) {
    Fixture f(kunpeng920_24(), "linux-6.1", true, 2);
    f.place(0, 0);
    f.place(1, 0);  // queued
    LbEnv env;
    env.sd = 1;  // MC of CPU 8 with CLS: CLS, MC, ...
    env.dstCpu = 8;
    env.idle = BalanceIdle::Idle;
    Task& p = f.s->tasks[1];
    p.lastRan = f.s->now - 100000;  // ran 0.1 ms ago: hot (migration_cost 0.5 ms)
    EXPECT_FALSE(canMigrateTask(*f.s, env, p));
    p.lastRan = f.s->now - 1000000;
    EXPECT_TRUE(canMigrateTask(*f.s, env, p));
    p.lastRan = f.s->now - 100000;
    f.s->cpus[8].dom[1].nrBalanceFailed = f.tree.domainsOf(8)[1].cacheNiceTries + 1;
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "nr_balance_failed > cache_nice_tries overrides hotness";
    EXPECT_FALSE(canMigrateTask(*f.s, env, f.s->tasks[0])) << "a running task is never detached";
}

// migrate_degrades_locality() with NUMA balancing: the balancer leaves a task with memory
// traffic on the node of its memory (as if cache hot) while its CPU runs a task that prefers
// another node, helps it to its memory, and has no opinion below a NUMA level.
TEST(CanMigrateTask, NumaBalancingKeepsATaskOnItsMemorysNode) {
    Fixture f(kunpeng920_24(), "linux-6.1", true, 2);
    f.wl.tasks[1].memFraction = 0.5;  // task 1 has NUMA faults; task 0, CPU bound, none
    f.place(0, 0);
    f.place(1, 0);  // queued
    Task& p = f.s->tasks[1];
    p.homeNode = f.s->info[0].node;
    p.lastRan = f.s->now - 1000000;  // not cache hot
    const auto& domains = f.tree.domainsOf(24);
    ASSERT_EQ(domains[2].level, "NUMA");  // CLS, MC, NUMA over both nodes of the socket
    LbEnv env;
    env.sd = 2;
    env.dstCpu = 24;  // node 1
    env.idle = BalanceIdle::Idle;
    p.sumExec = 0.5e9;  // half a scan delay of CPU time: NUMA balancing has not scanned it yet
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "no NUMA faults yet: no opinion, task_hot() says not hot";
    for (auto& t : f.s->tasks) t.sumExec = 1e9;  // scanned: task 1 prefers node 0
    EXPECT_FALSE(canMigrateTask(*f.s, env, p)) << "away from its memory, with a task there that prefers no node";
    f.s->cpus[24].dom[2].nrBalanceFailed = domains[2].cacheNiceTries + 1;
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "nr_balance_failed > cache_nice_tries overrides it";
    f.s->cpus[24].dom[2].nrBalanceFailed = 0;
    env.sd = 1;  // MC of CPU 24 does not span CPU 0, but the rule only looks at SD_NUMA levels
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "no opinion below NUMA: task_hot() says not hot";
    env.sd = 2;
    f.s->opt.numaMemoryFollowsS = 0;
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "numa_balancing=0";
    f.s->opt.numaMemoryFollowsS = 1;
    p.homeNode = f.s->info[24].node;
    p.lastRan = f.s->now - 100000;  // cache hot by task_hot()
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "towards its memory: encouraged, hot or not";
    p.homeNode = f.s->info[0].node;
    p.lastRan = f.s->now - 1000000;
    f.wl.tasks[0].memFraction = 0.5;  // both prefer node 0: nr_running == nr_preferred_running
    f.s->tasks[0].homeNode = f.s->info[0].node;
    EXPECT_TRUE(canMigrateTask(*f.s, env, p)) << "every task there prefers node 0: task_hot() decides";
    // between two nodes neither of which holds its memory the fault weights are equal: task_hot()
    // decides, for a busy CPU as for an idle one
    p.homeNode = f.s->info[48].node;  // a node of the other socket
    p.lastRan = f.s->now - 100000;    // cache hot
    for (const BalanceIdle idle : {BalanceIdle::Idle, BalanceIdle::NotIdle}) {
        env.idle = idle;
        EXPECT_FALSE(canMigrateTask(*f.s, env, p)) << "hot, between two other nodes, idle=" << static_cast<int>(idle);
    }
}

// wake_affine_weight() (6.18): the waker's CPU wins when its load with the wakee, times 100 and
// prev's capacity, is below prev's load without it, times 100 + (imbalance_pct - 100) / 2 in
// integers (108 at MC's 117) and this CPU's capacity; a sync wakeup (the waker's own load left
// out) also wins a tie. CPU 0 runs the waker with another task queued (no wake_affine_idle()
// shortcut), CPU 1, the wakee's previous CPU, runs a task.
TEST(WakeAffine, WeighsLoadsByTheOtherCpusCapacityWithTheKernelsIntegerBias) {
    struct Case {
        double thisLoad, prevLoad, prevCapacity;
        bool sync;
        int expected;
        const char* why;
    };
    const Case cases[] = {
        {1080, 1000, 1024, false, 1, "a tie (108000 each) keeps the wakee on prev"},
        {1079, 1000, 1024, false, 0, "just below it goes to the waker's CPU"},
        {1180, 1000, 1024, true, 0, "sync: the waker's 100 left out, the tie goes to the waker's CPU"},
        {1080, 1000, 512, false, 0, "prev of half the capacity: the waker's CPU, twice as strong, wins"},
    };
    for (const Case& c : cases) {
        Fixture f(kunpeng920_24(), "linux-6.18", true, 4);
        f.place(0, 0);  // the waker
        f.place(2, 0);  // queued behind it
        f.place(3, 1);  // running on the wakee's previous CPU
        const int64_t now = f.s->now;
        Task& wakee = f.s->tasks[1];
        wakee.cpu = 1;
        wakee.state = TaskState::Sleeping;
        wakee.load = {0, 0, now};
        f.s->tasks[0].load = {100, 100, now};
        f.s->cpus[0].load = {c.thisLoad, c.thisLoad, now};
        f.s->cpus[1].load = {c.prevLoad, c.prevLoad, now};
        f.s->capacity[1] = c.prevCapacity;
        const int mc = domainIndex(f.tree, 0, "MC");
        EXPECT_EQ(wakeAffine(*f.s, mc, wakee, 0, 1, c.sync, &f.s->tasks[0]), c.expected) << c.why;
    }
}

// detach_tasks() for migrate_util: a task of more utilization than the imbalance stays, until
// the domain's balances have failed; from 6.8 ("sched/fair: Use all little CPUs for CPU-bound
// workloads") its utilization counts shifted right by nr_balance_failed, as migrate_load's
// load does, so one failure lets a task of up to twice the imbalance move.
TEST(DetachTasks, MigrateUtilRelaxesItsBoundAsBalancesFail) {
    for (const std::string profile : {"linux-6.6", "linux-6.18"}) {
        for (const unsigned failed : {0u, 1u}) {
            Fixture f(kunpeng920_24(), profile, true, 2);
            f.place(0, 0);
            f.place(1, 0);  // queued, util 512
            f.s->tasks[1].lastRan = 0;  // long ago: not cache hot
            LbEnv env = pullFromCpu0(f.tree, 8, BalanceIdle::Idle, MigrationType::Util, 300);
            f.s->cpus[8].dom[static_cast<size_t>(env.sd)].nrBalanceFailed = failed;
            NullOps ops;
            const int moved = detachTasks(*f.s, ops, env, MigrationCause::LbPeriodic);
            const bool expected = failed > 0 && profile == "linux-6.18";
            EXPECT_EQ(moved, expected ? 1 : 0) << profile << " after " << failed << " failed balance(s)";
        }
    }
}

// detach_tasks() walks rq->cfs_tasks from its tail, and the kernel keeps that list in MRU order
// (a task goes to its head when enqueued, when picked and when a balance passes it over): a task
// woken last is tried last, however long ago it ran. One that cannot move goes to the head.
TEST(DetachTasks, TriesTheLeastRecentlyQueuedOrPickedFirst) {
    for (const bool pinSecond : {false, true}) {
        Fixture f(kunpeng920_24(), "linux-6.18", true, 4);
        f.place(0, 0);  // running
        for (int id : {1, 2, 3}) f.place(id, 0);
        // task 1 ran longest ago but was woken last; 2 was queued before 3
        const int64_t ranAt[] = {0, 100, 200, 300};
        const uint64_t stamp[] = {4, 3, 1, 2};
        for (int id = 0; id < 4; ++id) {
            f.s->tasks[static_cast<size_t>(id)].lastRan = ranAt[id];
            f.s->tasks[static_cast<size_t>(id)].cfsTasksStamp = stamp[id];
        }
        f.s->cfsTasksClock = 4;
        if (pinSecond) f.s->tasks[2].setAllowed(CpuSet::single(0), f.s->onlineCount);
        LbEnv env = pullFromCpu0(f.tree, 8, BalanceIdle::NotIdle, MigrationType::Task, 1);
        NullOps ops;
        ASSERT_EQ(detachTasks(*f.s, ops, env, MigrationCause::LbPeriodic), 1);
        ASSERT_EQ(ops.moved.size(), 1u);
        EXPECT_EQ(ops.moved[0].first, pinSecond ? 3 : 2) << "the tail of cfs_tasks, not the task that ran longest ago";
        if (pinSecond) {
            EXPECT_EQ(f.s->tasks[2].cfsTasksStamp, 5u) << "passed over: moved to the head";
        }
    }
}

// load_balance()'s LBF_DST_PINNED: the busiest CPU's queued tasks may not run on the balancing
// CPU but may on another CPU of its group; the balance takes them there (new_dst_cpu, goto
// more_balance) instead of giving up. CPU 8 balances its MC domain; CPU 0 runs one task and
// queues two allowed {0, 9}: they go to CPU 9, the first of CPU 8's cluster they may use.
TEST(LoadBalance, TasksPinnedAwayFromTheBalancingCpuGoToAnotherOfItsGroup) {
    Fixture f(kunpeng920_24(), "linux-6.18", true, 3);
    f.place(0, 0);
    for (int id : {1, 2}) {
        CpuSet allowed = CpuSet::single(0);
        allowed.set(9);
        f.s->tasks[static_cast<size_t>(id)].setAllowed(allowed, f.s->onlineCount);
        f.place(id, 0);
        f.s->tasks[static_cast<size_t>(id)].lastRan = 0;  // not cache hot
    }
    const int mc = domainIndex(f.tree, 8, "MC");
    ASSERT_GE(mc, 0);
    NullOps ops;
    loadBalance(*f.s, ops, 8, mc, BalanceIdle::Idle, MigrationCause::LbPeriodic);
    ASSERT_FALSE(ops.moved.empty()) << "the pinned tasks were left where they are";
    for (const auto& [task, dst] : ops.moved) {
        EXPECT_TRUE(task == 1 || task == 2) << task;
        EXPECT_EQ(dst, 9) << "task " << task;
    }
}

// wake_up_new_task(): a forked task's recent_used_cpu is the CPU it was forked on, whatever CPU
// fork balancing then gives it (its first wakeup's select_idle_sibling() may try that CPU)
TEST(SelectTaskRq, AForkedTaskRecentlyUsedItsParentsCpu) {
    Shape shape;
    shape.coresPerCluster = 4;
    const Topology topo = makeTopology("4 cores", shape);
    const DomainTree tree = buildTree(topo, "linux-6.18", true, true);
    workload::Workload wl;
    workload::TaskSpec parent;
    parent.name = "parent";
    parent.affinity = CpuSet::single(2);
    workload::Op fork = op(workload::OpKind::Fork);
    fork.targets = {1};
    parent.script = {op(workload::OpKind::Run, 1e6), fork, op(workload::OpKind::Run, 10e6)};
    workload::TaskSpec child;
    child.name = "child";
    child.startAtBegin = false;
    child.script = {op(workload::OpKind::Run, 5e6)};  // runs and exits: never woken
    wl.tasks = {parent, child};
    SimOptions opt;
    opt.durationS = 0.02;
    auto st = simulate(topo, tree, wl, opt);
    ASSERT_TRUE(st.ok()) << st.error();
    const Task& forked = (*st)->tasks[1];
    ASSERT_NE(forked.state, TaskState::NotStarted);
    EXPECT_NE(forked.cpuTime.of(2), forked.cpuTime.total()) << "fork balancing placed it away from its busy parent";
    EXPECT_EQ(forked.recentUsedCpu, 2);
}

// get_sd_balance_interval(): msecs_to_jiffies() rounds up (HZ 250: 5 ms is 2 jiffies, not 1),
// and a busy CPU's interval is busy_factor times as long: 16, one jiffy short since 5.10 (80 ms
// is 20 jiffies, 19 of them); 32 and whole before (4.14: 160 ms, 40 jiffies).
TEST(BalanceInterval, MillisecondsRoundUpToJiffies) {
    struct Case {
        const char* profile;
        unsigned busyFactor;
        int64_t busyOf5Ms;
        unsigned numaImbalancePct;  // sd_init()'s default, which a NUMA domain takes: 117 since 5.10
    };
    for (const Case& c : {Case{"linux-6.18", 16, 76000000, 117}, Case{"linux-4.14", 32, 160000000, 125}}) {
        Fixture f(kunpeng920_24(), c.profile, true, 1);
        DomainState ds = f.s->cpus[0].dom[1];
        EXPECT_EQ(ds.busyFactor, c.busyFactor) << c.profile;
        setBalanceInterval(*f.s, ds, 5);
        EXPECT_EQ(ds.idleIntervalNs, 8000000) << c.profile;
        EXPECT_EQ(ds.busyIntervalNs, c.busyOf5Ms) << c.profile;
        EXPECT_EQ(f.tree.domainsOf(0).back().imbalancePct, c.numaImbalancePct) << c.profile;
        EXPECT_EQ(f.tree.domainsOf(0).back().busyFactor, c.busyFactor) << c.profile;
        if (c.busyFactor != 16) continue;
        setBalanceInterval(*f.s, ds, 4);
        EXPECT_EQ(ds.idleIntervalNs, 4000000);
        setBalanceInterval(*f.s, ds, 1);
        EXPECT_EQ(ds.idleIntervalNs, 4000000) << "at least a jiffy";
        EXPECT_EQ(ds.busyIntervalNs, 12000000) << "16 ms is 4 jiffies, less one";
    }
}

// A CPU that is not its group's balancer (should_we_balance()) leaves sched_balance_rq() through
// out_balanced: its failures start again and its interval at that level doubles, up to the
// domain's max_interval, as a balance that found nothing to move does. All idle, CPU 1 balances
// at CLS (a group of its own) but CPU 0 is the first idle CPU of its cluster, MC's local group.
TEST(BalanceInterval, ANonBalancerBacksOff) {
    Fixture f(kunpeng920_24(), "linux-6.18", true, 1);
    const int mc = domainIndex(f.tree, 1, "MC");
    ASSERT_EQ(mc, 1);
    DomainState& ds = f.s->cpus[1].dom[static_cast<size_t>(mc)];
    const double before = ds.balanceIntervalMs;
    ds.nrBalanceFailed = 3;
    ds.lastBalance = 0;
    f.s->cpus[1].dom[0].lastBalance = 0;
    NullOps ops;
    rebalanceDomains(*f.s, ops, 1, BalanceIdle::Idle, MigrationCause::LbPeriodic);
    EXPECT_EQ(ds.nrBalanceFailed, 0u);
    EXPECT_DOUBLE_EQ(ds.balanceIntervalMs, std::min(2 * before, static_cast<double>(f.tree.domainsOf(1)[1].maxInterval)));
    EXPECT_GT(ds.balanceIntervalMs, before);
    EXPECT_EQ(ds.lastBalance, f.s->now - f.s->now % f.s->jiffyNs());
}

// task_hot() (5.10+, "sched/fair: ignore cache hotness for SMT migration"): SMT siblings share
// every cache, so a task that just ran may move to one at once; above the core it is hot.
TEST(CanMigrateTask, NoTaskIsCacheHotToAnSmtSibling) {
    Shape shape;
    shape.arch = Arch::X86_64;
    shape.coresPerCluster = 2;
    shape.threads = 2;  // CPUs 0-1 one core, 2-3 the other
    for (const std::string profile : {"linux-4.14", "linux-5.15", "linux-6.18"}) {
        Fixture f(makeTopology("2 cores x 2 threads", shape), profile, true, 2);
        f.place(0, 0);
        f.place(1, 0);  // queued
        Task& p = f.s->tasks[1];
        p.lastRan = f.s->now - 100000;  // ran 0.1 ms ago: hot by the migration cost
        LbEnv env;
        env.idle = BalanceIdle::Idle;
        env.dstCpu = 1;
        env.sd = domainIndex(f.tree, 1, "SMT");
        ASSERT_EQ(env.sd, 0) << profile;
        EXPECT_EQ(canMigrateTask(*f.s, env, p), profile != "linux-4.14") << profile << ": to the sibling";
        env.dstCpu = 2;
        env.sd = domainIndex(f.tree, 2, "MC");
        ASSERT_GT(env.sd, 0) << profile;
        EXPECT_FALSE(canMigrateTask(*f.s, env, p)) << profile << ": to the other core";
    }
}

TEST(CanMigrateTask, AffinityPinsTheTask) {
    Fixture f(kunpeng920_24(), "linux-6.1", true, 2);
    f.place(0, 0);
    f.place(1, 0);
    Task& p = f.s->tasks[1];
    p.setAllowed(CpuSet::range(0, 3), f.s->onlineCount);
    LbEnv env;
    env.sd = 1;
    env.dstCpu = 8;
    env.allPinned = true;
    EXPECT_FALSE(canMigrateTask(*f.s, env, p));
    EXPECT_TRUE(env.somePinned);
    EXPECT_TRUE(env.allPinned);
}

// 6.14's task_is_ineligible_on_dst_cpu(): a task with negative lag (vruntime past its queue's
// average) stays where it is while the domain has not failed to balance, if the destination has
// tasks; an eligible one goes. 6.12 moves either.
TEST(CanMigrateTask, EligibleTasksMoveFirstSince614) {
    for (const std::string profile : {"linux-6.18", "linux-6.12"}) {
        Fixture f(kunpeng920_24(), profile, true, 5);
        f.s->tasks[1].vruntime = 1e9;  // far past the others: not eligible on CPU 0
        f.place(0, 0);
        f.place(1, 0);
        f.place(2, 0);
        f.place(3, 8);  // the destination runs a task
        for (auto& t : f.s->tasks) t.lastRan = 0;  // nothing cache hot
        LbEnv env;
        env.sd = 1;  // MC of CPU 8
        env.dstCpu = 8;
        env.idle = BalanceIdle::Idle;
        const bool since614 = profile == "linux-6.18";
        ASSERT_FALSE(entityEligible(*f.s, f.s->cpus[0], f.s->tasks[1]));
        ASSERT_TRUE(entityEligible(*f.s, f.s->cpus[0], f.s->tasks[2]));
        EXPECT_EQ(canMigrateTask(*f.s, env, f.s->tasks[1]), !since614) << profile;
        EXPECT_TRUE(canMigrateTask(*f.s, env, f.s->tasks[2])) << profile;
        f.s->cpus[8].dom[1].nrBalanceFailed = 1;
        EXPECT_TRUE(canMigrateTask(*f.s, env, f.s->tasks[1])) << profile << ": once the domain failed to balance";
        f.s->cpus[8].dom[1].nrBalanceFailed = 0;
        env.dstCpu = 12;  // an idle destination: joining an empty queue, any lag is fine
        EXPECT_TRUE(canMigrateTask(*f.s, env, f.s->tasks[1])) << profile;
    }
}

TEST(GroupClassify, KernelOrder) {
    SgStats s;
    s.groupWeight = 4;
    s.groupCapacity = 4096;
    s.sumNrRunning = 2;
    EXPECT_EQ(groupClassify(117, s, false), GroupType::HasSpare);
    s.sumNrRunning = 4;
    s.groupUtil = 4096;
    EXPECT_EQ(groupClassify(117, s, false), GroupType::FullyBusy);
    s.sumNrRunning = 6;
    s.groupRunnable = 6144;
    EXPECT_EQ(groupClassify(117, s, false), GroupType::Overloaded);
    s.sumNrRunning = 4;
    EXPECT_EQ(groupClassify(117, s, true), GroupType::Imbalanced);
}

}  // namespace
}  // namespace schedscope::test
