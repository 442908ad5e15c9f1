// Automatic NUMA balancing, as the simulator models it: a task's memory follows it to a node it
// has run on for a scan period (SimOptions::numaMemoryFollowsS), so a memory-bound task moved
// away from its memory runs at the remote speed for that long and then at the local one.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

// A task half memory-bound, first touching its memory on CPU 0 (node 0), then moved to node 1
// for the rest of a 3 s run.
std::unique_ptr<sim::SimState> movedAway(double followsS) {
    workload::Workload wl;
    workload::TaskSpec t;
    t.name = "mover";
    t.memFraction = 0.5;
    t.bandwidthGBs = 0;  // no bandwidth drawn: only the distance to its memory slows it
    t.affinity = CpuSet::single(0);
    workload::Op away = op(OpKind::SetAffinity);
    away.cpus = CpuSet::range(2, 3);
    t.script = {op(OpKind::Run, 1000), away, op(OpKind::Run, 10e9)};
    wl.tasks = {t};
    static const DomainTree tree = buildTree(twoNodesOfTwoCores(), "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 3;
    o.numaMemoryFollowsS = followsS;
    auto st = sim::simulate(twoNodesOfTwoCores(), tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    return st.ok() ? std::move(*st) : nullptr;
}

TEST(NumaMemory, FollowsATaskAfterAScanPeriodOnItsNewNode) {
    auto st = movedAway(1.0);
    ASSERT_TRUE(st);
    const sim::Task& t = st->tasks[0];
    EXPECT_EQ(t.homeNode, st->info[2].node);
    EXPECT_EQ(st->metrics.numaMemoryMoves, 1);
    // 1 s at the remote speed, 1 / (0.5 + 0.5 x 2), then 2 s at full speed; the move waits
    // for the first tick after the period (4 ms at HZ 250)
    EXPECT_NEAR(t.workDone, 1e9 / 1.5 + 2e9, 0.004e9 * (1 - 1 / 1.5) + 1e6);
}

TEST(NumaMemory, StaysWhereItWasFirstTouchedWithoutNumaBalancing) {
    auto st = movedAway(0);
    ASSERT_TRUE(st);
    const sim::Task& t = st->tasks[0];
    EXPECT_EQ(t.homeNode, st->info[0].node);
    EXPECT_EQ(st->metrics.numaMemoryMoves, 0);
    EXPECT_NEAR(t.workDone, 3e9 / 1.5, 1e6);
}

}  // namespace
}  // namespace schedscope::test
