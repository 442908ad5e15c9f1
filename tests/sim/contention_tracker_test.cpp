// ContentionTracker on its own, told of switches as the engine's setCurr() tells it: which CPUs a
// switch re-times (the users of the resources whose stretch it changes: a memory-bound task's
// cluster and home node, none for a task that only computes) and the slowness it leaves.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/contention_tracker.h"
#include "sim/simulator.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using sim::ContentionTracker;

// tasks 0 and 1 stream (90% of their time on memory, 20 GB/s alone), task 2 only computes
workload::Workload twoStreamsAndACompute() {
    workload::Workload wl;
    wl.name = "two streams and a compute";
    for (int i = 0; i < 3; ++i) {
        workload::TaskSpec t;
        t.name = i < 2 ? "stream" + std::to_string(i) : "compute";
        t.memFraction = i < 2 ? 0.9 : 0.0;
        t.bandwidthGBs = i < 2 ? 20.0 : 0.0;
        workload::Op run;
        run.amountNs = 1e6;
        t.script = {run};
        wl.tasks.push_back(t);
    }
    return wl;
}

// `task` starts (or stops) running on `cpu`, told in the engine's order; the CPUs whose task's
// speed the switch may have changed
std::set<int> switchOn(ContentionTracker& c, int cpu, int task, bool start) {
    c.markResourcesOf(cpu, task);
    c.noteRunning(cpu, task, start);
    c.addDemand(cpu, task, start ? +1 : -1);
    c.refreshStretches();
    std::set<int> affected;
    c.addResourceUsers([&](int user) { affected.insert(user); });
    return affected;
}

TEST(ContentionTracker, ASwitchRetimesTheUsersOfTheResourcesItsDemandChanges) {
    const Topology topo = kunpeng920_24();  // clusters of 4 CPUs (46 GB/s), nodes of 24 (56 GB/s)
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    const workload::Workload wl = twoStreamsAndACompute();
    auto state = sim::makeSimState(topo, tree, wl, sim::SimOptions{});
    ASSERT_TRUE(state.ok()) << state.error();
    ContentionTracker c(**state);
    for (int t = 0; t < 3; ++t) c.setHomeNode(t, 0);  // (the engine sets it where a task first runs)

    EXPECT_EQ(switchOn(c, 0, 0, true), std::set<int>{0});
    const double alone = c.taskSlowness(0, 0, 1);
    EXPECT_GT(alone, 1.0) << "20 GB/s stretches a 46 GB/s cluster a little";

    // the second stream in the same cluster and node: both slow down
    EXPECT_EQ(switchOn(c, 1, 1, true), (std::set<int>{0, 1}));
    const double paired = c.taskSlowness(0, 0, 1);
    EXPECT_GT(paired, alone * 1.05);
    EXPECT_DOUBLE_EQ(c.taskSlowness(1, 1, 1), paired);

    // a task that only computes changes no resource: nobody is re-timed, its slowness is 1
    EXPECT_TRUE(switchOn(c, 2, 2, true).empty());
    EXPECT_DOUBLE_EQ(c.taskSlowness(0, 0, 1), paired);
    EXPECT_DOUBLE_EQ(c.taskSlowness(2, 2, 1), 1.0);

    // the second stream leaves: the first runs as it did alone
    EXPECT_EQ(switchOn(c, 1, 1, false), std::set<int>{0});
    EXPECT_DOUBLE_EQ(c.taskSlowness(0, 0, 1), alone);

    // on node 1 (CPU 24), away from its memory: it shares node 0's controllers with the first
    // stream (not CPU 24's cluster), and its memory time stretches by the distance too
    EXPECT_EQ(switchOn(c, 24, 1, true), (std::set<int>{0, 24}));
    EXPECT_GT(c.taskSlowness(24, 1, 1), c.taskSlowness(0, 0, 1) * 1.05);
    EXPECT_GT(c.taskSlowness(0, 0, 1), alone);
    EXPECT_LT(c.taskSlowness(0, 0, 1), paired) << "a cluster of its own: only the node is shared";
}

}  // namespace
}  // namespace schedscope::test
