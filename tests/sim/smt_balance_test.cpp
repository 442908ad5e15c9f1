// 6.5's and 6.6's SMT-aware load balancing ("sched/fair: Keep a fully_busy SMT sched group as
// busiest", "sched/fair: Determine active load balance for SMT sched groups", "sched/fair:
// Implement prefer sibling imbalance calculation between asymmetric groups", "sched/fair:
// Consider the idle state of the whole core for load balance"): hand-built situations on a
// hybrid laptop (6 P-cores with SMT, 8 E-cores in 2 clusters) and an EPYC, each with and without
// the 6.6 rules on the same domains, and whole runs of CPU-bound threads on the laptop.
#include <gtest/gtest.h>

#include "balance_fixture.h"
#include "sim/load_balance.h"
#include "sim/placement_spread.h"
#include "sim/sim_options.h"
#include "sim_topologies.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

// The laptop's CPUs: P-cores 0-1, 2-3, ..., 10-11 (SMT pairs), E-core clusters 12-15 and 16-19.
// Under 6.6 its MC domain's groups are the six P-cores and the two E-core clusters.
struct LaptopBalance {
    Fixture f;
    LbEnv env;
    SdLbStats sds;
    LaptopBalance(const std::vector<int>& busyCpus, int dst, bool smtBalance)
        : f(preset("laptop-i7-1370p"), "linux-6.6", true, static_cast<int>(busyCpus.size())) {
        f.s->feat.smtBalance = smtBalance;
        for (size_t i = 0; i < busyCpus.size(); ++i) f.place(static_cast<int>(i), busyCpus[i]);
        env.sd = domainIndex(f.tree, dst, "MC");
        env.dstCpu = dst;
        env.idle = BalanceIdle::Idle;
        env.cpus = f.tree.domainsOf(dst)[static_cast<size_t>(env.sd)].span;
    }
    // find_busiest_group()'s group as a cpulist, "" when balanced
    std::string busiest() {
        const int g = findBusiestGroup(*f.s, env, sds);
        if (g < 0) return "";
        return f.tree.domainsOf(env.dstCpu)[static_cast<size_t>(env.sd)].groups[static_cast<size_t>(g)].span.toList();
    }
};

TEST(SmtBalance, AnIdleECorePullsFromAPCoreWhoseSiblingsShareIt) {
    // P-core 2-3 runs a task on each sibling, the other P-cores one task each, E-cores 13-15 one
    // each; E-core 12 is idle and balances at MC. Its cluster (3 tasks, 1 idle CPU) is local.
    const std::vector<int> busy{0, 2, 3, 4, 6, 8, 10, 13, 14, 15};
    {
        // 6.6: the P-core is group_smt_balance, busier than any group with spare capacity, and
        // sibling_imbalance() (4 * 2 - 1 * 3 = 5, (2 * 5 + 5) / 5 = 3 > 1) forces the balance:
        // one task, to take a sibling's share of the core back
        LaptopBalance b(busy, 12, true);
        EXPECT_EQ(b.busiest(), "2-3");
        EXPECT_EQ(b.sds.busiestStat.type, GroupType::SmtBalance);
        EXPECT_EQ(b.sds.busiestStat.cores, 1);
        EXPECT_EQ(b.sds.localStat.cores, 4);
        EXPECT_EQ(b.env.type, MigrationType::Task);
        EXPECT_EQ(b.env.imbalance, 1);
    }
    {
        // before: the same P-core is the busiest (fully busy), but 2 tasks are not more than the
        // cluster's 3 + 1, and its 1 idle CPU is not more than the core's 0 + 1: balanced
        LaptopBalance b(busy, 12, false);
        EXPECT_EQ(b.busiest(), "");
        EXPECT_EQ(b.sds.busiestStat.type, GroupType::FullyBusy);
        EXPECT_EQ(b.sds.busiestStat.sumNrRunning, 2);
    }
}

TEST(SmtBalance, AnSmtCoreRunningOneTaskIsNotPickedOverAClusterWithSpareCpus) {
    // E-core cluster 16-19 is idle; P-core 0-1 runs one task, cluster 12-15 two tasks
    const std::vector<int> busy{0, 12, 13};
    {
        // 6.6's has_spare rule between an SMT core and a group without SMT: pulling the core's
        // only task would leave it idle, so the cluster is the busiest; 2 - 0 tasks between
        // groups of 4 cores each, halved: one task
        LaptopBalance b(busy, 16, true);
        EXPECT_EQ(b.busiest(), "12-15");
        EXPECT_EQ(b.sds.busiestStat.type, GroupType::HasSpare);
        EXPECT_EQ(b.env.type, MigrationType::Task);
        EXPECT_EQ(b.env.imbalance, 1);
    }
    {
        // before: fewer idle CPUs make the busiest (the core's 1 against the cluster's 2), and
        // a busiest group running one task has nothing waiting: balanced
        LaptopBalance b(busy, 16, false);
        EXPECT_EQ(b.busiest(), "");
        EXPECT_EQ(b.sds.busiestStat.sumNrRunning, 1);
    }
}

