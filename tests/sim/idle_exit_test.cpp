// SimOptions::idleExitNs: a task woken onto an idle CPU runs that long after the wakeup, and the
// wait latency and the work done show it.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

// Two tasks pinned to CPUs 0 and 2 of a 4-core machine hand a token back and forth, each
// running 20 us with it: every wakeup lands on an idle CPU.
workload::Workload pinnedPingPong() {
    workload::Workload wl;
    wl.name = "pinned ping-pong";
    workload::TaskSpec a, b;
    a.name = "ping";
    a.affinity = CpuSet::single(0);
    a.script = {op(OpKind::Run, 20000), wakeOp(1), op(OpKind::Wait), op(OpKind::Loop)};
    b.name = "pong";
    b.affinity = CpuSet::single(2);
    b.script = {op(OpKind::Wait), op(OpKind::Run, 20000), wakeOp(0), op(OpKind::Loop)};
    wl.tasks = {a, b};
    return wl;
}

struct IdleExitOutcome {
    double waitP50Us = 0;
    double pingWorkS = 0;
};

IdleExitOutcome run(int64_t idleExitNs) {
    Shape shape;
    shape.coresPerCluster = 4;
    const Topology topo = makeTopology("4 cores", shape);
    const auto wl = pinnedPingPong();
    sim::SimOptions o;
    o.durationS = 0.2;
    o.idleExitNs = idleExitNs;
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto st = sim::simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    if (!st.ok()) return {};
    return {(*st)->metrics.waitLatency.percentileNs(50) / 1000.0, (*st)->tasks[0].workDone / 1e9};
}

TEST(IdleExit, WakeupsOntoIdleCpusWaitTheExitLatency) {
    const IdleExitOutcome atOnce = run(0), slow = run(40000);
    std::printf("wait p50: %.2f us at once, %.2f us with a 40 us exit; ping's work %.4f s / %.4f s\n", atOnce.waitP50Us,
                slow.waitP50Us, atOnce.pingWorkS, slow.pingWorkS);
    EXPECT_EQ(atOnce.waitP50Us, 0.0);
    EXPECT_NEAR(slow.waitP50Us, 40.0, 40.0 * 0.02);  // the histogram's 2% buckets
    // a round trip is 2 x (20 us + the exit): 40 us at once, 120 us with it
    EXPECT_NEAR(slow.pingWorkS / atOnce.pingWorkS, 40.0 / 120.0, 0.02);
}

TEST(IdleExit, OutOfRangeLatencyIsAnError) {
    Shape shape;
    const Topology topo = makeTopology("1 core", shape);
    sim::SimOptions o;
    o.idleExitNs = -1;
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    const workload::Workload wl = pinnedPingPong();
    auto st = sim::simulate(topo, tree, wl, o);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("idle exit latency"), std::string::npos) << st.error();
}

}  // namespace
}  // namespace schedscope::test
