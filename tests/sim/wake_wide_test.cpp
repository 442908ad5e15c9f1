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

WakeupRules wakeupRules(const workload::Workload& wl, double durationS) {
    static const Topology topo = kunpeng920_24();
    static const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = durationS;
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

}  // namespace
}  // namespace schedscope::test