TEST(SmtBalance, SiblingImbalanceSpreadsTasksPerCore) {
    // calculate_imbalance() for a local group with spare capacity under prefer_sibling: before
    // 6.6 half the difference in tasks; from 6.6 sibling_imbalance(), which evens the tasks per
    // core (rounded, and doubled before the halving), and nothing for a busy CPU
    struct Case {
        int busiestTasks, busiestCores, localTasks, localCores;
        BalanceIdle idle;
        double before, since66;
    };
    const Case cases[] = {
        {4, 4, 0, 1, BalanceIdle::Idle, 2, 1},  // 1 * 4 = 4; (8 + 5) / 5 = 2; >> 1
        {2, 4, 0, 1, BalanceIdle::Idle, 1, 1},  // (4 + 5) / 5 = 1, an empty local group takes 2
        {3, 1, 1, 4, BalanceIdle::Idle, 1, 2},  // 4 * 3 - 1 * 1 = 11; (22 + 5) / 5 = 5; >> 1
        {4, 2, 0, 2, BalanceIdle::Idle, 2, 2},  // as many cores: the difference in tasks
        {4, 2, 0, 2, BalanceIdle::NotIdle, 2, 0},
    };
    for (const Case& c : cases) {
        for (const bool since66 : {false, true}) {
            LaptopBalance b({}, 12, since66);
            b.env.idle = c.idle;
            b.sds.preferSibling = true;
            SgStats& busiest = b.sds.busiestStat;
            busiest.type = GroupType::FullyBusy;
            busiest.sumNrRunning = c.busiestTasks;
            busiest.cores = c.busiestCores;
            busiest.groupWeight = 2 * c.busiestCores;
            SgStats& local = b.sds.localStat;
            local.type = GroupType::HasSpare;
            local.sumNrRunning = c.localTasks;
            local.cores = c.localCores;
            local.groupWeight = 2 * c.localCores;
            calculateImbalance(*b.f.s, b.env, b.sds);
            EXPECT_EQ(b.env.type, MigrationType::Task);
            EXPECT_EQ(b.env.imbalance, since66 ? c.since66 : c.before)
                << c.busiestTasks << " tasks on " << c.busiestCores << " cores against " << c.localTasks << " on "
                << c.localCores << (since66 ? ", 6.6" : ", before 6.6");
        }
    }
}

TEST(SmtBalance, TheBalancingCpuIsTheFirstOfAnIdleCore) {
    // EPYC 7601: CPU 2's NODE domain has the CCXs as groups; its own is CPUs 0-3 and their
    // siblings 64-67. CPU 0 and CPU 65 (CPU 1's sibling) are busy, so CPU 1 is the first idle
    // CPU and CPU 2 the first of an idle core. From 6.6 should_we_balance() lets CPU 2 balance
    // for the group, before that CPU 1.
    for (const bool since66 : {false, true}) {
        Fixture f(preset("epyc7601-2s"), "linux-6.6", true, 2);
        f.s->feat.smtBalance = since66;
        f.place(0, 0);
        f.place(1, 65);
        for (const int dst : {1, 2}) {
            LbEnv env;
            env.sd = domainIndex(f.tree, dst, "NODE");
            ASSERT_GE(env.sd, 0);
            env.dstCpu = dst;
            env.idle = BalanceIdle::Idle;
            env.cpus = f.tree.domainsOf(dst)[static_cast<size_t>(env.sd)].span;
            EXPECT_EQ(shouldWeBalance(*f.s, env), dst == (since66 ? 2 : 1)) << "cpu " << dst << (since66 ? ", 6.6" : "");
            // at the SMT level the first idle CPU balances, whatever its sibling runs
            env.sd = domainIndex(f.tree, dst, "SMT");
            env.cpus = f.tree.domainsOf(dst)[static_cast<size_t>(env.sd)].span;
            EXPECT_TRUE(shouldWeBalance(*f.s, env)) << "cpu " << dst;
        }
    }
}

// the mean number of cores running a task over a run of `threads` CPU-bound threads on the
// laptop under `profile`, with 6.6's SMT balancing as `smtBalance` says
double laptopBusyCores(const std::string& profile, int threads, bool smtBalance) {
    const Topology topo = preset("laptop-i7-1370p");
    auto wl = workload::parseWorkloadSpec("sysbench-cpu:threads=" + std::to_string(threads) + ",duration=1", 20);
    EXPECT_TRUE(wl.ok());
    const DomainTree tree = buildTree(topo, profile, true, true);
    SimOptions o;
    o.durationS = 1;
    SimFeatures feat = featuresFor(*tree.profile);
    feat.smtBalance = smtBalance;
    o.features = feat;
    auto st = simulate(topo, tree, *wl, o);
    EXPECT_TRUE(st.ok());
    if (!st.ok()) return 0;
    for (const auto& [name, value] : placementSpread(**st))
        if (name == "busy_cores") return value;
    ADD_FAILURE() << "no busy_cores";
    return 0;
}

TEST(SmtBalance, FourteenThreadsOnTheLaptopGetAllFourteenCores) {
    // 14 CPU-bound threads on 6 P-cores and 8 E-cores: the 6.6 series' case. With it the E-cores
    // take the threads that doubled up on P-core siblings at once; without it (same domains,
    // 6.12) P-cores keep both siblings busy while E-cores idle, until failed balances end in
    // active pushes, one at a time: over the first second about one core fewer is busy.
    const double with = laptopBusyCores("linux-6.12", 14, true);
    const double without = laptopBusyCores("linux-6.12", 14, false);
    std::printf("laptop 14 threads, busy cores over 1 s: SMT balance %.2f, without %.2f\n", with, without);
    EXPECT_GT(with, 13.9);
    EXPECT_LT(without, 13.5);
    // as many threads as P-cores: one each, either way
    EXPECT_NEAR(laptopBusyCores("linux-6.12", 6, true), 6.0, 0.1);
}

}  // namespace
}  // namespace schedscope::test
