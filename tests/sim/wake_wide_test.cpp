// wake_wide() in whole runs: it needs both sides of a wakeup to switch partners. pgbench's
// backends only ever wake the driver, so their wakee flips stay near zero and wake_affine()
// decides every wakeup however many clients there are; in resources/workloads/dispatchers.json
// two dispatchers each wake 64 workers and every worker wakes the two dispatchers in turn, so
// the workers flip too, the dispatchers flip more than llc_size times as often, and the
// wakeups go wide (lesson 05).
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "sim_topologies.h"
#include "workload/workload_json.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

struct WakeupRules {
    long long wakeups = 0, wide = 0;
};

WakeupRules wakeupRules(const workload::Workload& wl, double durationS, sim::WakeWide factor = sim::WakeWide::Llc) {
    static const Topology topo = kunpeng920_24();
    static const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = durationS;
    o.features = sim::featuresFor(*findProfile("linux-6.12"));
    o.features->wakeWide = factor;
    auto sim = sim::Simulation::create(topo, tree, wl, o);
    EXPECT_TRUE(sim.ok()) << (sim.ok() ? "" : sim.error());
    WakeupRules out;
    if (!sim.ok()) return out;
    while (auto d = (*sim)->nextDecision()) {
        if (d->kind != sim::DecisionKind::WakeupPlacement) continue;
        ++out.wakeups;
        out.wide += d->rule.find("wake_wide") != std::string::npos;
    }
    return out;
}

TEST(WakeWide, PgbenchBackendsNeverFlipSoNoWakeupGoesWide) {
    auto wl = workload::parseWorkloadSpec("pgbench:clients=48", 96);
    ASSERT_TRUE(wl.ok()) << wl.error();
    const WakeupRules r = wakeupRules(*wl, 0.3);
    EXPECT_GT(r.wakeups, 10000);
    EXPECT_EQ(r.wide, 0);
}

TEST(WakeWide, DispatchersAndWorkersThatBothFlipGoWide) {
    auto wl = workload::loadWorkloadFile(std::string(SCHEDSCOPE_SOURCE_DIR) + "/resources/workloads/dispatchers.json", 96);
    ASSERT_TRUE(wl.ok()) << wl.error();
    const WakeupRules r = wakeupRules(*wl, 0.3);
    EXPECT_GT(r.wakeups, 10000);
    EXPECT_GT(r.wide, r.wakeups / 2);
}

// Seed 001's pgbench -c 48 on one 24-CPU Kunpeng 920 node: with TPC-B's branch row lock
// (scale=1: every client on one row) a committing backend wakes the next one queued on the lock,
// so backends flip too. Past the LLC's size in clients the driver flips 24 times as often as a
// backend and wakeups go wide; at 8 clients they never do, unless the factor is the cluster's 4
// (the factor the seed tried); with wake_wide() off none is.
TEST(WakeWide, PgbenchRowLocksMakeBackendsFlipAndPastTheLlcWakeupsGoWide) {
    auto pgbench = [](int clients) {
        auto wl = workload::parseWorkloadSpec("pgbench:clients=" + std::to_string(clients) + ",scale=1,cpus=0-23", 96);
        EXPECT_TRUE(wl.ok()) << (wl.ok() ? "" : wl.error());
        return wl.ok() ? *wl : workload::Workload{};
    };
    const auto few = pgbench(8), many = pgbench(48);
    const WakeupRules fewLlc = wakeupRules(few, 0.5), manyLlc = wakeupRules(many, 0.5);
    EXPECT_GT(fewLlc.wakeups, 10000);
    EXPECT_EQ(fewLlc.wide, 0) << "8 clients: the driver's flips stay below 24 times a backend's";
    EXPECT_GT(manyLlc.wide, manyLlc.wakeups / 50) << manyLlc.wide << " of " << manyLlc.wakeups;
    EXPECT_GT(wakeupRules(few, 0.5, sim::WakeWide::Cluster).wide, fewLlc.wakeups / 10) << "factor 4";
    EXPECT_EQ(wakeupRules(many, 0.5, sim::WakeWide::Off).wide, 0);
    // read-only (no scale): only the driver flips, as in the test above
    EXPECT_EQ(wakeupRules(*workload::parseWorkloadSpec("pgbench:clients=48,cpus=0-23", 96), 0.5).wide, 0);
}

}  // namespace
}  // namespace schedscope::test
